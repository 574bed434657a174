import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, Notification, testDataProvider, useCanAccess, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import type { BulkOutcome, Grants } from '../../types';
import { canAccessWith } from '../../auth/permissions';
import { ClusterList } from '../../resources/clusters/ClusterList';

const cluster = (id: string) => ({
  id,
  code: `C-${id}`,
  name: `Cluster ${id}`,
  alias_name: null,
  max_license_bu: 3,
  is_active: true,
  bu_count: 2,
  users_count: 1,
  total_max_license_users: 10,
  created_at: '2024-01-01T00:00:00Z',
  created_by_name: 'Admin',
  updated_at: '2024-01-01T00:00:00Z',
  updated_by_name: 'Admin',
  deleted_at: null,
  deleted_by_name: null,
});

const ADMIN: Grants = { platform: [], clusters: {}, is_super_admin: true };
const READER: Grants = { platform: ['cluster.read'], clusters: {}, is_super_admin: false };

const succeeded = (action: string, ids: string[]): BulkOutcome => ({
  action,
  succeeded: ids.length,
  failed: 0,
  results: ids.map((id) => ({ id, ok: true, status: 200 })),
});

/** Shows once the toolbar's own access checks (the same queries) have answered, so an absence after it is final. */
const AccessSettled = () => {
  const edit = useCanAccess({ action: 'edit', resource: 'clusters' });
  const remove = useCanAccess({ action: 'delete', resource: 'clusters' });
  return edit.isPending || remove.isPending ? null : <span data-testid="access-settled" />;
};

function setup(bulkAction: (...args: unknown[]) => Promise<BulkOutcome>, grants: Grants = ADMIN) {
  const rows = [cluster('a'), cluster('b'), cluster('c')];
  const getList = vi.fn(async () => ({ data: rows, total: rows.length }));
  const spy = vi.fn(bulkAction);
  const dataProvider = Object.assign(testDataProvider(), { getList, bulkAction: spy });
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => canAccessWith(grants, params),
  };
  render(
    <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
      <ClusterList />
      <AccessSettled />
      <Notification />
    </AdminContext>,
  );
  return { getList, bulkAction: spy };
}

const select = async (...ids: string[]) => {
  for (const id of ids) fireEvent.click(within(await screen.findByTestId(`select-row-${id}`)).getByRole('checkbox'));
};

beforeEach(() => localStorage.clear());

describe('bulk actions in a list', { timeout: 20_000 }, () => {
  it('shows the bulk toolbar with the count once rows are selected, and selects the whole page', async () => {
    setup(vi.fn());
    await screen.findByTestId('select-row-a', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('bulk-toolbar')).not.toBeInTheDocument();
    await select('a', 'b');
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('2 selected');
    expect(screen.getByTestId('bulk-deactivate')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-delete')).toBeInTheDocument();
    // Restore belongs to the soft-deleted view.
    expect(screen.queryByTestId('bulk-restore')).not.toBeInTheDocument();
    fireEvent.click(within(screen.getByTestId('select-all')).getByRole('checkbox'));
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('3 selected');
  });

  it('asks before deleting, naming the count, and sends nothing on Cancel', async () => {
    const { bulkAction } = setup(vi.fn());
    await select('a', 'b');
    fireEvent.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByTestId('bulk-confirm', {}, { timeout: 5000 });
    expect(dialog).toHaveTextContent('Delete 2 rows?');
    fireEvent.click(screen.getByTestId('bulk-confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('bulk-confirm')).not.toBeInTheDocument());
    expect(bulkAction).not.toHaveBeenCalled();
  });

  it('on a full success sends the action and the selected ids, says so with the count, refreshes and clears the selection', async () => {
    const { bulkAction, getList } = setup(async (_r, action, ids) =>
      succeeded(String(action), (ids as string[]).map(String)),
    );
    await select('a', 'c');
    const loads = getList.mock.calls.length;
    fireEvent.click(screen.getByTestId('bulk-delete'));
    fireEvent.click(await screen.findByTestId('bulk-confirm-ok', {}, { timeout: 5000 }));
    await waitFor(() => expect(bulkAction).toHaveBeenCalledWith('clusters', 'delete', ['a', 'c']));
    expect(await screen.findByText('Delete: done for 2 rows')).toBeInTheDocument();
    await waitFor(() => expect(getList.mock.calls.length).toBeGreaterThan(loads));
    await waitFor(() => expect(screen.queryByTestId('bulk-toolbar')).not.toBeInTheDocument());
    expect(screen.queryByTestId('bulk-results')).not.toBeInTheDocument();
  });

  it('shows progress and disables the actions while the request runs', async () => {
    let finish!: (o: BulkOutcome) => void;
    setup(() => new Promise<BulkOutcome>((resolve) => (finish = resolve)));
    await select('a');
    fireEvent.click(screen.getByTestId('bulk-activate'));
    expect(await screen.findByTestId('bulk-progress')).toHaveTextContent('Applying to 1 row…');
    expect(screen.getByTestId('bulk-activate')).toBeDisabled();
    expect(screen.getByTestId('bulk-delete')).toBeDisabled();
    finish(succeeded('activate', ['a']));
    await waitFor(() => expect(screen.queryByTestId('bulk-progress')).not.toBeInTheDocument());
  });

  it('on a partial failure lists each refused row with its reason and the succeeded count, keeping it selected', async () => {
    const outcome: BulkOutcome = {
      action: 'deactivate',
      succeeded: 2,
      failed: 1,
      results: [
        { id: 'a', ok: true, status: 200 },
        {
          id: 'b',
          ok: false,
          status: 403,
          problem: {
            type: 'about:blank',
            title: 'Forbidden',
            status: 403,
            detail: 'Missing permission cluster.update on this cluster',
          },
        },
        { id: 'c', ok: true, status: 200 },
      ],
    };
    const { getList } = setup(async () => outcome);
    await select('a', 'b', 'c');
    const loads = getList.mock.calls.length;
    fireEvent.click(screen.getByTestId('bulk-deactivate'));
    fireEvent.click(await screen.findByTestId('bulk-confirm-ok', {}, { timeout: 5000 }));
    const results = await screen.findByTestId('bulk-results', {}, { timeout: 5000 });
    expect(within(results).getByTestId('bulk-results-summary')).toHaveTextContent('2 succeeded, 1 failed.');
    const failed = within(results).getAllByTestId('bulk-failed-row');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toHaveTextContent('C-b — Cluster b');
    expect(failed[0]).toHaveTextContent('Missing permission cluster.update on this cluster');
    // Never a success notice for a partial failure.
    expect(screen.queryByText(/done for/)).not.toBeInTheDocument();
    await waitFor(() => expect(getList.mock.calls.length).toBeGreaterThan(loads));
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('1 selected');
  });

  it('offers no action the caller cannot do, while still showing the count', async () => {
    setup(vi.fn(), READER);
    await select('a');
    await screen.findByTestId('access-settled');
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('1 selected');
    expect(screen.queryByTestId('bulk-delete')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bulk-deactivate')).not.toBeInTheDocument();
  });
});
