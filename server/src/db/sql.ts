import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { refused } from '../core/list-cursor.js';
import type { DeletedFilter, ListQuery, PageRows, SortTerm } from '../core/list-query.js';
import { toCount } from './count.js';

/** SQL pieces shared by the repositories. Everything here builds queries; nothing runs one. */

/**
 * SQL for a user's display name: first, middle and last name joined, else the username, else the email.
 * `alias` is the users table alias in the query; the result is null when the user row is absent.
 */
export function displayNameSql(alias: string): string {
  const part = (c: string) => `nullif(btrim(${alias}.${c}), '')`;
  return `coalesce(nullif(concat_ws(' ', ${part('firstname')}, ${part('middlename')}, ${part('lastname')}), ''), ${part('username')}, ${alias}.email)`;
}

const ACTIONS = ['created', 'updated', 'deleted'] as const;

/**
 * Joins the three actors of `table`'s audit columns and selects their display names as
 * `<action>_by_name`. Aliases are prefixed with the table name so they never collide with other joins.
 */
export function selectAuditActors<B extends Knex.QueryBuilder>(knex: Knex, qb: B, table: string): B {
  for (const action of ACTIONS) {
    const alias = `${table}_${action}_by`;
    qb.leftJoin(`users as ${alias}`, `${alias}.id`, `${table}.${action}_by_id`);
    qb.select(knex.raw(`${displayNameSql(alias)} as ${action}_by_name`));
  }
  return qb;
}

/**
 * The next `updated_at` of a row: now, but always later than the previous value so that two writes in the same
 * millisecond still produce different ETags.
 */
export function nextUpdatedAt(knex: Knex | Knex.Transaction, table: string): Knex.Raw {
  return knex.raw(`greatest(now(), ??.updated_at + interval '1 millisecond')`, [table]);
}

/** Postgres unique violation (pg and PGlite both expose the SQLSTATE as `code`). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** Escapes % _ and \ for a `ILIKE '%' || ? || '%'` contains-search. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Applies ORDER BY terms (plus `id` as a stable tie-breaker) and LIMIT/OFFSET to a knex builder. */
export function applyListQuery<B extends { orderByRaw(sql: string): B; limit(n: number): B; offset(n: number): B }>(
  builder: B,
  q: Pick<ListQuery, 'sort' | 'limit' | 'offset'>,
  tieBreaker = 'id',
): B {
  let b = builder;
  const order = q.sort.map((t) => `${t.column} ${t.direction}`);
  if (tieBreaker && !q.sort.some((t) => t.column === tieBreaker)) order.push(`${tieBreaker} asc`);
  if (order.length > 0) b = b.orderByRaw(order.join(', '));
  if (q.limit !== undefined) b = b.limit(q.limit).offset(q.offset);
  return b;
}

/** The list's order as keyset terms: its sort, then the id ascending as the tie-breaker (as `applyListQuery` orders). */
export function keysetTerms(sort: SortTerm[], idColumn: string): SortTerm[] {
  if (sort.some((t) => t.column === idColumn)) return sort;
  return [...sort, { column: idColumn, field: 'id', direction: 'asc', notNull: true }];
}

/** The keyset values of a row, as PostgreSQL renders them in JSON (timestamps keep their microseconds). */
export function keysetKeySql(terms: SortTerm[]): string {
  return `json_build_array(${terms.map((t) => t.column).join(', ')})`;
}

/**
 * Narrows `qb` to the rows after `key` in the order of `terms` (PostgreSQL's: nulls last ascending, first
 * descending). One direction over columns that are never null is a row comparison, `(a, id) > (?, ?)`, which a
 * composite index answers as one range. Otherwise the rows strictly after on the first term, or equal on it and
 * after on the rest, and so on; when the first column is never null, a `>=`/`<=` bound on it is added, so its index
 * still starts the scan at the position instead of at the first row.
 */
