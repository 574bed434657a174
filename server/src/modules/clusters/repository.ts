import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { toCount } from '../../db/count.js';
import {
  LIST_PAGE,
  applyListQuery,
  listStatementParts,
  nextUpdatedAt,
  prepared,
  selectAuditActors,
} from '../../db/sql.js';
import type { ListShape, ListValues } from '../../db/sql.js';
import { compiledListPage } from '../../db/compiled-list-page.js';
import { type DeletedFilter, type ListQuery, type PageRows } from '../../core/list-query.js';
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

/** The row and its version: PostgreSQL's `xmin`, which every write of the row changes, whoever makes it. */
export type VersionedClusterRecord = ClusterRecord & { row_version: string };

/** The counts as the database returns them (bigint: a number or a string, by engine). */
export interface ClusterCounts {
  bu_count: unknown;
  users_count: unknown;
  total_max_license_users: unknown;
}

export type ClusterListRow = ClusterRow & ClusterCounts;

/** The columns a create or update writes: one per field of the contract's input, so a new field fails the build until handled. */
export type ClusterWrite = {
  [K in keyof Required<Schemas['ClusterInput']>]: Exclude<Schemas['ClusterInput'][K], undefined>;
};

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

/** The sort fields whose column is never null (the keyset's bounds use their indexes as ranges). */
export const CLUSTER_NOT_NULL = ['code', 'name', 'is_active', 'created_at', 'updated_at'];

const COLUMNS = [
  'id',
  'code',
  'name',
  'alias_name',
  'max_license_bu',
  'is_active',
  'logo_key',
  'avatar_key',
  'created_at',
  'created_by_id',
  'updated_at',
  'updated_by_id',
  'deleted_at',
  'deleted_by_id',
].map((c) => `clusters.${c}`);

