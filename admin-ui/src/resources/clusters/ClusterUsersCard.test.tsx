import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, fireEvent, within } from '@testing-library/react';
import { AdminContext, testDataProvider, type AuthProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { i18nProvider } from '../../i18n';
import { ClusterUsersCard } from './ClusterUsersCard';

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

const member = (id: string, first: string, email: string, parent: string | null = null, role = 'user') => ({
  id,
  user_id: `u-${id}`,
  cluster_id: 'c1',
  role,
  etag: `W/"${id}"`,
  is_active: true,
  parent_bu_id: parent,
  parent_bu_name: parent ? 'Full BU' : null,
  username: first.toLowerCase(),
  email,
  userInfo: { firstname: first, middlename: null, lastname: null },
  created_at: '2024-01-01T00:00:00Z',
});

const user = (i: number) => ({
  id: `pool-${i}`,
  username: `user${i}`,
  email: `user${i}@x`,
  userInfo: { firstname: `User${i}`, middlename: null, lastname: null },
  is_active: true,
});

function setup(path = '/clusters/c1') {
  const dp = {
    getClusterUsers: vi.fn(async () => [
      member('m2', 'Zed', 'z@x', null, 'admin'),
      member('m1', 'Amy', 'b@x', 'full'),
      member('m3', 'Amy', 'a@x'),
    ]),
    getList: vi.fn(async () => ({
      data: [
        { id: 'full', name: 'Full BU', users_count: 5, max_license_users: 5 },
        { id: 'open', name: 'Open BU', users_count: 1, max_license_users: 5 },
      ],
      total: 2,
    })),
    searchUsers: vi.fn(async ({ page }: { page: number }) => ({
      data: Array.from({ length: 10 }, (_, i) => user((page - 1) * 10 + i)),
      total: 25,
      pageInfo: {},
      paginate: { total: 25, page, perpage: 10, pages: 3 },
    })),
    addClusterUser: vi.fn(async () => ({})),
    updateClusterUser: vi.fn(async () => ({})),
    removeClusterUser: vi.fn(async () => undefined),
  };
  render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext
        dataProvider={testDataProvider(dp as never)}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
      >
        <ClusterUsersCard clusterId="c1" />
      </AdminContext>
    </MemoryRouter>,
  );
  return dp;
}

beforeEach(() => localStorage.clear());

describe('cluster users card', { timeout: 30_000 }, () => {
  it('sorts members by display name, then email', async () => {
    setup();
    const rows = await screen.findAllByTestId('cluster-user-row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual(['a@x', 'b@x', 'z@x']);
  });

  it('searches the user pool in pages of 10 without members, loads more near the end, and adds with the default role', async () => {
    const dp = setup();
    await screen.findAllByTestId('cluster-user-row');
    fireEvent.click(screen.getByTestId('cluster-user-add'));
    await waitFor(() => expect(screen.getAllByTestId('user-option')).toHaveLength(10));
    expect(dp.searchUsers).toHaveBeenCalledWith({ search: '', page: 1, perpage: 10, exclude_cluster_id: 'c1' });
    const list = screen.getByTestId('user-search-results');
    Object.defineProperties(list, {
      scrollHeight: { value: 1000, configurable: true },
      clientHeight: { value: 260, configurable: true },
      scrollTop: { value: 600, configurable: true, writable: true },
    });
    // 140 px from the end: nothing more. act() lets whatever the scroll starts begin before the count is read.
    await act(async () => {
      fireEvent.scroll(list);
    });
    expect(dp.searchUsers).toHaveBeenCalledTimes(1);
    list.scrollTop = 700; // 40 px from the end
    fireEvent.scroll(list);
    await waitFor(() => expect(screen.getAllByTestId('user-option')).toHaveLength(20));
    expect(dp.searchUsers).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2 }));

    fireEvent.click(screen.getAllByTestId('user-option')[3]!);
    fireEvent.mouseDown(within(screen.getByTestId('parent-bu-select')).getByRole('combobox'));
    const full = await screen.findByRole('option', { name: /Full BU/ });
    expect(full).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(screen.getByRole('option', { name: /Open BU/ }));
    fireEvent.click(screen.getByTestId('add-user-submit'));
    await waitFor(() =>
      expect(dp.addClusterUser).toHaveBeenCalledWith({
        user_id: 'pool-3',
        cluster_id: 'c1',
        role: 'user',
        is_active: true,
        parent_bu_id: 'open',
      }),
    );
  });

  it('never disables the member’s current BU in the edit dialog', async () => {
    const dp = setup();
    const rows = await screen.findAllByTestId('cluster-user-row');
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Amy' })); // b@x, in the full BU
    const dialog = await screen.findByTestId('edit-cluster-user-dialog');
    fireEvent.mouseDown(within(within(dialog).getByTestId('parent-bu-select')).getByRole('combobox'));
    expect(await screen.findByRole('option', { name: /Full BU/ })).not.toHaveAttribute('aria-disabled');
    fireEvent.click(screen.getByRole('option', { name: /Full BU/ }));
    fireEvent.click(within(dialog).getByTestId('edit-user-submit'));
    await waitFor(() =>
      expect(dp.updateClusterUser).toHaveBeenCalledWith(expect.objectContaining({ id: 'm1', etag: 'W/"m1"' }), {
        role: 'user',
        parent_bu_id: 'full',
      }),
    );
  });

  it('shows each member’s role, and changes it from the row’s edit button', async () => {
    const dp = setup();
    const rows = await screen.findAllByTestId('cluster-user-row');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Email',
      'Role',
      'Parent Business Unit',
      'Status',
      'Actions',
    ]);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual(['User', 'User', 'Admin']);
    fireEvent.click(within(rows[2]!).getByTestId('member-edit'));
    const dialog = await screen.findByTestId('edit-cluster-user-dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Role' }));
    fireEvent.click(await screen.findByRole('option', { name: 'User' }));
    fireEvent.click(within(dialog).getByTestId('edit-user-submit'));
    await waitFor(() =>
      expect(dp.updateClusterUser).toHaveBeenCalledWith(expect.objectContaining({ id: 'm2' }), {
        role: 'user',
        parent_bu_id: null,
      }),
    );
    // The card reads its members again after the change.
    await waitFor(() => expect(dp.getClusterUsers).toHaveBeenCalledTimes(2));
  });

  it('opens Add user when the page is opened to add one (?add_user=1)', async () => {
    setup('/clusters/c1?add_user=1');
    expect(await screen.findByTestId('add-cluster-user-dialog')).toBeInTheDocument();
  });

  it('asks yes/no before removing', async () => {
    const dp = setup();
    await screen.findAllByTestId('cluster-user-row');
    fireEvent.click(screen.getAllByTestId('cluster-user-remove')[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'No' }));
    expect(dp.removeClusterUser).not.toHaveBeenCalled();
    fireEvent.click(screen.getAllByTestId('cluster-user-remove')[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(dp.removeClusterUser).toHaveBeenCalledWith('m3'));
  });
});
