import express from 'express';
import { checkIfMatch, etagOf } from '../../http/etag.js';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { businessUnitService } from './service.js';

export function businessUnitsRouter({ knex, storage }: ModuleDeps): express.Router {
  const businessUnits = businessUnitService({ knex, storage });
  const r = express.Router();

  r.get(
    '/api-system/business-units',
    handle('listBusinessUnits', async ({ req, query }) => ({ status: 200, body: await businessUnits.list(authOf(req), query) })),
  );

  r.post(
    '/api-system/business-units',
    handle('createBusinessUnit', async ({ req, body }) => {
      const bu = await businessUnits.create(authOf(req), body);
      return { status: 201, body: bu, headers: { Location: `/api-system/business-units/${bu.id}`, ETag: etagOf(bu) } };
    }),
  );

  r.get(
    '/api-system/business-units/:id',
    handle('getBusinessUnit', async ({ req, params }) => {
      const bu = await businessUnits.get(authOf(req), params.id);
      return { status: 200, body: bu, headers: { ETag: etagOf(bu) } };
    }),
  );

  r.put(
    '/api-system/business-units/:id',
    handle('updateBusinessUnit', async ({ req, params, body }) => {
      const bu = await businessUnits.update(authOf(req), params.id, body, (current) => checkIfMatch(req, current));
      return { status: 200, body: bu, headers: { ETag: etagOf(bu) } };
    }),
  );

  r.delete(
    '/api-system/business-units/:id',
    handle('deleteBusinessUnit', async ({ req, params }) => {
      await businessUnits.remove(authOf(req), params.id);
      return { status: 204 };
    }),
  );

  r.post(
    '/api-system/business-units/:id/restore',
    handle('restoreBusinessUnit', async ({ req, params }) => {
      const bu = await businessUnits.restore(authOf(req), params.id);
      return { status: 200, body: bu, headers: { ETag: etagOf(bu) } };
    }),
  );

  return r;
}
