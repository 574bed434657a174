import type { Store } from 'react-admin';
import type { StatusValue } from './statusFilter';

/** The two list pages whose client state persists; the names are part of their localStorage keys, which must not change. */
export type PersistedListName = 'clusters' | 'business_units';

const DEFAULT_SORT = 'created_at:desc';
const DEFAULT_PERPAGE = 10;

/** The react-admin list whose parameters each persisted list page keeps in the seed's keys. */
const LIST_OF_STORE_KEY: Record<string, PersistedListName> = {
  'clusters.listParams': 'clusters',
  'business-units.listParams': 'business_units',
};

/** The six localStorage keys of one list page. */
export function listStorageKeys(list: PersistedListName) {
  return {
    search: `search_${list}`,
    page: `page_${list}`,
    perpage: `perpage_${list}`,
    sort: `sort_${list}`,
    filters: `filters_${list}`,
    deleted: `filter_${list}_deleted`,
  } as const;
}

export interface ListState {
  search: string;
  page: number;
  perpage: number;
  /** `field:asc|desc`, the wire syntax. */
  sort: string;
  /** JSON array of chosen status values. */
  filters: StatusValue[];
  /** JSON boolean, default false. */
  deleted: boolean;
}

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

function readJson(key: string): unknown {
  const raw = storage()?.getItem(key);
  if (raw === null || raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const positiveInt = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;

const statusValues = (v: unknown): StatusValue[] =>
  Array.isArray(v) ? v.filter((f): f is StatusValue => f === 'active' || f === 'inactive') : [];

export function readListState(list: PersistedListName): ListState {
  const k = listStorageKeys(list);
  const search = readJson(k.search);
  const sort = readJson(k.sort);
  return {
    search: typeof search === 'string' ? search : '',
    page: positiveInt(readJson(k.page), 1),
    perpage: positiveInt(readJson(k.perpage), DEFAULT_PERPAGE),
    sort: typeof sort === 'string' && /^[a-z_]+:(asc|desc)$/.test(sort) ? sort : DEFAULT_SORT,
    filters: statusValues(readJson(k.filters)),
    deleted: readJson(k.deleted) === true,
  };
}

export function writeListState(list: PersistedListName, state: ListState): void {
  const s = storage();
  if (!s) return;
  const k = listStorageKeys(list);
  s.setItem(k.search, JSON.stringify(state.search));
  s.setItem(k.page, JSON.stringify(state.page));
  s.setItem(k.perpage, JSON.stringify(state.perpage));
  s.setItem(k.sort, JSON.stringify(state.sort));
  s.setItem(k.filters, JSON.stringify(state.filters));
  s.setItem(k.deleted, JSON.stringify(state.deleted));
}

export function parseSort(sort: string): { field: string; order: 'ASC' | 'DESC' } {
  const [field = 'created_at', dir = 'desc'] = sort.split(':');
  return { field, order: dir.toLowerCase() === 'asc' ? 'ASC' : 'DESC' };
}

/** Clicking a column header: same field toggles the direction, a new field starts ascending. */
export function toggleSort(current: string, field: string): string {
  const { field: f, order } = parseSort(current);
  if (f === field) return `${field}:${order === 'ASC' ? 'desc' : 'asc'}`;
  return `${field}:asc`;
}

/** react-admin's list parameters, as its `<List>` keeps them in the store. */
export interface StoredListParams {
  sort: string;
  order: 'ASC' | 'DESC';
  page: number;
  perPage: number;
  filter: Record<string, unknown>;
  displayedFilters?: Record<string, unknown>;
}

/** The seed's six values as the list's parameters: the filter is `{ search, status, deleted }` as the API reads it. */
export function toListParams(state: ListState): StoredListParams {
  const { field, order } = parseSort(state.sort);
  const filter: Record<string, unknown> = {};
  if (state.search !== '') filter.search = state.search;
  if (state.filters.length > 0) filter.status = state.filters;
  if (state.deleted) filter.deleted = 'include';
  return { sort: field, order, page: state.page, perPage: state.perpage, filter, displayedFilters: {} };
}

export function fromListParams(params: Partial<StoredListParams> | undefined): ListState {
  const filter = params?.filter ?? {};
  return {
    search: typeof filter.search === 'string' ? filter.search : '',
    page: positiveInt(params?.page, 1),
    perpage: positiveInt(params?.perPage, DEFAULT_PERPAGE),
    sort: params?.sort ? `${params.sort}:${params.order === 'ASC' ? 'asc' : 'desc'}` : DEFAULT_SORT,
    filters: statusValues(filter.status),
    deleted: filter.deleted === 'include',
  };
}

/**
 * A store that keeps the cluster and BU lists' parameters in the seed's six localStorage keys, so react-admin's
 * `<List>` (its paging, sort, search and filters) reads and writes them; every other key goes to `base`.
 */
export function withSeedListKeys(base: Store): Store {
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const publish = (key: string, list: PersistedListName) =>
    listeners.get(key)?.forEach((callback) => callback(toListParams(readListState(list))));
  return {
    ...base,
    getItem: <T>(key: string, defaultValue?: T): T | undefined => {
      const list = LIST_OF_STORE_KEY[key];
      // The seed's keys hold the same shape as react-admin's list parameters, read back from six values.
      return list ? (toListParams(readListState(list)) as T) : base.getItem(key, defaultValue);
    },
    setItem: <T>(key: string, value: T) => {
      const list = LIST_OF_STORE_KEY[key];
      if (!list) return base.setItem(key, value);
      writeListState(list, fromListParams(value as Partial<StoredListParams> | undefined));
      publish(key, list);
    },
    removeItem: (key: string) => {
      const list = LIST_OF_STORE_KEY[key];
      if (!list) return base.removeItem(key);
      Object.values(listStorageKeys(list)).forEach((k) => storage()?.removeItem(k));
      publish(key, list);
    },
    subscribe: (key: string, callback: (value: unknown) => void) => {
      if (!LIST_OF_STORE_KEY[key]) return base.subscribe(key, callback);
      const set = listeners.get(key) ?? new Set();
      listeners.set(key, set);
      set.add(callback);
      return () => {
        set.delete(callback);
      };
    },
  };
}
