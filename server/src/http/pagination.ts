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
  /** undefined when perpage = -1 */
  limit: number | undefined;
  offset: number;
  sort: SortTerm[];
  search: string | undefined;
}

export interface ListOptions {
  /** wire field name → column expression used in ORDER BY */
  sortable: Record<string, string>;
  /** default `created_at:desc` */
  defaultSort?: string;
  /** whether perpage=-1 (all rows) is accepted */
  allowAll?: boolean;
  defaultPerpage?: number;
  maxPerpage?: number;
}

export interface Paginate {
  total: number;
  page: number;
  perpage: number;
  pages: number;
}

export interface Page<T> {
  data: T[];
  paginate: Paginate;
}

function intParam(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : Number(String(raw));
  if (!Number.isInteger(n)) throw new BadRequestError(`${name} must be an integer`, [{ path: `/query/${name}`, message: 'must be an integer' }]);
  return n;
}

/** Parses `field:dir[,field:dir]` against a whitelist; unknown fields or directions → 400. */
export function parseSort(raw: unknown, sortable: Record<string, string>, defaultSort = 'created_at:desc'): SortTerm[] {
  const text = raw === undefined || raw === null || raw === '' ? defaultSort : Array.isArray(raw) ? raw.join(',') : String(raw);
  const terms: SortTerm[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [field = '', dirRaw = 'asc', ...rest] = part.split(':').map((s) => s.trim());
    const direction = dirRaw.toLowerCase();
    const column = Object.prototype.hasOwnProperty.call(sortable, field) ? sortable[field] : undefined;
    if (!column || rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw new BadRequestError(`sort: unknown sort "${part}"; sortable fields: ${Object.keys(sortable).join(', ')} with :asc or :desc`, [
        { path: '/query/sort', message: `unknown sort "${part}"` },
      ]);
    }
    if (!terms.some((t) => t.field === field)) terms.push({ column, field, direction });
  }
  return terms;
}

/** page (1-based, default 1), perpage (default 10, max 100, -1 = all when allowed), sort, search. */
export function parseListQuery(query: Record<string, unknown>, opts: ListOptions): ListQuery {
  const maxPerpage = opts.maxPerpage ?? 100;
  const page = intParam('page', query.page, 1);
  if (page < 1) throw new BadRequestError('page must be 1 or more', [{ path: '/query/page', message: 'must be >= 1' }]);
  const perpage = intParam('perpage', query.perpage, opts.defaultPerpage ?? 10);
  if (perpage === -1 && !opts.allowAll) throw new BadRequestError(`perpage must be between 1 and ${maxPerpage}`, [{ path: '/query/perpage', message: 'must be >= 1' }]);
  if (perpage !== -1 && (perpage < 1 || perpage > maxPerpage)) {
    throw new BadRequestError(`perpage must be between 1 and ${maxPerpage}${opts.allowAll ? ', or -1 for all rows' : ''}`, [
      { path: '/query/perpage', message: `must be between 1 and ${maxPerpage}` },
    ]);
  }
  const sort = parseSort(query.sort, opts.sortable, opts.defaultSort);
  const searchRaw = typeof query.search === 'string' ? query.search.trim() : undefined;
  return {
    page: perpage === -1 ? 1 : page,
    perpage,
    limit: perpage === -1 ? undefined : perpage,
    offset: perpage === -1 ? 0 : (page - 1) * perpage,
    sort,
    search: searchRaw ? searchRaw : undefined,
  };
}

/** Escapes % _ and \ for a `ILIKE '%' || ? || '%'` contains-search. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function paginateInfo(total: number, q: Pick<ListQuery, 'page' | 'perpage'>): Paginate {
  const pages = q.perpage === -1 || total === 0 ? 1 : Math.ceil(total / q.perpage);
  return { total, page: q.page, perpage: q.perpage, pages };
}

export function toPage<T>(data: T[], total: number, q: Pick<ListQuery, 'page' | 'perpage'>): Page<T> {
  return { data, paginate: paginateInfo(total, q) };
}

/** Applies ORDER BY terms (plus `id` as a stable tie-breaker) and LIMIT/OFFSET to a knex builder. */
export function applyListQuery<B extends { orderByRaw(sql: string): B; limit(n: number): B; offset(n: number): B }>(
  builder: B,
  q: ListQuery,
  tieBreaker = 'id',
): B {
  let b = builder;
  const order = q.sort.map((t) => `${t.column} ${t.direction}`);
  if (tieBreaker && !q.sort.some((t) => t.column === tieBreaker)) order.push(`${tieBreaker} asc`);
  if (order.length > 0) b = b.orderByRaw(order.join(', '));
  if (q.limit !== undefined) b = b.limit(q.limit).offset(q.offset);
  return b;
}

/** Typed boolean filter from the query (`true|false`), undefined when absent. */
export function boolFilter(raw: unknown, name: string): boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new BadRequestError(`${name} must be true or false`, [{ path: `/query/${name}`, message: 'must be true or false' }]);
}

export type DeletedFilter = 'exclude' | 'include' | 'only';
export function deletedFilter(raw: unknown): DeletedFilter {
  if (raw === undefined || raw === null || raw === '') return 'exclude';
  if (raw === 'exclude' || raw === 'include' || raw === 'only') return raw;
  throw new BadRequestError('deleted must be exclude, include or only', [{ path: '/query/deleted', message: 'must be exclude, include or only' }]);
}
