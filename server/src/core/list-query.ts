import type { Schemas } from './contract.js';
import { BadRequestError } from './errors.js';
import type { CursorContext, ListCursors } from './list-cursor.js';
import type { SortTerm } from './sort-term.js';

export type { SortTerm } from './sort-term.js';

export interface ListQuery {
  page: number;
  /** -1 = all rows */
  perpage: number;
  /** undefined when perpage = -1 (every row: what an export streams; a list answer caps it with `capAllRows`) */
  limit: number | undefined;
  offset: number;
  sort: SortTerm[];
  search: string | undefined;
  /**
   * Keyset paging: the page starts after this position (the sort values, then the id, of the previous page's last
   * row), with no offset. Set from a `cursor` (see `withCursor`).
   */
  after?: unknown[];
  /** `estimate`: the total is the planner's row estimate, not a count (`total=estimate`). Default exact. */
  total?: 'exact' | 'estimate';
  /** Read one row past the page, to know whether a next page exists without an exact total. */
  probe?: boolean;
  /** Rows before the page: its offset, or the count a cursor carries (the offset is 0 then). */
  before?: number;
}

/** The paging parameters every list operation shares, as the contract validator hands them over. */
export interface ListParams {
  page?: number;
  perpage?: number;
  sort?: string;
  search?: string;
  cursor?: string;
  total?: 'exact' | 'estimate';
}

export interface ListOptions {
  /** wire field name → column expression used in ORDER BY; its keys are the sort parameter's fields in the contract */
  sortable: Record<string, string>;
  /** default `created_at:desc` */
  defaultSort?: string;
  /** Sort fields whose column is never null (faster keyset bounds); any other field is treated as nullable. */
  notNull?: string[];
}

export type Paginate = Schemas['Paginate'];

export interface Page<T> {
  data: T[];
  paginate: Paginate;
}

export type DeletedFilter = 'exclude' | 'include' | 'only';

/**
 * Resolves `field:dir[,field:dir]` against the whitelist. The contract's pattern already refuses unknown fields;
 * this is the second line, so a sort never reaches SQL unchecked.
 */
export function parseSort(text: string, sortable: Record<string, string>, notNull: string[] = []): SortTerm[] {
  const terms: SortTerm[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [field = '', dirRaw = 'asc', ...rest] = part.split(':').map((s) => s.trim());
    const direction = dirRaw.toLowerCase();
    const column = Object.prototype.hasOwnProperty.call(sortable, field) ? sortable[field] : undefined;
    if (!column || rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw new BadRequestError(
        `sort: unknown sort "${part}"; sortable fields: ${Object.keys(sortable).join(', ')} with :asc or :desc`,
        [{ path: '/query/sort', message: `unknown sort "${part}"` }],
      );
    }
    if (!terms.some((t) => t.field === field))
      terms.push({ column, field, direction, notNull: notNull.includes(field) });
  }
  return terms;
}

/** page (1-based, default 1), perpage (default 10; -1 = all where the contract allows it), sort, search. */
export function parseListQuery(query: ListParams, opts: ListOptions): ListQuery {
  const page = query.page ?? 1;
  const perpage = query.perpage ?? 10;
  const search = query.search?.trim();
  const all = perpage === -1;
  return {
    page: all ? 1 : page,
    perpage,
    limit: all ? undefined : perpage,
    offset: all ? 0 : (page - 1) * perpage,
    sort: parseSort(query.sort || (opts.defaultSort ?? 'created_at:desc'), opts.sortable, opts.notNull),
    search: search ? search : undefined,
    total: query.total ?? 'exact',
  };
}

/** A list with one fixed order and no sort or search of its own (the audit log, the member lists): only its page. */
export function parsePageQuery(query: Pick<ListParams, 'page' | 'perpage' | 'total'>): ListQuery {
  return parseListQuery(query, { sortable: {}, defaultSort: '' });
}

/**
 * The most rows one list answer carries for `perpage=-1`. An answer is built whole in memory and presented row by row,
 * so "every row" of a list of thousands would cost each reader seconds and megabytes; the list's CSV export streams
 * every row from a cursor instead. `paginate.total` still counts every matching row, so a client sees what is left out.
 */
export const MAX_LIST_ROWS = 1000;

/** The query as a list answer runs it: `perpage=-1` reads at most MAX_LIST_ROWS rows (an export reads every one). */
export function capAllRows(q: ListQuery): ListQuery {
  return q.limit === undefined ? { ...q, limit: MAX_LIST_ROWS } : q;
}

export function paginateInfo(total: number, q: Pick<ListQuery, 'page' | 'perpage'>): Paginate {
  const pages = q.perpage === -1 || total === 0 ? 1 : Math.ceil(total / q.perpage);
  return { total, page: q.page, perpage: q.perpage, pages };
}

/** The highest page number the contract's `page` allows; a cursor deeper than that still reports this one. */
const MAX_PAGE = 1_000_000;

/**
 * The list query a request's `cursor` continues: after the cursor's position, with no offset, its page number
 * derived from how many rows came before. Without a cursor the query is unchanged but reads one row past the page
 * when its total is only estimated (a next page is known from the exact total otherwise). A cursor made for another
 * list, filter, sort or caller, or changed in any way, is refused with a 400.
 */
export function withCursor(
  q: ListQuery,
  cursor: string | undefined,
  cursors: ListCursors,
  ctx: CursorContext,
): ListQuery {
  if (q.limit === undefined) return q;
  if (cursor === undefined) return { ...q, before: q.offset, probe: q.total === 'estimate' };
  const position = cursors.read(cursor, ctx);
  const page = Math.min(MAX_PAGE, Math.floor(position.offset / q.limit) + 1);
  return { ...q, page, offset: 0, before: position.offset, after: position.key, probe: true };
}

/** A list statement's result as the service needs it (see `runListPage`). */
export interface PageRows<R> {
  rows: R[];
  total: number;
  /** Whether `total` is the planner's estimate. */
  estimated: boolean;
  /** The keyset position after the last row, when a next page exists. */
  nextKey: unknown[] | null;
}

/**
 * `paginate` of a page that may be continued by cursor: the seed's four fields, `next_cursor` (null on the last
 * page and for `perpage=-1`) and, when asked for, `total_estimated`. Rows before the page: its offset, or the
 * cursor's count.
 */
export function cursorPaginate(
  result: Omit<PageRows<unknown>, 'rows'> & { count: number },
  q: ListQuery,
  cursors: ListCursors,
  ctx: CursorContext,
): Paginate {
  const info = paginateInfo(result.total, q);
  const next_cursor =
    result.nextKey && q.limit !== undefined && q.perpage !== -1
      ? cursors.make({ key: result.nextKey, offset: (q.before ?? q.offset) + result.count }, ctx)
      : null;
  return { ...info, next_cursor, ...(result.estimated ? { total_estimated: true } : {}) };
}

export function toPage<T>(data: T[], total: number, q: Pick<ListQuery, 'page' | 'perpage'>): Page<T> {
  return { data, paginate: paginateInfo(total, q) };
}
