import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { UserList } from './UserList';
import { downloadBlob } from '../../lib/csv';
import { SUPER, USER_READER, account, renderRoutes } from './testing';

vi.mock('../../lib/csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/csv')>()),
  downloadBlob: vi.fn(),
}));

const clusters = [
  { id: 'c1', code: 'CL-A', name: 'Andaman', is_active: true },
  { id: 'c2', code: 'CL-B', name: 'Bangkok', is_active: true },
];

function setup(
  grants = SUPER,
  rows = [
    account('a', { is_super_admin: true, grant_count: 0 }),
    account('b', { is_active: false, last_sign_in_at: null }),
  ],
  methods: object = {},
) {
  const getList = vi.fn(async (resource: string, _params?: unknown) =>
    resource === 'clusters' ? { data: clusters, total: clusters.length } : { data: rows, total: rows.length },
  );
  const router = renderRoutes('/users', grants, { getList, ...methods }, [
    { path: '/users', resource: 'users', element: <UserList /> },
    { path: '/users/:id', element: <p>user read view</p> },
  ]);
  const userCalls = () => getList.mock.calls.filter((c) => c[0] === 'users');
  const lastFilter = () => (userCalls().at(-1)![1] as { filter: Record<string, unknown> }).filter;
  return { getList, router, userCalls, lastFilter };
}

beforeEach(() => localStorage.clear());

describe('user list', { timeout: 30_000 }, () => {
  it('shows each account with its status, super admin, grants and last sign-in, sorted by username', async () => {
    const { userCalls } = setup();
    expect(await screen.findByText('user.a', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(userCalls()[0]![1]).toMatchObject({
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'username', order: 'ASC' },
    });
    const [a, b] = screen.getAllByTestId('list-row');
    expect(within(a!).getByText('Somchai Jaidee a')).toBeInTheDocument();
    expect(within(a!).getByText('a@example.com')).toBeInTheDocument();
    expect(within(a!).getByText('Active')).toBeInTheDocument();
    expect(within(a!).getByText('Super admin')).toBeInTheDocument();
    expect(within(b!).getByText('Inactive')).toBeInTheDocument();
    expect(within(b!).getByText('Never')).toBeInTheDocument();
    for (const header of ['Username', 'Display name', 'Email', 'Status', 'Super admin', 'Grants', 'Last sign-in']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
  });

  it('filters by status, grants and cluster', async () => {
    const { lastFilter } = setup();
    await screen.findByText('user.a');
    // The filters live in the sheet the Filters button opens, as on every list.
    expect(screen.queryByTestId('filter-active')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('open-filters'));
    fireEvent.mouseDown(await screen.findByTestId('filter-active'));
    fireEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(lastFilter()).toMatchObject({ is_active: false }));

    fireEvent.mouseDown(screen.getByTestId('filter-grants'));
    fireEvent.click(await screen.findByRole('option', { name: 'With grants' }));
    await waitFor(() => expect(lastFilter()).toMatchObject({ is_active: false, has_grants: true }));

    const cluster = screen.getByTestId('filter-cluster');
    fireEvent.mouseDown(cluster);
    fireEvent.click(await screen.findByRole('option', { name: 'CL-B — Bangkok' }));
    await waitFor(() => expect(lastFilter()).toMatchObject({ is_active: false, has_grants: true, cluster_id: 'c2' }));

    fireEvent.mouseDown(screen.getByTestId('filter-active'));
    fireEvent.click(await screen.findByRole('option', { name: 'Any' }));
    await waitFor(() => expect(lastFilter()).not.toHaveProperty('is_active'));
  });

  it('searches after the typing stops', async () => {
    const { lastFilter } = setup();
    await screen.findByText('user.a');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'somchai' } });
    await waitFor(() => expect(lastFilter().search).toBe('somchai'), { timeout: 2000 });
  });

  it('sorts by a column header', async () => {
    const { userCalls } = setup();
    await screen.findByText('user.a');
    fireEvent.click(screen.getByRole('button', { name: 'Last sign-in' }));
    await waitFor(() =>
      expect(userCalls().at(-1)![1]).toMatchObject({ sort: { field: 'last_sign_in_at', order: 'ASC' } }),
    );
  });

  it('opens the read view on a row click', async () => {
    const { router } = setup();
    fireEvent.click(within((await screen.findAllByTestId('list-row'))[1]!).getByText('b@example.com'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/b'));
  });

  it('exports every matching account through the server with the list’s filter and sort', async () => {
    const exportCsv = vi.fn(async () => ({ filename: 'users-2026-11-24.csv', blob: new Blob(['Username\r\n']) }));
    const { lastFilter } = setup(SUPER, undefined, { exportCsv });
    await screen.findByText('user.a');
    await waitFor(() => expect(screen.getByTestId('export-csv')).toBeEnabled());
    fireEvent.click(screen.getByTestId('export-csv'));
    fireEvent.click(await screen.findByTestId('export-all', {}, { timeout: 5000 }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith('users-2026-11-24.csv', expect.any(Blob)));
    expect(exportCsv).toHaveBeenCalledWith(
      { resource: 'users', filter: lastFilter(), sort: { field: 'username', order: 'ASC' } },
      expect.objectContaining({ page: undefined }),
    );
  });

  it('offers Create only with user.manage', async () => {
    setup(USER_READER);
    await screen.findByText('user.a');
    expect(screen.queryByTestId('toolbar-add')).not.toBeInTheDocument();
  });

  it('reactivates the selected accounts in bulk, offering only Reactivate under the inactive filter, and clears the selection on a filter change', async () => {
    const bulkAction = vi.fn(async (_resource: string, action: string, ids: string[]) => ({
      action,
      succeeded: ids.length,
      failed: 0,
      results: ids.map((id) => ({ id, ok: true, status: 200 })),
    }));
    setup(SUPER, undefined, { bulkAction });
    await screen.findByText('user.a');
    fireEvent.click(within(screen.getByTestId('select-row-b')).getByRole('checkbox'));
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('1 selected');
    expect(screen.getByTestId('bulk-deactivate')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('open-filters'));
    fireEvent.mouseDown(await screen.findByTestId('filter-active'));
    fireEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(screen.queryByTestId('bulk-toolbar')).not.toBeInTheDocument());
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Filters' })).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Filters' })).not.toBeInTheDocument());

    fireEvent.click(within(await screen.findByTestId('select-row-b')).getByRole('checkbox'));
    expect(screen.queryByTestId('bulk-deactivate')).not.toBeInTheDocument();
    // Reactivating locks nobody out: it runs without a confirmation.
    fireEvent.click(screen.getByTestId('bulk-reactivate'));
    await waitFor(() => expect(bulkAction).toHaveBeenCalledWith('users', 'reactivate', ['b']));
    expect(await screen.findByText('Reactivate: done for 1 row')).toBeInTheDocument();
  });

  it('offers no bulk action to a reader of accounts', async () => {
    setup(USER_READER);
    await screen.findByText('user.a');
    fireEvent.click(within(screen.getByTestId('select-row-a')).getByRole('checkbox'));
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('1 selected');
    expect(screen.queryByTestId('bulk-deactivate')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bulk-reactivate')).not.toBeInTheDocument();
  });
});
