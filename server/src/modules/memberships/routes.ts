import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { membershipService } from './service.js';

export function membershipsRouter({ knex }: ModuleDeps): express.Router {
  const memberships = membershipService({ knex });
  const r = express.Router();

  r.get(
    '/api-system/user/clusters/:id',
    handle('listClusterUsers', async ({ req, params }) => ({ status: 200, body: await memberships.listClusterUsers(authOf(req), params.id) })),
  );
  r.post(
    '/api-system/user/clusters',
    handle('addClusterUser', async ({ req, body }) => ({ status: 201, body: await memberships.addClusterUser(authOf(req), body) })),
  );
  r.put(
    '/api-system/user/clusters/:id',
    handle('updateClusterUser', async ({ req, params, body }) => ({
      status: 200,
      body: await memberships.updateClusterUser(authOf(req), params.id, body),
    })),
  );
  r.delete(
    '/api-system/user/clusters/:id',
    handle('removeClusterUser', async ({ req, params }) => {
      await memberships.removeClusterUser(authOf(req), params.id);
      return { status: 204 };
    }),
  );

  r.get(
    '/api-system/user/business-units/:id',
    handle('listBusinessUnitUsers', async ({ req, params }) => ({
      status: 200,
      body: await memberships.listBusinessUnitUsers(authOf(req), params.id),
    })),
  );
  r.post(
    '/api-system/user/business-units',
    handle('addBusinessUnitUser', async ({ req, body }) => ({ status: 201, body: await memberships.addBusinessUnitUser(authOf(req), body) })),
  );
  r.patch(
    '/api-system/user/business-units/:id',
    handle('updateBusinessUnitUser', async ({ req, params, body }) => ({
      status: 200,
      body: await memberships.updateBusinessUnitUser(authOf(req), params.id, body),
    })),
  );
  r.delete(
    '/api-system/user/business-units/:id',
    handle('removeBusinessUnitUser', async ({ req, params }) => {
      await memberships.removeBusinessUnitUser(authOf(req), params.id);
      return { status: 204 };
    }),
  );

  return r;
}
