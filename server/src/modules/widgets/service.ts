import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import type { FreshnessCheck } from '../../core/etag.js';
import type { AuthContext } from '../../core/permissions.js';
import { pick, type AuditTrail } from '../audit/service.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { canRender, findDataset, WIDGET_TYPES_BY_SHAPE } from '../datasets/catalog.js';
import { widgetRepository, type WidgetRecord } from './repository.js';

const NOT_FOUND = 'No such widget on your dashboard';
/** The fields of a widget its audit events show. */
const WIDGET_FIELDS = ['dataset_id', 'widget_type', 'title', 'order_index'];

function cleanTitle(title: string | null | undefined): string | null {
  return title === undefined || title === null || title.trim() === '' ? null : title.trim();
}

export function widgetService({ knex, audit }: { knex: Knex; audit: AuditTrail }) {
  const repo = widgetRepository({ knex });
  return {
    pinnedDatasetIds: (auth: AuthContext) => repo.pinnedDatasetIds(auth.userId),

    async list(auth: AuthContext): Promise<{ items: WidgetRecord[]; count: number }> {
      const items = await repo.listOwned(auth.userId);
      return { items, count: items.length };
    },

    /** Validate against the catalog → lock the owner → refuse a second pin → append at the next slot. */
    async add(auth: AuthContext, input: Schemas['WidgetCreate']): Promise<WidgetRecord> {
      const { userId } = auth;
      const dataset = findDataset(input.dataset_id);
      if (!dataset) {
        throw new BadRequestError(`unknown dataset "${input.dataset_id}" — see GET /api/proxy/api/datasets`, [
          { path: '/body/dataset_id', message: 'is not a dataset of the catalog' },
        ]);
      }
      if (!canRender(dataset, input.widget_type)) {
        const allowed = WIDGET_TYPES_BY_SHAPE[dataset.shape].join(' or ');
        throw new BadRequestError(
          `widget_type ${input.widget_type} cannot render the ${dataset.shape} dataset ${dataset.id}; use ${allowed}`,
          [{ path: '/body/widget_type', message: `must be ${allowed} for a ${dataset.shape} dataset` }],
        );
      }
      return knex.transaction(async (trx) => {
        await repo.lockOwner(trx, userId);
        if (await repo.isPinned(trx, userId, dataset.id))
          throw new ConflictError(`The dataset ${dataset.id} is already pinned to your dashboard`);
        const order_index = await repo.nextSlot(trx, userId);
        const added = await repo.insert(trx, {
          user_id: userId,
          dataset_id: dataset.id,
          widget_type: input.widget_type,
          title: cleanTitle(input.title),
          order_index,
        });
        await audit.record(trx, auth, {
          action: 'createWidget',
          target: { type: 'widget', id: added.id },
          after: pick(added, WIDGET_FIELDS),
        });
        return added;
      });
    },

    /** Rename (null or blank shows the dataset's name again) and/or move. */
    async change(
      auth: AuthContext,
      id: string,
      input: Schemas['WidgetUpdate'],
      assertFresh: FreshnessCheck,
    ): Promise<WidgetRecord> {
      const { userId } = auth;
      const patch: { title?: string | null; order_index?: number } = {};
      if (input.title !== undefined) patch.title = cleanTitle(input.title);
      if (input.order_index !== undefined) patch.order_index = input.order_index;
      return knex.transaction(async (trx) => {
        const current = await repo.lockOwned(trx, id, userId);
        if (!current) throw new NotFoundError(NOT_FOUND);
        assertFresh(current);
        const updated = (await repo.updateOwned(trx, id, userId, patch))!;
        await audit.record(trx, auth, {
          action: 'updateWidget',
          target: { type: 'widget', id },
          before: pick(current, Object.keys(patch)),
          after: patch,
        });
        return updated;
      });
    },

    async remove(auth: AuthContext, id: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const removed = await repo.deleteOwned(trx, id, auth.userId);
        if (!removed) throw new NotFoundError(NOT_FOUND);
        await audit.record(trx, auth, {
          action: 'deleteWidget',
          target: { type: 'widget', id },
          before: pick(removed, WIDGET_FIELDS),
        });
      });
    },
  };
}

export type WidgetService = ReturnType<typeof widgetService>;
