import { useCallback, useState } from 'react';
import type { StatusValue } from './statusFilter';

/** The two list pages whose client state persists; the names are part of their localStorage keys, which must not change. */
export type PersistedListName = 'clusters' | 'business_units';

const DEFAULT_SORT = 'created_at:desc';
const DEFAULT_PERPAGE = 10;

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

export function readListState(list: PersistedListName): ListState {
  const k = listStorageKeys(list);
  const search = readJson(k.search);
  const sort = readJson(k.sort);
  const filters = readJson(k.filters);
  const deleted = readJson(k.deleted);
  return {
    search: typeof search === 'string' ? search : '',
    page: positiveInt(readJson(k.page), 1),
    perpage: positiveInt(readJson(k.perpage), DEFAULT_PERPAGE),
    sort: typeof sort === 'string' && /^[a-z_]+:(asc|desc)$/.test(sort) ? sort : DEFAULT_SORT,
    filters: Array.isArray(filters) ? filters.filter((f): f is StatusValue => f === 'active' || f === 'inactive') : [],
    deleted: deleted === true,
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

/**
 * Applies a change to the list state. A change of search, status filters or the deleted toggle
 * sends the page back to 1; so does a change of page size.
 */
export function nextListState(prev: ListState, change: Partial<ListState>): ListState {
  const next = { ...prev, ...change };
  const resets =
    ('search' in change && change.search !== prev.search) ||
    ('filters' in change && JSON.stringify(change.filters) !== JSON.stringify(prev.filters)) ||
    ('deleted' in change && change.deleted !== prev.deleted) ||
    ('perpage' in change && change.perpage !== prev.perpage);
  if (resets && !('page' in change)) next.page = 1;
  return next;
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

/** React state bound to the six persisted keys. */
export function usePersistedListState(list: PersistedListName) {
  const [state, setState] = useState<ListState>(() => readListState(list));
  const update = useCallback(
    (change: Partial<ListState>) => {
      setState((prev) => {
        const next = nextListState(prev, change);
        writeListState(list, next);
        return next;
      });
    },
    [list],
  );
  return [state, update] as const;
}
