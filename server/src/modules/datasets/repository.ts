import type { Knex } from 'knex';
import { toCount } from '../../db/count.js';
import { DOCUMENT_TYPES } from '../print-template-mappings/document-types.js';

export interface ScalarValue {
  value: number;
}
export interface ScalarDeltaValue {
  value: number;
  prev: number;
  change: number;
}
export type CategoricalValue = Array<{ label: string; value: number }>;

/** Money totalled in one currency, with every currency the caller has amounts in (most documents first). */
export interface InCurrency<T> {
  data: T;
  currency: string | null;
  currencies: string[];
}

/**
 * The caller's pending documents by currency, and the currency to total in: the one asked for, else the one of most
 * documents. Shared by the money datasets, so each stays one statement.
 */
const PENDING_BY_CURRENCY = `
  mine as (
    select d.doc_type, d.total_amount, d.currency_code
      from document_pending_approvers pa
      join documents d on d.id = pa.document_id and d.status = 'pending'
     where pa.user_id = ?
  ),
  per_currency as (select currency_code, count(*) as n from mine group by currency_code),
  chosen as (
    select coalesce(?::text, (select currency_code from per_currency order by n desc, currency_code limit 1)) as currency
  ),
  currencies as (select coalesce(json_agg(currency_code order by n desc, currency_code), '[]'::json) as list from per_currency)`;

