import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { toCount } from '../../db/count.js';
import { applyListQuery, likeContains } from '../../db/sql.js';
import { type DeletedFilter, type ListQuery } from '../../core/list-query.js';
import { nextUpdatedAt, selectAuditActors } from '../../db/sql.js';
import { type AuditRow } from '../../core/audit.js';

export interface ClusterRow extends AuditRow {
  id: string;
  code: string;
  name: string;
  alias_name: string | null;
  max_license_bu: number | null;
  is_active: boolean;
  logo_key: string | null;
  avatar_key: string | null;
}

/** The row alone, as locked for a write. */
export type ClusterRecord = Omit<ClusterRow, 'created_by_name' | 'updated_by_name' | 'deleted_by_name'>;

export interface ClusterCounts {
  bu_count: number;
  users_count: number;
  total_max_license_users: number | null;
}

/** The columns a create or update writes: one per field of the contract's input, so a new field fails the build until handled. */
export type ClusterWrite = { [K in keyof Required<Schemas['ClusterInput']>]: Exclude<Schemas['ClusterInput'][K], undefined> };

export interface ClusterListFilter {
  list: ListQuery;
  isActive: boolean | undefined;
  deleted: DeletedFilter;
  /** 'all', or the only cluster ids the caller may read */
  scope: 'all' | string[];
}

/** Wire sort field → column (the contract's whitelist). */
export const CLUSTER_SORTABLE: Record<string, string> = {
  code: 'clusters.code',
  name: 'clusters.name',
  alias_name: 'clusters.alias_name',
  is_active: 'clusters.is_active',
  max_license_bu: 'clusters.max_license_bu',
  created_at: 'clusters.created_at',
  updated_at: 'clusters.updated_at',
  deleted_at: 'clusters.deleted_at',
};

const COLUMNS = ['id', 'code', 'name', 'alias_name', 'max_license_bu', 'is_active', 'logo_key', 'avatar_key',
  'created_at', 'created_by_id', 'updated_at', 'updated_by_id', 'deleted_at', 'deleted_by_id'].map((c) => `clusters.${c}`);