export function clusterRepository({ knex }: { knex: Knex }) {
  /** The row's columns and audit names, on a builder that has `clusters` in scope. */
  const withActors = (qb: Knex.QueryBuilder) => selectAuditActors(knex, qb.select(COLUMNS), 'clusters');

  /**
   * bu_count and total_max_license_users (null when a live unit is unlimited, or there is none) from one lateral
   * aggregate over the cluster's live units, users_count from its memberships; both index lookups per row.
   */
  const withCounts = (qb: Knex.QueryBuilder) =>
    qb
      .joinRaw(
        `left join lateral (select count(*) as bu_count,
         case when bool_or(b.max_license_users is null) then null else sum(b.max_license_users) end as total_max_license_users
         from business_units b where b.cluster_id = clusters.id and b.deleted_at is null) as cluster_units on true`,
      )
      .select(
        'cluster_units.bu_count',
        'cluster_units.total_max_license_users',
        knex.raw('(select count(*) from cluster_users m where m.cluster_id = clusters.id) as users_count'),
      );

  /** The list's FROM and WHERE. The scope is one array, so every scoped caller's list has one text. */
  function filtered(db: Knex | Knex.Transaction, shape: ListShape, values: ListValues): Knex.QueryBuilder {
    const qb = db('clusters');
    if (shape.deleted === 'exclude') qb.whereNull('clusters.deleted_at');
    else if (shape.deleted === 'only') qb.whereNotNull('clusters.deleted_at');
    if (shape.isActive !== null) qb.where('clusters.is_active', shape.isActive);
    if (values.scope !== undefined) qb.whereRaw('clusters.id = any(?::uuid[])', [values.scope]);
    if (values.pattern !== undefined) {
      // lower(col) LIKE matches the trigram indexes on lower(code|name|alias_name).
      const pattern = values.pattern;
      qb.where((w) => {
        w.whereRaw('lower(clusters.code) like ?', [pattern])
          .orWhereRaw('lower(clusters.name) like ?', [pattern])
          .orWhereRaw('lower(clusters.alias_name) like ?', [pattern]);
      });
    }
    return qb;
  }

  /** Joins the page's rows, with their audit names and counts, to the list statement's ids. */
  const selectPageRows = (qb: Knex.QueryBuilder) =>
    withCounts(withActors(qb.leftJoin('clusters', 'clusters.id', `${LIST_PAGE}.id`)));

  const listPageOf = compiledListPage('clusters.id', filtered, selectPageRows);

  return {
    /** One page of rows with their counts, and the total: one statement (see `listPageStatement`). */
    listPage(db: Knex | Knex.Transaction, f: ClusterListFilter): Promise<PageRows<ClusterListRow>> {
      return listPageOf<ClusterListRow>(db, f.list, ...listStatementParts(f));
    },

    /** The list's rows with their counts in the list's order, every one (or the page, when `f.list` has a limit): an export's query. */
    exportRows(db: Knex | Knex.Transaction, f: ClusterListFilter): Knex.QueryBuilder {
      return applyListQuery(withCounts(filtered(db, ...listStatementParts(f)).select(COLUMNS)), f.list, 'clusters.id');
    },

    /** One cluster with its audit names and counts (the detail view). */
    async findWithCounts(db: Knex | Knex.Transaction, id: string): Promise<ClusterListRow | undefined> {
      return withCounts(withActors(db('clusters')))
        .where('clusters.id', id)
        .first<ClusterListRow | undefined>();
    },

    async findById(db: Knex | Knex.Transaction, id: string): Promise<ClusterRow | undefined> {
      return withActors(db('clusters')).where('clusters.id', id).first<ClusterRow | undefined>();
    },

    /**
     * The row as it is now, with its version; `lock` keeps it from changing until the transaction ends (serialises
     * licence checks and concurrent edits).
     */
    async findForWrite(
      db: Knex | Knex.Transaction,
      id: string,
      opts: { lock: boolean },
    ): Promise<VersionedClusterRecord | undefined> {
      const qb = db('clusters')
        .select(COLUMNS)
        .select(knex.raw('clusters.xmin::text as row_version'))
        .where('clusters.id', id);
      return prepared((opts.lock ? qb.forUpdate() : qb).first<VersionedClusterRecord | undefined>());
    },

    /**
     * One statement: writes `values` if the live row is still at `version`, records the change with `record` (an
     * insert per written row, see the audit trail's `recordPerRow`), and answers the written row with its audit names
     * and counts. Undefined when the row changed or was deleted after it was read: nothing is written then.
     */
    async updateIfUnchanged(
      db: Knex | Knex.Transaction,
      id: string,
      version: string,
      values: ClusterWrite,
      actorId: string,
      record: (perRowOf: string) => Knex.Raw,
    ): Promise<ClusterListRow | undefined> {
      const written = db('clusters')
        .where({ id })
        .whereNull('deleted_at')
        .whereRaw('xmin::text = ?', [version])
        .update({ ...values, updated_by_id: actorId, updated_at: nextUpdatedAt(knex, 'clusters') })
        .returning('*');
      return prepared(
        withCounts(
          withActors(db.with('written', written).with('recorded', record('written')).from({ clusters: 'written' })),
        ).first<ClusterListRow | undefined>(),
      );
    },

    async liveBusinessUnitCount(db: Knex | Knex.Transaction, clusterId: string): Promise<number> {
      const [row] = await db('business_units')
        .count({ count: '*' })
        .where({ cluster_id: clusterId })
        .whereNull('deleted_at');
      return toCount(row?.count);
    },

    async insert(db: Knex | Knex.Transaction, values: ClusterWrite, actorId: string): Promise<string> {
      const [row] = await db('clusters')
        .insert({ ...values, created_by_id: actorId, updated_by_id: actorId })
        .returning<Array<{ id: string }>>('id');
      return (row as { id: string }).id;
    },

    async update(
      db: Knex | Knex.Transaction,
      id: string,
      values: Partial<ClusterWrite>,
      actorId: string,
    ): Promise<void> {
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
        .update({
          deleted_at: null,
          deleted_by_id: null,
          updated_by_id: actorId,
          updated_at: nextUpdatedAt(knex, 'clusters'),
        });
    },

    /** A live cluster other than `exceptId` holding this code and name. */
    async liveWithCodeAndName(
      db: Knex | Knex.Transaction,
      code: string,
      name: string,
      exceptId?: string,
    ): Promise<boolean> {
      const qb = db('clusters').select('id').where({ code, name }).whereNull('deleted_at');
      if (exceptId) qb.whereNot('id', exceptId);
      return !!(await qb.first());
    },
  };
}
