import type { Knex } from 'knex';
import { LIST_PAGE, applyListQuery, listStatementParts, nextUpdatedAt, selectAuditActors } from '../../db/sql.js';
import type { ListShape, ListValues } from '../../db/sql.js';
import { compiledListPage } from '../../db/compiled-list-page.js';
import { type DeletedFilter, type ListQuery, type PageRows } from '../../core/list-query.js';
import { type AuditRow } from '../../core/audit.js';
import type { Schemas } from '../../core/contract.js';

type BusinessUnitInput = Required<Schemas['BusinessUnitInput']>;

/** Free-text profile fields of the business-unit form; each field's name on the wire is its column's name. */
export const BU_TEXT_FIELDS = [
  'hotel_name',
  'hotel_tel',
  'hotel_email',
  'hotel_address',
  'hotel_zip_code',
  'company_name',
  'company_tel',
  'company_email',
  'company_address',
  'company_zip_code',
  'tax_no',
  'branch_no',
  'date_format',
  'date_time_format',
  'time_format',
  'long_time_format',
  'short_time_format',
  'timezone',
] as const satisfies readonly (keyof BusinessUnitInput)[];
export const BU_FORMAT_FIELDS = [
  'perpage_format',
  'amount_format',
  'quantity_format',
  'recipe_format',
] as const satisfies readonly (keyof BusinessUnitInput)[];

export type BuTextField = (typeof BU_TEXT_FIELDS)[number];
export type BuFormatField = (typeof BU_FORMAT_FIELDS)[number];

export type BusinessUnitRecord = {
  id: string;
  cluster_id: string;
  code: string;
  name: string;
  alias_name: string | null;
  description: string | null;
  max_license_users: number | null;
  is_hq: boolean;
  is_active: boolean;
  calculation_method: 'average' | 'fifo' | null;
  default_currency_id: string | null;
  config: unknown;
  db_connection: string | null;
  logo_key: string | null;
  avatar_key: string | null;
  created_at: Date;
  created_by_id: string | null;
  updated_at: Date;
  updated_by_id: string | null;
  deleted_at: Date | null;
  deleted_by_id: string | null;
} & Record<BuTextField, string | null> &
  Record<BuFormatField, unknown>;

export type BusinessUnitRow = BusinessUnitRecord & AuditRow & { cluster_name: string };

/** A row of the export: the list's columns a spreadsheet shows. */
export type BusinessUnitExportRow = Pick<
  BusinessUnitRecord,
  'id' | 'code' | 'name' | 'alias_name' | 'is_active' | 'max_license_users' | 'created_at'
> & { cluster_name: string };

/** A list row: the members count as the database returns it (bigint: a number or a string, by engine). */
export type BusinessUnitListRow = BusinessUnitRow & { users_count: unknown };

/**
 * The columns a create or full update writes: one per field of the contract's input (so a field added there fails
 * the build until it is handled), with the jsonb values already serialised.
 */
export type BusinessUnitWrite = {
  [K in keyof BusinessUnitInput]: K extends 'config' | BuFormatField
    ? string | null
    : Exclude<BusinessUnitInput[K], undefined>;
};

export interface BusinessUnitListFilter {
  list: ListQuery;
  isActive: boolean | undefined;
  deleted: DeletedFilter;
  clusterId: string | undefined;
  scope: 'all' | string[];
}

/** The list's bound values: the common ones and the one cluster a list may be narrowed to. */
type UnitListValues = ListValues & { clusterId: string | undefined };

export const BU_SORTABLE: Record<string, string> = {
  code: 'business_units.code',
  name: 'business_units.name',
  alias_name: 'business_units.alias_name',
  cluster_name: 'clusters.name',
  is_active: 'business_units.is_active',
  is_hq: 'business_units.is_hq',
  created_at: 'business_units.created_at',
  updated_at: 'business_units.updated_at',
  deleted_at: 'business_units.deleted_at',
};

/** The sort fields whose column is never null (the keyset's bounds use their indexes as ranges). */
export const BU_NOT_NULL = ['code', 'name', 'cluster_name', 'is_active', 'is_hq', 'created_at', 'updated_at'];

const RECORD_COLUMNS = [
  'id',
  'cluster_id',
  'code',
  'name',
  'alias_name',
  'description',
  'max_license_users',
  'is_hq',
  'is_active',
  ...BU_TEXT_FIELDS,
  ...BU_FORMAT_FIELDS,
  'calculation_method',
  'default_currency_id',
  'config',
  'db_connection',
  'logo_key',
  'avatar_key',
  'created_at',
  'created_by_id',
  'updated_at',
  'updated_by_id',
  'deleted_at',
  'deleted_by_id',
].map((c) => `business_units.${c}`);

