import type { GetListParams } from 'react-admin';

/** Filter keys the contract's list endpoints understand; anything else stays on the client. */
const PASSTHROUGH_FILTERS = ['is_active', 'deleted', 'cluster_id', 'document_type', 'active_only', 'exclude_cluster_id'];

export type ListQuery = Record<string, string | number | boolean>;

export const DEFAULT_LIST_SORT = 'created_at:desc';

/** react-admin's paging, sort and filter → `page`, `perpage`, `sort=field:dir`, `search` and typed filters. */
export function toListQuery(params: Partial<Pick<GetListParams, 'pagination' | 'sort' | 'filter'>>): ListQuery {
  const query: ListQuery = {};
  const page = params.pagination?.page ?? 1;
  const perPage = params.pagination?.perPage ?? 10;
  query.page = page;
  query.perpage = perPage;
  const field = params.sort?.field;
  query.sort = field && field !== 'id' ? `${field}:${(params.sort?.order ?? 'ASC').toLowerCase()}` : DEFAULT_LIST_SORT;
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  const search = filter.search ?? filter.q;
  if (typeof search === 'string' && search.trim() !== '') query.search = search.trim();
  for (const key of PASSTHROUGH_FILTERS) {
    const v = filter[key];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') query[key] = v;
  }
  return query;
}

export interface Paginate {
  total: number;
  page: number;
  perpage: number;
  pages: number;
}

/** `{ data, paginate }` → react-admin's `{ data, total, pageInfo }`. */
export function fromListEnvelope<T>(body: { data?: T[] | null; paginate?: Partial<Paginate> | null } | null | undefined) {
  const data = body?.data ?? [];
  const total = body?.paginate?.total ?? data.length;
  const page = body?.paginate?.page ?? 1;
  const pages = body?.paginate?.pages ?? 1;
  return { data, total, pageInfo: { hasNextPage: page < pages, hasPreviousPage: page > 1 } };
}
