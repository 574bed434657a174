import { beforeEach, describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import {
  listStorageKeys,
  nextListState,
  readListState,
  toggleSort,
  usePersistedListState,
  writeListState,
} from './persistedListState';

beforeEach(() => localStorage.clear());

describe('persisted list state', () => {
  it('uses the six specified key names', () => {
    expect(Object.values(listStorageKeys('clusters'))).toEqual([
      'search_clusters',
      'page_clusters',
      'perpage_clusters',
      'sort_clusters',
      'filters_clusters',
      'filter_clusters_deleted',
    ]);
    expect(listStorageKeys('business_units').deleted).toBe('filter_business_units_deleted');
  });

  it('defaults to page 1, created_at:desc, no filters and deleted false', () => {
    expect(readListState('clusters')).toEqual({
      search: '',
      page: 1,
      perpage: 10,
      sort: 'created_at:desc',
      filters: [],
      deleted: false,
    });
  });

  it('stores filters as a JSON array and deleted as a JSON boolean', () => {
    writeListState('business_units', {
      search: 'abc',
      page: 3,
      perpage: 25,
      sort: 'name:asc',
      filters: ['active'],
      deleted: true,
    });
    expect(localStorage.getItem('filters_business_units')).toBe('["active"]');
    expect(localStorage.getItem('filter_business_units_deleted')).toBe('true');
    expect(localStorage.getItem('page_business_units')).toBe('3');
    expect(readListState('business_units')).toMatchObject({ search: 'abc', page: 3, perpage: 25, sort: 'name:asc' });
  });

  it('tolerates garbage in storage', () => {
    localStorage.setItem('page_clusters', '"x"');
    localStorage.setItem('filters_clusters', '{broken');
    localStorage.setItem('sort_clusters', '"drop table:asc"');
    expect(readListState('clusters')).toMatchObject({ page: 1, filters: [], sort: 'created_at:desc' });
  });

  it('resets the page to 1 on search or filter change, not on sort', () => {
    const base = { search: '', page: 4, perpage: 10, sort: 'created_at:desc', filters: [], deleted: false };
    expect(nextListState(base, { search: 'x' }).page).toBe(1);
    expect(nextListState(base, { filters: ['inactive'] }).page).toBe(1);
    expect(nextListState(base, { deleted: true }).page).toBe(1);
    expect(nextListState(base, { sort: 'name:asc' }).page).toBe(4);
    expect(nextListState(base, { search: '' }).page).toBe(4);
  });

  it('toggles the sort direction on the same field', () => {
    expect(toggleSort('name:asc', 'name')).toBe('name:desc');
    expect(toggleSort('name:desc', 'name')).toBe('name:asc');
    expect(toggleSort('created_at:desc', 'code')).toBe('code:asc');
  });

  it('the hook writes through to localStorage', () => {
    localStorage.setItem('page_clusters', '5');
    const { result } = renderHook(() => usePersistedListState('clusters'));
    expect(result.current[0].page).toBe(5);
    act(() => result.current[1]({ search: 'hotel' }));
    expect(result.current[0].page).toBe(1);
    expect(localStorage.getItem('search_clusters')).toBe('"hotel"');
    expect(localStorage.getItem('page_clusters')).toBe('1');
  });
});