export function businessUnitRepository({ knex }: { knex: Knex }) {
  /** The record, its cluster's name and its audit names, on a builder that has `business_units` in scope. */
  function withJoins(qb: Knex.QueryBuilder): Knex.QueryBuilder {
    // A left join: in the list statement a page past the end leaves one row of nulls that must survive.
    qb.leftJoin('clusters', 'clusters.id', 'business_units.cluster_id')
      .select(RECORD_COLUMNS)
      .select('clusters.name as cluster_name');
    return selectAuditActors(knex, qb, 'business_units');
  }

  /** The list's FROM and WHERE. The scope is one array, so every scoped caller's list has one text. */
  function filtered(db: Knex | Knex.Transaction, shape: ListShape, values: UnitListValues): Knex.QueryBuilder {
    const qb = db('business_units').join('clusters', 'clusters.id', 'business_units.cluster_id');
    if (shape.deleted === 'exclude') qb.whereNull('business_units.deleted_at');
    else if (shape.deleted === 'only') qb.whereNotNull('business_units.deleted_at');
    if (shape.isActive !== null) qb.where('business_units.is_active', shape.isActive);
    if (values.clusterId !== undefined) qb.where('business_units.cluster_id', values.clusterId);
    if (values.scope !== undefined) qb.whereRaw('business_units.cluster_id = any(?::uuid[])', [values.scope]);
    if (values.pattern !== undefined) {
      const pattern = values.pattern;
      qb.where((w) => {
        w.whereRaw('lower(business_units.code) like ?', [pattern])
          .orWhereRaw('lower(business_units.name) like ?', [pattern])
          .orWhereRaw('lower(business_units.alias_name) like ?', [pattern])
          .orWhereRaw('lower(clusters.name) like ?', [pattern]);
      });
    }
    return qb;
  }

  const partsOf = (f: BusinessUnitListFilter): [ListShape, UnitListValues] => {
    const [shape, values] = listStatementParts(f);
    return [shape, { ...values, clusterId: f.clusterId || undefined }];
  };

  /** Joins the page's rows, with their cluster, audit names and member counts, to the list statement's ids. */
  const selectPageRows = (qb: Knex.QueryBuilder) =>
    withJoins(qb.leftJoin('business_units', 'business_units.id', `${LIST_PAGE}.id`)).select(
      knex.raw('(select count(*) from bu_users m where m.business_unit_id = business_units.id) as users_count'),
    );

  /**
   * Named unless it searches: the list of one cluster is the statement that gains from a generic plan (see
   * `prepared`).
   */
  const listPageOf = compiledListPage('business_units.id', filtered, selectPageRows, {
    named: (_shape, values) => values.pattern === undefined,
  });

  return {
    /** One page of rows with their member counts, and the total: one statement (see `listPageStatement`). */
    listPage(db: Knex | Knex.Transaction, f: BusinessUnitListFilter): Promise<PageRows<BusinessUnitListRow>> {
      return listPageOf<BusinessUnitListRow>(db, f.list, ...partsOf(f));
    },

    /** The list's rows in the list's order, every one (or the page, when `f.list` has a limit): an export's query. */
    exportRows(db: Knex | Knex.Transaction, f: BusinessUnitListFilter): Knex.QueryBuilder {
      const columns = ['id', 'code', 'name', 'alias_name', 'is_active', 'max_license_users', 'created_at'].map(
        (c) => `business_units.${c}`,
      );
      return applyListQuery(
        filtered(db, ...partsOf(f))
          .select(columns)
          .select('clusters.name as cluster_name'),
        f.list,
        'business_units.id',
      );
    },

    async findById(db: Knex | Knex.Transaction, id: string): Promise<BusinessUnitRow | undefined> {
      return withJoins(db('business_units')).where('business_units.id', id).first<BusinessUnitRow | undefined>();
    },

    async lockById(trx: Knex.Transaction, id: string): Promise<BusinessUnitRecord | undefined> {
      return trx('business_units')
        .select(RECORD_COLUMNS)
        .where('business_units.id', id)
        .forUpdate()
        .first<BusinessUnitRecord | undefined>();
    },

    async insert(db: Knex | Knex.Transaction, values: BusinessUnitWrite, actorId: string): Promise<string> {
      const [row] = await db('business_units')
        .insert({ ...values, created_by_id: actorId, updated_by_id: actorId })
        .returning<Array<{ id: string }>>('id');
      return (row as { id: string }).id;
    },

    async update(
      db: Knex | Knex.Transaction,
      id: string,
      values: Partial<BusinessUnitWrite>,
      actorId: string,
    ): Promise<void> {
      await db('business_units')
        .where({ id })
        .update({ ...values, updated_by_id: actorId, updated_at: nextUpdatedAt(knex, 'business_units') });
    },

    async softDelete(db: Knex | Knex.Transaction, id: string, actorId: string): Promise<void> {
      await db('business_units').where({ id }).update({ deleted_at: knex.fn.now(), deleted_by_id: actorId });
    },

    async restore(db: Knex | Knex.Transaction, id: string, actorId: string): Promise<void> {
      await db('business_units')
        .where({ id })
        .update({
          deleted_at: null,
          deleted_by_id: null,
          updated_by_id: actorId,
          updated_at: nextUpdatedAt(knex, 'business_units'),
        });
    },

    /** After a move, members of the old cluster no longer have this unit as their parent BU. */
    async clearParentIn(db: Knex | Knex.Transaction, businessUnitId: string, clusterId: string): Promise<void> {
      await db('cluster_users')
        .where({ parent_bu_id: businessUnitId, cluster_id: clusterId })
        .update({ parent_bu_id: null });
    },

    async liveWithCode(db: Knex | Knex.Transaction, code: string, exceptId: string): Promise<boolean> {
      return !!(await db('business_units')
        .select('id')
        .where({ code })
        .whereNull('deleted_at')
        .whereNot('id', exceptId)
        .first());
    },
  };
}
