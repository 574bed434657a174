import { describe, expect, it } from 'vitest';
import type { Dataset } from '../types';
import { pickableDatasets, widgetTypesFor } from './datasets';

const ds = (id: string, shape: string, extra: Partial<Dataset> = {}): Dataset => ({
  id,
  name: extra.name ?? id,
  description: extra.description ?? '',
  shape: shape as Dataset['shape'],
  category: extra.category ?? id.split('.')[0] ?? '',
  unit: null,
  widget_types: extra.widget_types ?? [],
  scope: extra.scope ?? 'platform',
  measure: extra.measure ?? 'count',
});

describe('pickableDatasets', () => {
  const catalog = [
    ds('tenancy.active-clusters', 'scalar', { name: 'Active clusters' }),
    ds('procurement.pr-pending', 'scalar_delta', { name: 'Pending PRs' }),
    ds('inventory.stock-by-category', 'categorical', { name: 'Stock by category' }),
    ds('inventory.raw-table', 'table', { name: 'Raw table' }),
  ];

  it('when a dataset is pinned or has another shape, then it is not offered', () => {
    const ids = pickableDatasets(catalog, ['procurement.pr-pending']).map((d) => d.id);
    expect(ids).toEqual(['inventory.stock-by-category', 'tenancy.active-clusters']);
  });

  it('when searching, then id, name, description and category are matched case-insensitively', () => {
    expect(pickableDatasets(catalog, [], 'STOCK').map((d) => d.id)).toEqual(['inventory.stock-by-category']);
    expect(pickableDatasets(catalog, [], 'tenancy').map((d) => d.id)).toEqual(['tenancy.active-clusters']);
    expect(pickableDatasets(catalog, [], 'nothing like it')).toEqual([]);
  });
});

describe('widgetTypesFor', () => {
  it('offers kpi/gauge for numbers and pie/bar for categories', () => {
    expect(widgetTypesFor(ds('a', 'scalar'))).toEqual(['kpi', 'gauge']);
    expect(widgetTypesFor(ds('a', 'scalar_delta'))).toEqual(['kpi', 'gauge']);
    expect(widgetTypesFor(ds('a', 'categorical'))).toEqual(['pie', 'bar']);
  });

  it('narrows to the catalog list but never offers a type the shape cannot render', () => {
    expect(widgetTypesFor(ds('a', 'categorical', { widget_types: ['bar', 'kpi'] }))).toEqual(['bar']);
    expect(widgetTypesFor(ds('a', 'table'))).toEqual([]);
  });
});
