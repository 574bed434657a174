import { operations } from '../../http/handler.js';
import type { DatasetService } from './service.js';

export function datasetRoutes({ datasets }: { datasets: DatasetService }) {
  return operations({
    listDatasets: async ({ auth, query }) => ({
      status: 200,
      body: await datasets.list(auth, query.exclude_pinned === true),
    }),
    getDatasetValues: async ({ auth, params, query }) => ({
      status: 200,
      body: await datasets.values(auth, params.id, query.currency),
    }),
  });
}
