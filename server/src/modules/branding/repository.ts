import type { Knex } from 'knex';

export type BrandedTable = 'clusters' | 'business_units';
export type ImageField = 'logo' | 'avatar';

export interface BrandedRecord {
  id: string;
  /** the record's own id for a cluster, the parent cluster for a business unit */
  cluster_id: string;
  deleted_at: Date | null;
  /** The record's version: its ETag is made of id and updated_at. */
  updated_at: Date | string | null;
  logo_key: string | null;
  avatar_key: string | null;
}

export function brandingRepository() {
  const select = (db: Knex | Knex.Transaction, table: BrandedTable) =>
    db(table).select(
      'id',
      table === 'clusters' ? 'id as cluster_id' : 'cluster_id',
      'deleted_at',
      'updated_at',
      'logo_key',
      'avatar_key',
    );

  return {
    async find(db: Knex | Knex.Transaction, table: BrandedTable, id: string): Promise<BrandedRecord | undefined> {
      return select(db, table).where({ id }).first<BrandedRecord | undefined>();
    },

    async lock(trx: Knex.Transaction, table: BrandedTable, id: string): Promise<BrandedRecord | undefined> {
      return select(trx, table).where({ id }).forUpdate().first<BrandedRecord | undefined>();
    },

    /**
     * The images of one field that this record's uploads replaced, as the audit trail recorded them (each upload's
     * `before`): the objects kept for the history until the field's image is removed.
     */
    async replacedImageKeys(
      db: Knex | Knex.Transaction,
      uploadAction: string,
      id: string,
      field: ImageField,
    ): Promise<string[]> {
      const rows = await db('audit_events')
        .select(db.raw('changes -> ? ->> ? as key', [`${field}_key`, 'before']))
        .where({ action: uploadAction, target_id: id });
      return (rows as { key: string | null }[]).flatMap((r) => (r.key ? [r.key] : []));
    },

    /** Sets (or, with null, clears) the image key; an image is not a form change, so updated_at (and the ETag) stay as they are. */
    async setImageKey(
      db: Knex | Knex.Transaction,
      table: BrandedTable,
      id: string,
      field: ImageField,
      key: string | null,
    ): Promise<void> {
      await db(table)
        .where({ id })
        .update({ [`${field}_key`]: key });
    },
  };
}
