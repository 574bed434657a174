import { beforeEach, describe, expect, it } from 'vitest';
import { memoryStore } from 'react-admin';
import { listStorageKeys, readListState, toggleSort, withSeedListKeys, writeListState } from './persistedListState';

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

  it('toggles the sort direction on the same field', () => {
    expect(toggleSort('name:asc', 'name')).toBe('name:desc');
    expect(toggleSort('name:desc', 'name')).toBe('name:asc');
    expect(toggleSort('created_at:desc', 'code')).toBe('code:asc');
  });

  it('keeps react-admin’s cluster and BU list parameters in the six keys, and every other key in the base store', () => {
    const base = memoryStore();
    base.setup();
    const store = withSeedListKeys(base);
    localStorage.setItem('page_clusters', '5');
    localStorage.setItem('filters_clusters', '["inactive"]');
    expect(store.getItem('clusters.listParams')).toMatchObject({
      page: 5,
      perPage: 10,
      sort: 'created_at',
      order: 'DESC',
      filter: { status: ['inactive'] },
    });
    const seen: unknown[] = [];
    const unsubscribe = store.subscribe('business-units.listParams', (v) => seen.push(v));
    store.setItem('business-units.listParams', {
      sort: 'name',
      order: 'ASC',
      page: 2,
      perPage: 25,
      filter: { search: 'hotel', deleted: 'include' },
    });
    unsubscribe();
    expect(localStorage.getItem('search_business_units')).toBe('"hotel"');
    expect(localStorage.getItem('sort_business_units')).toBe('"name:asc"');
    expect(localStorage.getItem('perpage_business_units')).toBe('25');
    expect(localStorage.getItem('filter_business_units_deleted')).toBe('true');
    expect(localStorage.getItem('filters_business_units')).toBe('[]');
    expect(seen).toEqual([expect.objectContaining({ page: 2, filter: { search: 'hotel', deleted: 'include' } })]);
    store.setItem('users.listParams', { page: 3 });
    expect(base.getItem('users.listParams')).toEqual({ page: 3 });
    expect(localStorage.getItem('page_users')).toBeNull();
  });
});