function currencyList(v: unknown): string[] {
  const parsed = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** The approval document types in feed order, with their chart labels. */
const APPROVAL_TYPES = [
  { code: 'pr', label: 'Purchase Request' },
  { code: 'po', label: 'Purchase Order' },
  { code: 'sr', label: 'Store Requisition' },
] as const;

/** `(values ('PR', 'Purchase Request', 0), …) as t(code, label, ord)`: fixed categories in order, so empty ones still show as 0. */
function valuesList(items: ReadonlyArray<{ code: string; label: string }>): { sql: string; bindings: string[] } {
  return {
    sql: `(values ${items.map((_, i) => `(?::text, ?::text, ${i})`).join(', ')}) as t(code, label, ord)`,
    bindings: items.flatMap((t) => [t.code, t.label]),
  };
}

async function rows(
  knex: Knex,
  sql: string,
  bindings: readonly unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  const result = await knex.raw<{ rows: Array<Record<string, unknown>> }>(sql, bindings as Knex.RawBinding[]);
  return result.rows;
}

async function scalar(knex: Knex, sql: string, bindings: readonly unknown[] = []): Promise<ScalarValue> {
  const [row] = await rows(knex, sql, bindings);
  return { value: toCount(row?.value) };
}

async function categorical(knex: Knex, sql: string, bindings: readonly unknown[] = []): Promise<CategoricalValue> {
  return (await rows(knex, sql, bindings)).map((r) => ({ label: String(r.label), value: toCount(r.value) }));
}

/** The clusters a figure may count: every one, or those listed (none: nothing to count). */
export type ClusterScope = 'all' | readonly string[];

/** A SQL condition keeping rows of the scope's clusters, with its bindings. */
function inScope(column: string, scope: ClusterScope): { sql: string; bindings: string[] } {
  if (scope === 'all') return { sql: 'true', bindings: [] };
  if (scope.length === 0) return { sql: 'false', bindings: [] };
  return { sql: `${column} in (${scope.map(() => '?').join(', ')})`, bindings: [...scope] };
}

const APPROVAL_VALUES = valuesList(APPROVAL_TYPES);
const DOCUMENT_TYPE_VALUES = valuesList(DOCUMENT_TYPES);

/** One statement per dataset, each on an index of this service's tables. */
export function datasetRepository({ knex }: { knex: Knex }) {
  return {
    activeClusters(scope: ClusterScope) {
      const s = inScope('id', scope);
      return scalar(
        knex,
        `select count(*) as value from clusters where deleted_at is null and is_active and ${s.sql}`,
        s.bindings,
      );
    },

    activeBusinessUnits(scope: ClusterScope) {
      const s = inScope('cluster_id', scope);
      return scalar(
        knex,
        `select count(*) as value from business_units where deleted_at is null and is_active and ${s.sql}`,
        s.bindings,
      );
    },

    /** Live BUs created in the last 30 days, against the 30 days before (business_units_created_at index). */
    async newBusinessUnits(scope: ClusterScope): Promise<ScalarDeltaValue> {
      const s = inScope('cluster_id', scope);
      const [row] = await rows(
        knex,
        `select count(*) filter (where created_at >= now() - interval '30 days') as value,
                count(*) filter (where created_at < now() - interval '30 days') as prev
           from business_units
          where deleted_at is null and created_at >= now() - interval '60 days' and ${s.sql}`,
        s.bindings,
      );
      const value = toCount(row?.value);
      const prev = toCount(row?.prev);
      return { value, prev, change: value - prev };
    },

    /** Licensed users (BU memberships of live BUs) per live cluster, most used first. */
    licenceUseByCluster(scope: ClusterScope) {
      const s = inScope('c.id', scope);
      return categorical(
        knex,
        `select c.name as label, count(bu.id) as value
           from clusters c
           left join business_units b on b.cluster_id = c.id and b.deleted_at is null
           left join bu_users bu on bu.business_unit_id = b.id
          where c.deleted_at is null and ${s.sql}
          group by c.id, c.name
          order by value desc, c.name asc`,
        s.bindings,
      );
    },

    /** Active users by their highest role: super admin, cluster admin, cluster user, or none. */
    usersByRole: () =>
      categorical(
        knex,
        `select r.label, count(u.id) as value
           from (values ('Super admin', 0), ('Cluster admin', 1), ('Cluster user', 2), ('No cluster', 3)) as r(label, ord)
           left join (
             select id,
                    case when is_super_admin then 'Super admin'
                         when exists (select 1 from cluster_users cu where cu.user_id = users.id and cu.role = 'admin') then 'Cluster admin'
                         when exists (select 1 from cluster_users cu where cu.user_id = users.id) then 'Cluster user'
                         else 'No cluster' end as role_label
               from users
              where is_active
           ) u on u.role_label = r.label
          group by r.label, r.ord
          order by r.ord`,
      ),

    /** Live mappings per document type, all ten types in their order. */
    mappingsByDocumentType: () =>
      categorical(
        knex,
        `select t.code as label, count(m.id) as value
           from ${DOCUMENT_TYPE_VALUES.sql}
           left join print_template_mappings m on m.document_type = t.code and m.deleted_at is null
          group by t.code, t.ord
          order by t.ord`,
        DOCUMENT_TYPE_VALUES.bindings,
      ),

    /** Documents pending that wait on the user (document_pending_approvers primary key). */
    myPendingCount: (userId: string) =>
      scalar(
        knex,
        `select count(*) as value
           from document_pending_approvers pa
           join documents d on d.id = pa.document_id and d.status = 'pending'
          where pa.user_id = ?`,
        [userId],
      ),

    /** The amount waiting on the user, in one currency (never added across currencies). */
    async myPendingAmount(userId: string, currency: string | undefined): Promise<InCurrency<ScalarValue>> {
      const [row] = await rows(
        knex,
        `with ${PENDING_BY_CURRENCY}
         select chosen.currency, currencies.list as currencies,
                (select coalesce(sum(total_amount), 0) from mine where currency_code = chosen.currency) as value
           from chosen, currencies`,
        [userId, currency ?? null],
      );
      return {
        data: { value: toCount(row?.value) },
        currency: (row?.currency as string | null) ?? null,
        currencies: currencyList(row?.currencies),
      };
    },

    /** The user's pending documents per type (pr, po, sr): how many, over every currency. */
    myPendingCountByType: (userId: string) =>
      categorical(
        knex,
        `select t.label, count(d.doc_type) as value
           from ${APPROVAL_VALUES.sql}
           left join (
             select d.doc_type
               from document_pending_approvers pa
               join documents d on d.id = pa.document_id and d.status = 'pending'
              where pa.user_id = ?
           ) d on d.doc_type = t.code
          group by t.code, t.label, t.ord
          order by t.ord`,
        [...APPROVAL_VALUES.bindings, userId],
      ),

    /** The amount waiting on the user per type (pr, po, sr), in one currency. */
    async myPendingAmountByType(userId: string, currency: string | undefined): Promise<InCurrency<CategoricalValue>> {
      const result = await rows(
        knex,
        `with ${PENDING_BY_CURRENCY}
         select t.label, chosen.currency, currencies.list as currencies, coalesce(v.value, 0) as value
           from ${APPROVAL_VALUES.sql}
           cross join chosen cross join currencies
           left join (
             select m.doc_type, sum(m.total_amount) as value
               from mine m join chosen on m.currency_code = chosen.currency
              group by m.doc_type
           ) v on v.doc_type = t.code
          order by t.ord`,
        [userId, currency ?? null, ...APPROVAL_VALUES.bindings],
      );
      return {
        data: result.map((r) => ({ label: String(r.label), value: toCount(r.value) })),
        currency: (result[0]?.currency as string | null) ?? null,
        currencies: currencyList(result[0]?.currencies),
      };
    },
  };
}

export type DatasetRepository = ReturnType<typeof datasetRepository>;