export function keysetWhere(qb: Knex.QueryBuilder, terms: SortTerm[], key: unknown[]): Knex.QueryBuilder {
  if (key.length !== terms.length) throw refused();
  const first = terms[0]!;
  if (terms.every((t) => t.notNull && t.direction === first.direction) && key.every((v) => v !== null)) {
    const cols = terms.map((t) => t.column).join(', ');
    const marks = terms.map(() => '?').join(', ');
    return qb.whereRaw(`(${cols}) ${first.direction === 'asc' ? '>' : '<'} (${marks})`, key as Knex.Value[]);
  }
  const equal = (t: SortTerm, v: unknown): [string, Knex.Value[]] =>
    v === null ? [`${t.column} is null`, []] : [`${t.column} = ?`, [v as Knex.Value]];
  const after = (t: SortTerm, v: unknown): [string, Knex.Value[]] => {
    if (t.direction === 'asc')
      return v === null ? ['false', []] : [`(${t.column} > ? or ${t.column} is null)`, [v as Knex.Value]];
    return v === null ? [`${t.column} is not null`, []] : [`${t.column} < ?`, [v as Knex.Value]];
  };
  const alternatives: string[] = [];
  const bindings: Knex.Value[] = [];
  terms.forEach((t, i) => {
    const parts: string[] = [];
    for (let j = 0; j < i; j++) {
      const [sql, b] = equal(terms[j]!, key[j]);
      parts.push(sql);
      bindings.push(...b);
    }
    const [sql, b] = after(t, key[i]);
    parts.push(sql);
    bindings.push(...b);
    alternatives.push(`(${parts.join(' and ')})`);
  });
  if (first.notNull && key[0] !== null) {
    qb.whereRaw(`${first.column} ${first.direction === 'asc' ? '>=' : '<='} ?`, [key[0] as Knex.Value]);
  }
  return qb.whereRaw(`(${alternatives.join(' or ')})`, bindings);
}

/** The rows of a raw statement: pg answers it as its result object, PGlite's knex client as the rows. */
export const rawRows = <R>(result: unknown): R[] =>
  Array.isArray(result) ? (result as R[]) : (result as { rows: R[] }).rows;

/**
 * The planner's estimate of the rows `filtered` matches: what `total=estimate` answers instead of counting them.
 * EXPLAIN plans without running, so it costs about one planning; on a table never analysed (a fresh PGlite) the
 * planner still estimates from the table's size on disk.
 */
export async function estimateRows(db: Knex | Knex.Transaction, filtered: Knex.QueryBuilder): Promise<number> {
  const { sql, bindings } = filtered.clone().clearSelect().select(db.raw('1')).toSQL();
  const rows = rawRows<Record<string, unknown>>(await db.raw(`explain (format json) ${sql}`, bindings));
  const plan = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.max(0, Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0));
}

/** Distinct statements named so far; see `prepared`. */
const preparedNames = new Set<string>();
const MAX_PREPARED = 200;

/**
 * Runs the query as a named (prepared) statement on PostgreSQL: pg parses it once per connection and PostgreSQL
 * keeps it, planning each run afresh ("custom plan") until a generic plan costs no more, then never again. The name
 * is a hash of the SQL text, because pg refuses one name for two texts. Every name stays prepared on every pooled
 * connection until that connection closes, so only the first MAX_PREPARED distinct texts are named (a list's text
 * varies with its filters and sort); the rest run unnamed. PGlite runs in the process and has no named statements:
 * the query is left as it is.
 *
 * Worth it only where PostgreSQL settles on the generic plan. Measured at 100 % data (median of 500 list calls
 * through the repository, named vs unnamed, alternating): the business-unit list of one cluster 2.6 → 1.3 ms (a
 * generic plan; its planning alone was 0.8 ms). The cluster and account lists stay on custom plans, where the parse
 * saved (≈ 0.1 ms) is mostly spent naming the statement (page 1 within ±4 %, page 500 3–6 % faster, accounts within
 * noise), so they run unnamed. A free-text search is never named:
 * how selective its pattern is decides the plan, and a generic plan would impose one on every term (forced generic,
 * the user search took 305 ms for a term its custom plan answers in 3 ms).
 */
export function prepared<B extends Knex.QueryBuilder>(qb: B): B {
  const name = statementName(qb, qb.toSQL().sql);
  return name ? qb.options({ name }) : qb;
}

/**
 * The name `sql` runs under as a prepared statement on PostgreSQL (see `prepared`); undefined on PGlite, and once
 * MAX_PREPARED distinct texts are named.
 */
