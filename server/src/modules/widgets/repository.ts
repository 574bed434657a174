import type { Knex } from 'knex';
import { nextUpdatedAt } from '../../db/sql.js';
import type { components } from '../../../../openapi/generated/schema.js';

export type WidgetRecord = components['schemas']['Widget'];

const COLUMNS = ['id', 'dataset_id', 'widget_type', 'title', 'order_index', 'created_at', 'updated_at'];
const toIso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function toRecord(row: Record<string, unknown>): WidgetRecord {
  return {
    id: row.id as string,
    dataset_id: row.dataset_id as string,
    widget_type: row.widget_type as WidgetRecord['widget_type'],
    title: (row.title as string | null) ?? null,
    order_index: Number(row.order_index),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** What a change of a widget reads under its lock: the version (for If-Match) and the fields it merges. */
interface OwnedVersion {
  id: string;
  updated_at: Date;
  title: string | null;
  order_index: number;
}

/** Every query is scoped to the owner: another user's widget simply does not exist here. */
export function widgetRepository({ knex }: { knex: Knex }) {
  return {
    async listOwned(userId: string): Promise<WidgetRecord[]> {
      const rows = await knex('dashboard_widgets')
        .select(COLUMNS)
        .where({ user_id: userId })
        .orderBy([
          { column: 'order_index', order: 'asc' },
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return (rows as Array<Record<string, unknown>>).map(toRecord);
    },

    async pinnedDatasetIds(userId: string): Promise<Set<string>> {
      const rows = await knex('dashboard_widgets')
        .select<Array<{ dataset_id: string }>>('dataset_id')
        .where({ user_id: userId });
      return new Set(rows.map((r) => r.dataset_id));
    },

    /** Serialises one user's adds, so parallel adds get distinct slots (the user row is the lock). */
    async lockOwner(trx: Knex.Transaction, userId: string): Promise<void> {
      await trx('users').select('id').where({ id: userId }).forUpdate();
    },

    async isPinned(trx: Knex.Transaction, userId: string, datasetId: string): Promise<boolean> {
      return !!(await trx('dashboard_widgets').select('id').where({ user_id: userId, dataset_id: datasetId }).first());
    },

    /** The slot after the last one: slots are 10 apart and the first is 10. */
    async nextSlot(trx: Knex.Transaction, userId: string): Promise<number> {
      const row = (await trx('dashboard_widgets').max({ max: 'order_index' }).where({ user_id: userId }).first()) as
        { max: number | null } | undefined;
      return (row?.max === null || row?.max === undefined ? 0 : Number(row.max)) + 10;
    },

    async insert(
      trx: Knex.Transaction,
      row: { user_id: string; dataset_id: string; widget_type: string; title: string | null; order_index: number },
    ): Promise<WidgetRecord> {
      const [created] = await trx('dashboard_widgets').insert(row).returning<Array<Record<string, unknown>>>(COLUMNS);
      return toRecord(created as Record<string, unknown>);
    },

    /** The caller's widget locked for the rest of the transaction (its version, for If-Match). */
    async lockOwned(trx: Knex.Transaction, id: string, userId: string): Promise<OwnedVersion | undefined> {
      return trx('dashboard_widgets')
        .select('id', 'updated_at', 'title', 'order_index')
        .where({ id, user_id: userId })
        .forUpdate()
        .first<OwnedVersion | undefined>();
    },

    async updateOwned(
      db: Knex | Knex.Transaction,
      id: string,
      userId: string,
      patch: { title?: string | null; order_index?: number },
    ): Promise<WidgetRecord | undefined> {
      const [updated] = await db('dashboard_widgets')
        .update({ ...patch, updated_at: nextUpdatedAt(knex, 'dashboard_widgets') })
        .where({ id, user_id: userId })
        .returning<Array<Record<string, unknown>>>(COLUMNS);
      return updated ? toRecord(updated) : undefined;
    },

    /** Deletes the caller's widget and returns what it was (undefined when there was none). */
    async deleteOwned(db: Knex | Knex.Transaction, id: string, userId: string): Promise<WidgetRecord | undefined> {
      // `returning` rather than the affected count: knex-pglite answers a plain delete with the raw result object.
      const [deleted] = await db('dashboard_widgets')
        .delete()
        .where({ id, user_id: userId })
        .returning<Array<Record<string, unknown>>>(COLUMNS);
      return deleted ? toRecord(deleted) : undefined;
    },
  };
}
