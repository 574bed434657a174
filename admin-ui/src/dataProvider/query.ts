import type { GetListParams } from 'react-admin';
import type { DeletedFilter, ListQuery, Paginate } from '../types';
import { everyMember } from '../lib/exhaustive';
import { statusFilterToQuery } from '../lib/statusFilter';

const DEFAULT_LIST_SORT = 'created_at:desc';

const DELETED_FILTERS = everyMember<DeletedFilter>()(['exclude', 'include', 'only']);

const asBoolean = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const asText = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const asDeleted = (v: unknown) => DELETED_FILTERS.find((d) => d === v);

function set<K extends keyof ListQuery>(query: ListQuery, key: K, value: ListQuery[K] | undefined): void {
  if (value !== undefined) query[key] = value;
}

/**
 * react-admin's paging, sort and filter → `page`, `perpage`, `sort=field:dir`, `search` and the contract's
 * filters, each in the type the contract gives it; any other filter stays on the client.
 */
/** react-admin's list parameters, with the filter it leaves untyped read as field → value. */
export type ListParams = Partial<Pick<GetListParams, 'pagination' | 'sort'>> & { filter?: Record<string, unknown> };

export function toListQuery(params: ListParams): ListQuery {
  const field = params.sort?.field;
  const query: ListQuery = {
    page: params.pagination?.page ?? 1,
    perpage: params.pagination?.perPage ?? 10,
    sort: field && field !== 'id' ? `${field}:${(params.sort?.order ?? 'ASC').toLowerCase()}` : DEFAULT_LIST_SORT,
  };
  const filter = params.filter ?? {};
  const search = filter.search ?? filter.q;
  if (typeof search === 'string' && search.trim() !== '') query.search = search.trim();
  // A list's Status checkboxes (`status: ['active']`) or a plain `is_active`.
  const status = Array.isArray(filter.status) ? statusFilterToQuery(filter.status.map(String)).is_active : undefined;
  set(query, 'is_active', asBoolean(filter.is_active) ?? status);
  set(query, 'deleted', asDeleted(filter.deleted));
  set(query, 'cluster_id', asText(filter.cluster_id));
  set(query, 'document_type', asText(filter.document_type));
  set(query, 'active_only', asBoolean(filter.active_only));
  return query;
}

/** `{ data, paginate }` → react-admin's `{ data, total, pageInfo }`. */
export function fromListEnvelope<T>(
  body: { data?: T[] | null; paginate?: Partial<Paginate> | null } | null | undefined,
) {
  const data = body?.data ?? [];
  const total = body?.paginate?.total ?? data.length;
  const page = body?.paginate?.page ?? 1;
  const pages = body?.paginate?.pages ?? 1;
  return { data, total, pageInfo: { hasNextPage: page < pages, hasPreviousPage: page > 1 } };
}
