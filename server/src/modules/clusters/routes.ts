import express from 'express';
import { checkIfMatch, etagOf } from '../../http/etag.js';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { clusterService } from './service.js';

export function clustersRouter({ knex, storage }: ModuleDeps): express.Router {
  const clusters = clusterService({ knex, storage });
  const r = express.Router();

  r.get(
    '/api-system/clusters',
    handle('listClusters', async ({ req, query }) => ({ status: 200, body: await clusters.list(authOf(req), query) })),
  );

  r.post(
    '/api-system/clusters',
    handle('createCluster', async ({ req, body }) => {
      const cluster = await clusters.create(authOf(req), body);
      return { status: 201, body: cluster, headers: { Location: `/api-system/clusters/${cluster.id}`, ETag: etagOf(cluster) } };
    }),
  );

  r.get(
    '/api-system/clusters/:id',
    handle('getCluster', async ({ req, params }) => {
      const cluster = await clusters.get(authOf(req), params.id);
      return { status: 200, body: cluster, headers: { ETag: etagOf(cluster) } };
    }),
  );

  r.put(
    '/api-system/clusters/:id',
    handle('updateCluster', async ({ req, params, body }) => {
      const cluster = await clusters.update(authOf(req), params.id, body, (current) => checkIfMatch(req, current));
      return { status: 200, body: cluster, headers: { ETag: etagOf(cluster) } };
    }),
  );

  r.delete(
    '/api-system/clusters/:id',
    handle('deleteCluster', async ({ req, params }) => {
      await clusters.remove(authOf(req), params.id);
      return { status: 204 };
    }),
  );

  r.post(
    '/api-system/clusters/:id/restore',
    handle('restoreCluster', async ({ req, params }) => {
      const cluster = await clusters.restore(authOf(req), params.id);
      return { status: 200, body: cluster, headers: { ETag: etagOf(cluster) } };
    }),
  );

  return r;
}
