import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { ForbiddenError, NotFoundError } from '../../core/errors.js';
import { can, clustersWith, type AuthContext } from '../../core/permissions.js';
import { allDatasets, describe, findDataset, type DatasetInfo } from './catalog.js';
import { datasetRepository, type InCurrency } from './repository.js';

export type DatasetValues = Schemas['DatasetValues'];

/** The datasets the caller has pinned already (the widgets module owns them). */
export type PinnedDatasets = (auth: AuthContext) => Promise<Set<string>>;

type Definition = NonNullable<ReturnType<typeof findDataset>>;

/** A platform-wide figure is for callers holding one of its keys platform-wide; the others are scoped per caller. */
function mayCompute(auth: AuthContext, dataset: Definition): boolean {
  return dataset.scope !== 'platform' || (dataset.platformKeys ?? []).some((key) => can(auth.permissions, key));
}

export function datasetService({ knex, pinnedDatasetIds }: { knex: Knex; pinnedDatasetIds: PinnedDatasets }) {
  const repo = datasetRepository({ knex });
  return {
    /** The catalog the caller may use; for the add-widget picker, without the datasets the caller already pinned. */
    async list(auth: AuthContext, excludePinned: boolean): Promise<{ items: DatasetInfo[]; count: number }> {
      const pinned = excludePinned ? await pinnedDatasetIds(auth) : new Set<string>();
      const items = allDatasets()
        .filter((d) => !pinned.has(d.id) && mayCompute(auth, d))
        .map(describe);
      return { items, count: items.length };
    },

    /** Computed over what the caller may read: its own rows, its readable clusters, or (with the grant) everything. */
    async values(auth: AuthContext, id: string, currency?: string): Promise<DatasetValues> {
      const dataset = findDataset(id);
      if (!dataset) throw new NotFoundError(`No dataset ${id} in the catalog`);
      if (!mayCompute(auth, dataset)) {
        throw new ForbiddenError(
          `The dataset ${id} covers the whole platform: it needs ${dataset.platformKeys!.join(' or ')} on all clusters`,
        );
      }
      const computed = await dataset.values(repo, {
        userId: auth.userId,
        readableClusters: clustersWith(auth.permissions, 'cluster.read'),
        currency,
      });
      const money = dataset.measure === 'money' ? (computed as InCurrency<DatasetValues['data']>) : undefined;
      return {
        dataset_id: dataset.id,
        shape: dataset.shape,
        generated_at: new Date().toISOString(),
        data: money ? money.data : (computed as DatasetValues['data']),
        currency: money?.currency ?? null,
        currencies: money?.currencies ?? [],
      };
    },
  };
}

export type DatasetService = ReturnType<typeof datasetService>;
