import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { datasetService } from './service.js';

export function datasetsRouter({ knex }: ModuleDeps): express.Router {
  const datasets = datasetService(knex);
  const r = express.Router();

  r.get(
    '/api/proxy/api/datasets',
    handle('listDatasets', async ({ req, query }) => ({ status: 200, body: await datasets.list(authOf(req).userId, query.exclude_pinned === true) })),
  );

  r.get(
    '/api/proxy/api/datasets/:id/values',
    handle('getDatasetValues', async ({ req, params }) => ({ status: 200, body: await datasets.values(params.id, authOf(req).userId) })),
  );

  return r;
}
