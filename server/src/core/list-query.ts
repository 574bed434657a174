import type { Schemas } from './contract.js';
import { BadRequestError } from './errors.js';

export interface SortTerm {
  /** The column expression from the whitelist (never the raw client text). */
  column: string;
  field: string;
  direction: 'asc' | 'desc';
}

export interface ListQuery {
  page: number;
  /** -1 = all rows */
  perpage: number;
  /** undefined when perpage = -1 (every row: what an export streams; a list answer caps it with `capAllRows`) */
  limit: number | undefined;
  offset: number;
  sort: SortTerm[];
  search: string | undefined;
}

/** The paging parameters every list operation shares, as the contract validator hands them over. */
export interface ListParams {
  page?: number;
  perpage?: number;
  sort?: string;
  search?: string;
}

export interface ListOptions {
  /** wire field name → column expression used in ORDER BY; its keys are the sort parameter's fields in the contract */
  sortable: Record<string, string>;
  /** default `created_at:desc` */
  defaultSort?: string;
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
export function parseSort(text: string, sortable: Record<string, string>): SortTerm[] {
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
    if (!terms.some((t) => t.field === field)) terms.push({ column, field, direction });
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
    sort: parseSort(query.sort || (opts.defaultSort ?? 'created_at:desc'), opts.sortable),
    search: search ? search : undefined,
  };
}

/** A list with one fixed order and no sort or search of its own (the audit log, the member lists): only its page. */
export function parsePageQuery(query: Pick<ListParams, 'page' | 'perpage'>): ListQuery {
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

export function toPage<T>(data: T[], total: number, q: Pick<ListQuery, 'page' | 'perpage'>): Page<T> {
  return { data, paginate: paginateInfo(total, q) };
}
