import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import type { FreshnessCheck } from '../../core/etag.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { canRender, findDataset, WIDGET_TYPES_BY_SHAPE } from '../datasets/catalog.js';
import { widgetRepository, type WidgetRecord } from './repository.js';

const NOT_FOUND = 'No such widget on your dashboard';

function cleanTitle(title: string | null | undefined): string | null {
  return title === undefined || title === null || title.trim() === '' ? null : title.trim();
}

export function widgetService(knex: Knex) {
  const repo = widgetRepository(knex);
  return {
    pinnedDatasetIds: (userId: string) => repo.pinnedDatasetIds(userId),

    async list(userId: string): Promise<{ items: WidgetRecord[]; count: number }> {
      const items = await repo.listOwned(userId);
      return { items, count: items.length };
    },

    /** Validate against the catalog → lock the owner → refuse a second pin → append at the next slot. */
    async add(userId: string, input: Schemas['WidgetCreate']): Promise<WidgetRecord> {
      const dataset = findDataset(input.dataset_id);
      if (!dataset) {
        throw new BadRequestError(`unknown dataset "${input.dataset_id}" — see GET /api/proxy/api/datasets`, [
          { path: '/body/dataset_id', message: 'is not a dataset of the catalog' },
        ]);
      }
      if (!canRender(dataset, input.widget_type)) {
        const allowed = WIDGET_TYPES_BY_SHAPE[dataset.shape].join(' or ');
        throw new BadRequestError(`widget_type ${input.widget_type} cannot render the ${dataset.shape} dataset ${dataset.id}; use ${allowed}`, [
          { path: '/body/widget_type', message: `must be ${allowed} for a ${dataset.shape} dataset` },
        ]);
      }
      return knex.transaction(async (trx) => {
        await repo.lockOwner(trx, userId);
        if (await repo.isPinned(trx, userId, dataset.id)) throw new ConflictError(`The dataset ${dataset.id} is already pinned to your dashboard`);
        const order_index = await repo.nextSlot(trx, userId);
        return repo.insert(trx, { user_id: userId, dataset_id: dataset.id, widget_type: input.widget_type, title: cleanTitle(input.title), order_index });
      });
    },

    /** Rename (null or blank shows the dataset's name again) and/or move. */
    async change(userId: string, id: string, input: Schemas['WidgetUpdate'], assertFresh: FreshnessCheck): Promise<WidgetRecord> {
      const patch: { title?: string | null; order_index?: number } = {};
      if (input.title !== undefined) patch.title = cleanTitle(input.title);
      if (input.order_index !== undefined) patch.order_index = input.order_index;
      return knex.transaction(async (trx) => {
        const current = await repo.lockOwned(trx, id, userId);
        if (!current) throw new NotFoundError(NOT_FOUND);
        assertFresh(current);
        return (await repo.updateOwned(trx, id, userId, patch))!;
      });
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.deleteOwned(id, userId))) throw new NotFoundError(NOT_FOUND);
    },
  };
}

export type WidgetService = ReturnType<typeof widgetService>;