export function clusterRepository(knex: Knex) {
  const withActors = (db: Knex | Knex.Transaction) => selectAuditActors(knex, db('clusters').select(COLUMNS), 'clusters');

  function filtered(db: Knex | Knex.Transaction, f: ClusterListFilter): Knex.QueryBuilder {
    const qb = db('clusters');
    if (f.deleted === 'exclude') qb.whereNull('clusters.deleted_at');
    else if (f.deleted === 'only') qb.whereNotNull('clusters.deleted_at');
    if (f.isActive !== undefined) qb.where('clusters.is_active', f.isActive);
    if (f.scope !== 'all') qb.whereIn('clusters.id', f.scope);
    if (f.list.search) {
      // lower(col) LIKE matches the trigram indexes on lower(code|name|alias_name).
      const pattern = likeContains(f.list.search.toLowerCase());
      qb.where((w) =>
        w.whereRaw('lower(clusters.code) like ?', [pattern])
          .orWhereRaw('lower(clusters.name) like ?', [pattern])
          .orWhereRaw('lower(clusters.alias_name) like ?', [pattern]),
      );
    }
    return qb;
  }

  return {
    /** One page of rows and the total; counts are fetched separately for the page's ids. */
    async listPage(db: Knex | Knex.Transaction, f: ClusterListFilter): Promise<{ rows: ClusterRow[]; total: number }> {
      const base = filtered(db, f);
      const [countRow] = await base.clone().count({ count: '*' });
      const total = toCount(countRow?.count);
      if (total === 0) return { rows: [], total };
      // Page the ids first: a deep offset then skips bare index entries, and the audit-name joins run for the
      // page's rows only (page 500 of 10,000 clusters went from 12.6 ms to 0.75 ms; bench/FINDINGS.md).
      const pageIds = applyListQuery(base.clone().select('clusters.id'), f.list, 'clusters.id');
      const page = applyListQuery(withActors(db).whereIn('clusters.id', pageIds), { ...f.list, limit: undefined }, 'clusters.id');
      return { rows: (await page) as ClusterRow[], total };
    },

    /**
     * bu_count, users_count and total_max_license_users for the given clusters only: one grouped query over
     * business units and one over memberships, whatever the number of ids.
     */
    async countsFor(db: Knex | Knex.Transaction, ids: string[]): Promise<Map<string, ClusterCounts>> {
      const out = new Map<string, ClusterCounts>(ids.map((id) => [id, { bu_count: 0, users_count: 0, total_max_license_users: null }]));
      if (ids.length === 0) return out;
      const buRows: Array<{ cluster_id: string; bu_count: unknown; total: unknown; unlimited: boolean }> = await db('business_units')
        .select('cluster_id')
        .count({ bu_count: '*' })
        .select(knex.raw('sum(max_license_users) as total'))
        .select(knex.raw('bool_or(max_license_users is null) as unlimited'))
        .whereIn('cluster_id', ids)
        .whereNull('deleted_at')
        .groupBy('cluster_id');
      for (const r of buRows) {
        const c = out.get(r.cluster_id)!;
        c.bu_count = toCount(r.bu_count);
        c.total_max_license_users = r.unlimited || r.total === null ? null : toCount(r.total);
      }
      const userRows: Array<{ cluster_id: string; users_count: unknown }> = await db('cluster_users')
        .select('cluster_id')
        .count({ users_count: '*' })
        .whereIn('cluster_id', ids)
        .groupBy('cluster_id');
      for (const r of userRows) out.get(r.cluster_id)!.users_count = toCount(r.users_count);
      return out;
    },

    async findById(db: Knex | Knex.Transaction, id: string): Promise<ClusterRow | undefined> {
      return withActors(db).where('clusters.id', id).first();
    },

    /** Locks the cluster row until the transaction ends (serialises licence checks and concurrent edits). */
    async lockById(trx: Knex.Transaction, id: string): Promise<ClusterRecord | undefined> {
      return trx('clusters').select(COLUMNS).where('clusters.id', id).forUpdate().first();
    },

    async liveBusinessUnitCount(db: Knex | Knex.Transaction, clusterId: string): Promise<number> {
      const [row] = await db('business_units').count({ count: '*' }).where({ cluster_id: clusterId }).whereNull('deleted_at');
      return toCount(row?.count);
    },

    async insert(db: Knex | Knex.Transaction, values: ClusterWrite, actorId: string): Promise<string> {
      const [row] = await db('clusters')
        .insert({ ...values, created_by_id: actorId, updated_by_id: actorId })
        .returning('id');
      return (row as { id: string }).id;
    },

    async update(db: Knex | Knex.Transaction, id: string, values: ClusterWrite, actorId: string): Promise<void> {
      await db('clusters')
        .where({ id })
        .update({ ...values, updated_by_id: actorId, updated_at: nextUpdatedAt(knex, 'clusters') });
    },

    async softDelete(db: Knex | Knex.Transaction, id: string, actorId: string): Promise<void> {
      await db('clusters').where({ id }).update({ deleted_at: knex.fn.now(), deleted_by_id: actorId });
    },

    async restore(db: Knex | Knex.Transaction, id: string, actorId: string): Promise<void> {
      await db('clusters')
        .where({ id })
        .update({ deleted_at: null, deleted_by_id: null, updated_by_id: actorId, updated_at: nextUpdatedAt(knex, 'clusters') });
    },

    /** A live cluster other than `exceptId` holding this code and name. */
    async liveWithCodeAndName(db: Knex | Knex.Transaction, code: string, name: string, exceptId?: string): Promise<boolean> {
      const qb = db('clusters').select('id').where({ code, name }).whereNull('deleted_at');
      if (exceptId) qb.whereNot('id', exceptId);
      return !!(await qb.first());
    },
  };
}