export function statementName(db: { client: Knex.Client }, sql: string): string | undefined {
  if (db.client.config.client !== 'pg') return undefined;
  const name = `q_${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
  if (!preparedNames.has(name)) {
    if (preparedNames.size >= MAX_PREPARED) return undefined;
    preparedNames.add(name);
  }
  return name;
}

/**
 * A list of ids as one PostgreSQL array literal, for `= any(?::uuid[])`: one binding whatever the count, so a list
 * scoped to one cluster or to forty has one text (`in (?, ?, …)` has a text per count).
 */
export const uuidArray = (ids: readonly string[]): string => `{${ids.join(',')}}`;

/** The parts of a list filter that decide its statement's text: never bound. */
export interface ListShape {
  deleted: DeletedFilter;
  isActive: boolean | null;
  sort: SortTerm[];
}

/** The parts of a list filter that are bound as they are. */
export interface ListValues extends Record<string, string | number | undefined> {
  /** the clusters the caller may read, as `uuidArray`; undefined: every cluster */
  scope: string | undefined;
  /** the search's LIKE pattern */
  pattern: string | undefined;
  limit: number | undefined;
  offset: number;
}

/** A list filter as the shape and values of its compiled statement. */
export function listStatementParts(f: {
  list: ListQuery;
  isActive: boolean | undefined;
  deleted: DeletedFilter;
  scope: 'all' | string[];
}): [ListShape, ListValues] {
  return [
    { deleted: f.deleted, isActive: f.isActive ?? null, sort: f.list.sort },
    {
      scope: f.scope === 'all' ? undefined : uuidArray(f.scope),
      pattern: f.list.search ? likeContains(f.list.search.toLowerCase()) : undefined,
      limit: f.list.limit,
      offset: f.list.offset,
    },
  ];
}

/**
 * A page asked for by number with an exact total: what a compiled list statement answers. A cursor, an estimated
 * total or a probe for the next page takes `runListPage`.
 */
export const isPageByNumber = (list: ListQuery): boolean => !list.after && list.total !== 'estimate' && !list.probe;

/** The names the one-statement list page gives its parts: the page's ids and the total of the filtered rows. */
export const LIST_PAGE = 'list_page';
const LIST_TOTAL = 'list_total';
const LIST_MATCHES = 'list_matches';
const LIST_KEY = 'list_key';

/**
 * A list page and its total as ONE statement (one round trip, one parse):
 *
 *   with list_page as (<filtered ids, ordered, limit/offset>), list_total as (select count(*) from <filtered>)
 *   select list_total.count, <row columns> from list_total left join list_page on true <row joins> order by …
 *
 * The ids are paged first, so a deep offset skips bare index entries and the row joins (audit names, counts) run
 * for the page's rows only. The two parts are separate subqueries, not one shared CTE of the filtered rows, so each
 * keeps its own index plan (a shared CTE would be materialised in full before the page could be cut). Starting from
 * the total's single row keeps the total when the page is past the end: one row whose row columns are all null.
 *
 * `filtered` is the list's FROM and WHERE (no columns); `idColumn` its key, also the sort's tie-breaker;
 * `selectRows` joins the row table on `list_page.id` (left join, so the total's row survives) and adds the
 * columns. The sort runs twice, over the ids and over the rows, so its columns must be in scope in both.
 *
 * `selective`: the filter matches few rows but is costly to evaluate (a text search over several trigram indexes).
 * Then the matching ids are found once (`list_matches`, materialised) and both the page and the total read them, instead
 * of running the search twice (user search at 100 %: 3.5 → 1.9 ms). Only for a filter over the id column's own table
 * whose sort columns are that table's: the page re-reads the table by id.
 */
export function listPageStatement(
  db: Knex | Knex.Transaction,
  filtered: Knex.QueryBuilder,
  list: Pick<ListQuery, 'sort' | 'limit' | 'offset' | 'after' | 'total' | 'probe'>,
  idColumn: string,
  selectRows: (qb: Knex.QueryBuilder) => Knex.QueryBuilder,
  { selective = false }: { selective?: boolean } = {},
): Knex.QueryBuilder {
  let start: Knex.QueryBuilder = db.queryBuilder();
  let pageSource = filtered;
  let total = filtered.clone().count({ count: '*' });
  if (selective) {
    start = db.withMaterialized(LIST_MATCHES, filtered.clone().select(`${idColumn} as id`));
    pageSource = db(idColumn.split('.')[0]!).whereIn(idColumn, db.from(LIST_MATCHES).select('id'));
    total = db.from(LIST_MATCHES).count({ count: '*' });
  }
  // An estimated total is planned apart (`estimateRows`): the statement counts nothing.
  if (list.total === 'estimate') total = db.queryBuilder().select(db.raw('null::bigint as count'));
  const terms = keysetTerms(list.sort, idColumn);
  let idsSource: Knex.QueryBuilder = pageSource
    .clone()
    .select(`${idColumn} as id`, db.raw(`${keysetKeySql(terms)} as ${LIST_KEY}`));
  if (list.after) idsSource = keysetWhere(idsSource, terms, list.after);
  const limit = list.limit !== undefined && list.probe ? list.limit + 1 : list.limit;
  const ids = applyListQuery(idsSource, { ...list, limit }, idColumn);
  const head = start
    .with(LIST_PAGE, ids)
    .with(LIST_TOTAL, total)
    .from(LIST_TOTAL)
    .joinRaw(`left join ${LIST_PAGE} on true`)
    .select(`${LIST_TOTAL}.count as ${LIST_TOTAL}`, `${LIST_PAGE}.${LIST_KEY} as ${LIST_KEY}`);
  return applyListQuery(selectRows(head), { ...list, limit: undefined }, idColumn);
}

/** Splits the result of `listPageStatement` into the page's rows (without the total column) and the total. */
export function pageOf<R extends { id: unknown }>(
  result: Array<R & { [LIST_TOTAL]?: unknown }>,
): { rows: R[]; total: number } {
  const { rows, total } = pageRowsOf(result, { limit: undefined, offset: 0 });
  return { rows, total };
}

/** A key as the driver hands it over: parsed JSON on pg, text on some PGlite paths. */
const keyOf = (value: unknown): unknown[] => (typeof value === 'string' ? JSON.parse(value) : value) as unknown[];

/**
 * The result of `listPageStatement` as a page: its rows (without the statement's own columns), its total, and the
 * keyset position after its last row when there is a next page: known from the extra row a probe reads, else from the
 * exact total.
 */
export function pageRowsOf<R extends { id: unknown }>(
  result: Array<R & { [LIST_TOTAL]?: unknown; [LIST_KEY]?: unknown }>,
  list: Pick<ListQuery, 'limit' | 'offset' | 'probe'>,
): PageRows<R> {
  const total = toCount(result[0]?.[LIST_TOTAL]);
  const found = result.filter((r) => r.id !== null);
  const limit = list.limit;
  const more = limit !== undefined && (list.probe ? found.length > limit : (list.offset ?? 0) + found.length < total);
  const kept = list.probe && limit !== undefined ? found.slice(0, limit) : found;
  const last = kept[kept.length - 1];
  const nextKey = more && last ? keyOf(last[LIST_KEY]) : null;
  const rows = kept.map(({ [LIST_TOTAL]: _total, [LIST_KEY]: _key, ...row }) => row as unknown as R);
  return { rows, total, estimated: false, nextKey };
}

/**
 * Runs a list page (`listPageStatement`) and, for `total=estimate`, the planner's estimate of its filter alongside.
 * `run` lets a repository name the statement (`prepared`).
 */
export async function runListPage<R extends { id: unknown }>(
  db: Knex | Knex.Transaction,
  filtered: Knex.QueryBuilder,
  list: ListQuery,
  idColumn: string,
  selectRows: (qb: Knex.QueryBuilder) => Knex.QueryBuilder,
  opts: { selective?: boolean; run?: (qb: Knex.QueryBuilder) => Knex.QueryBuilder } = {},
): Promise<PageRows<R>> {
  const statement = listPageStatement(db, filtered, list, idColumn, selectRows, opts);
  const run = opts.run ?? ((qb) => qb);
  if (list.total !== 'estimate') {
    return pageRowsOf((await run(statement)) as Array<R & { id: unknown }>, list);
  }
  const [result, estimate] = await Promise.all([
    run(statement) as unknown as Promise<Array<R & { id: unknown }>>,
    estimateRows(db, filtered),
  ]);
  const page = pageRowsOf(result, list);
  // The estimate never claims fewer rows than the walk has shown to exist.
  const seen = (list.before ?? list.offset) + page.rows.length + (page.nextKey ? 1 : 0);
  return { ...page, total: Math.max(estimate, seen), estimated: true };
}
