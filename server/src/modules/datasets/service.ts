import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { NotFoundError } from '../../core/errors.js';
import { allDatasets, describe, findDataset, type DatasetInfo } from './catalog.js';
import { datasetRepository } from './repository.js';

export type DatasetValues = Schemas['DatasetValues'];

/** The datasets a user has pinned already (the widgets module owns them). */
export type PinnedDatasets = (userId: string) => Promise<Set<string>>;

export function datasetService(knex: Knex, pinnedDatasetIds: PinnedDatasets) {
  const repo = datasetRepository(knex);
  return {
    /** The catalog; for the add-widget picker, without the datasets the caller already pinned. */
    async list(userId: string, excludePinned: boolean): Promise<{ items: DatasetInfo[]; count: number }> {
      const pinned = excludePinned ? await pinnedDatasetIds(userId) : new Set<string>();
      const items = allDatasets().filter((d) => !pinned.has(d.id)).map(describe);
      return { items, count: items.length };
    },

    async values(id: string, userId: string): Promise<DatasetValues> {
      const dataset = findDataset(id);
      if (!dataset) throw new NotFoundError(`No dataset ${id} in the catalog`);
      const data = await dataset.values(repo, userId);
      return { dataset_id: dataset.id, shape: dataset.shape, generated_at: new Date().toISOString(), data };
    },
  };
}

export type DatasetService = ReturnType<typeof datasetService>;
