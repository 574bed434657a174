import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import { lifecycleActions, runBulk } from '../../http/bulk.js';
import type { ClusterService } from './service.js';

export function clusterRoutes({ clusters }: { clusters: ClusterService }) {
  return operations({
    listClusters: async ({ auth, query }) => ({ status: 200, body: await clusters.list(auth, query) }),
    // A refused export rejects the handler's promise, as every other handler's refusal does.
    exportClusters: ({ auth, query, req }) =>
      Promise.resolve().then(() => csvReply(clusters.export(auth, pageOrAll(req, query)))),
    bulkClusters: async ({ auth, body, req }) => runBulk(req, body, lifecycleActions(clusters, auth)),
    getCluster: async ({ auth, params }) => versioned(200, await clusters.get(auth, params.id)),
    createCluster: async ({ auth, body }) => {
      const created = await clusters.create(auth, body);
      return versioned(201, created, { Location: `/api-system/clusters/${created.id}` });
    },
    updateCluster: async ({ auth, params, body, req }) =>
      versioned(200, await clusters.update(auth, params.id, body, ifMatch(req.headers['if-match']))),
    restoreCluster: async ({ auth, params }) => versioned(200, await clusters.restore(auth, params.id)),
    deleteCluster: async ({ auth, params }) => {
      await clusters.remove(auth, params.id);
      return { status: 204 };
    },
  });
}
