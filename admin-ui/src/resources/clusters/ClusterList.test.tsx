import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent, within } from '@testing-library/react';
import { AdminContext, testDataProvider, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import type { Grants } from '../../types';
import { canAccessWith } from '../../auth/permissions';
import { ClusterList } from './ClusterList';
import { downloadBlob } from '../../lib/csv';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useDebouncedValue';
import { toListQuery } from '../../dataProvider/query';

vi.mock('../../lib/csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/csv')>()),
  downloadBlob: vi.fn(),
}));

const cluster = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  code: `C-${id}`,
  name: `Cluster ${id}`,
  alias_name: null,
  max_license_bu: 3,
  is_active: true,
  bu_count: 2,
  users_count: 10,
  total_max_license_users: 10,
  created_at: '2024-01-01T00:00:00Z',
  created_by_name: 'Admin',
  updated_at: '2024-01-01T00:00:00Z',
  updated_by_name: 'Admin',
  deleted_at: null,
  deleted_by_name: null,
  ...extra,
});

function setup(
  perms: Grants,
  rows = [cluster('a'), cluster('b', { deleted_at: '2024-02-02T00:00:00Z', deleted_by_name: 'Del' })],
  total = rows.length,
) {
  const getList = vi.fn(async (_resource: string, _params?: unknown) => ({ data: rows, total }));
  const exportCsv = vi.fn(async () => ({ filename: 'clusters-2026-11-24.csv', blob: new Blob(['Code\r\n']) }));
  const dataProvider = Object.assign(testDataProvider({ getList } as never), { exportCsv });
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => canAccessWith(perms, params),
  };
  render(
    <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
      <ClusterList />
    </AdminContext>,
  );
  return { getList, exportCsv };
}

const lastParams = (getList: ReturnType<typeof vi.fn>) =>
  getList.mock.calls.at(-1)![1] as { pagination: { page: number; perPage: number }; filter: Record<string, unknown> };

// react-admin keeps a list's parameters in the address too: each test starts from a bare one.
beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('cluster list', { timeout: 20_000 }, () => {
  const admin = { platform: [], clusters: {}, is_super_admin: true };

  it('loads page 1 sorted by created_at desc with deleted rows excluded', async () => {
    const { getList } = setup(admin);
    await screen.findByText('C-a', {}, { timeout: 5000 });
    expect(lastParams(getList)).toMatchObject({
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: {},
    });
    expect(toListQuery(lastParams(getList))).not.toHaveProperty('is_active');
    // count/max and the users-at-limit marker
    expect(screen.getAllByText('2/3').length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('users-at-limit').length).toBe(2);
    // Updated equals Created: blank
    const row = screen.getAllByTestId('list-row')[0]!;
    expect(within(row).getAllByText('Admin')).toHaveLength(1);
  });

  it('debounces the search, resets the page and persists the keys', async () => {
    localStorage.setItem('page_clusters', '3');
    // Enough rows for a third page, so page 3 is not out of range.
    const { getList } = setup(admin, undefined, 40);
    await screen.findByText('C-a', {}, { timeout: 5000 });
    // When the search is first asked for, against when it was typed: a timer's lateness on a busy machine can only
    // make the gap longer, so the check holds however slow the run.
    let searchedAt: number | undefined;
    const answer = getList.getMockImplementation()!;
    getList.mockImplementation(async (resource, params) => {
      const search = (params as { filter?: { search?: string } } | undefined)?.filter?.search;
      if (search === 'and') searchedAt ??= performance.now();
      return answer(resource, params);
    });
    const typedAt = performance.now();
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'and' } });
    await waitFor(() => expect(lastParams(getList).filter.search).toBe('and'));
    // Typed text waits out the debounce before it is searched for (a few ms of leeway for the timer's granularity).
    expect(searchedAt! - typedAt).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS - 5);
    expect(lastParams(getList).pagination.page).toBe(1);
    expect(localStorage.getItem('search_clusters')).toBe('"and"');
    expect(localStorage.getItem('page_clusters')).toBe('1');
  });

  it('applies is_active only when exactly one status is chosen, and shows deleted rows on request', async () => {
    const { getList } = setup(admin);
    await screen.findByText('C-a', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('open-filters'));
    fireEvent.click(await screen.findByLabelText('Inactive'));
    await waitFor(() => expect(toListQuery(lastParams(getList)).is_active).toBe(false));
    expect(localStorage.getItem('filters_clusters')).toBe('["inactive"]');
    fireEvent.click(screen.getByLabelText('Active'));
    await waitFor(() => expect(lastParams(getList).filter.status).toEqual(['active', 'inactive']));
    expect(toListQuery(lastParams(getList))).not.toHaveProperty('is_active');
    fireEvent.click(screen.getByLabelText('Show soft-deleted'));
    await waitFor(() => expect(lastParams(getList).filter.deleted).toBe('include'));
    expect(localStorage.getItem('filter_clusters_deleted')).toBe('true');
    expect(await screen.findByTestId('column-deleted')).toBeInTheDocument();
    expect(screen.getByTestId('deleted-badge')).toBeInTheDocument();
  });

  it('keeps the search when a status filter is chosen while the search is still waiting', async () => {
    const { getList } = setup(admin);
    await screen.findByText('C-a');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'and' } });
    fireEvent.click(screen.getByTestId('open-filters'));
    fireEvent.click(await screen.findByLabelText('Inactive'));
    await waitFor(() => expect(lastParams(getList).filter).toEqual({ search: 'and', status: ['inactive'] }));
    expect(localStorage.getItem('search_clusters')).toBe('"and"');
    expect(localStorage.getItem('filters_clusters')).toBe('["inactive"]');
  });

  it('disables export when the table is empty and hides Add without the create grant', async () => {
    setup({ platform: ['cluster.read'], clusters: {}, is_super_admin: false }, []);
    expect(await screen.findByTestId('list-empty', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByTestId('export-csv')).toBeDisabled();
    expect(screen.queryByTestId('empty-add')).not.toBeInTheDocument();
    expect(screen.queryByTestId('toolbar-add')).not.toBeInTheDocument();
  });

  it('exports this page through the server with the list’s filter and sort', async () => {
    const { exportCsv, getList } = setup(admin);
    await screen.findByText('C-a', {}, { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('export-csv')).toBeEnabled());
    fireEvent.click(screen.getByTestId('export-csv'));
    expect(await screen.findByTestId('export-page', {}, { timeout: 5000 })).toHaveTextContent('This page (2 rows)');
    expect(screen.getByTestId('export-all')).toHaveTextContent('All 2 matching rows');
    fireEvent.click(screen.getByTestId('export-page'));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith('clusters-2026-11-24.csv', expect.any(Blob)));
    const listed = getList.mock.calls.at(-1)![1] as { filter: unknown; sort: unknown };
    expect(exportCsv).toHaveBeenCalledWith(
      { resource: 'clusters', filter: listed.filter, sort: listed.sort },
      expect.objectContaining({ page: { page: 1, perPage: 10 } }),
    );
  });

  // Read views: a reader's row menu opens the record (it used to say "No actions available").
  it('shows only Open in the row menu without edit or delete grants', async () => {
    setup({ platform: ['cluster.read'], clusters: {}, is_super_admin: false });
    await screen.findByText('C-a', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('row-actions-a'));
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
    expect(screen.queryByText('Edit')).not.toBeInTheDocument();
    expect(screen.queryByText('Delete')).not.toBeInTheDocument();
  });
});
