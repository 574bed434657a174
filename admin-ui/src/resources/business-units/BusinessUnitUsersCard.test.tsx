import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent, within } from '@testing-library/react';
import { AdminContext, testDataProvider, type AuthProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { i18nProvider } from '../../i18n';
import { BusinessUnitUsersCard } from './BusinessUnitUsersCard';

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

const person = (userId: string, first: string, username: string) => ({
  user_id: userId,
  username,
  email: `${username}@x`,
  userInfo: { firstname: first, middlename: null, lastname: 'Lee' },
  created_at: '2024-01-01T00:00:00Z',
});

const clusterUser = (n: number, first: string, username: string) => ({
  id: `cu-${n}`,
  cluster_id: 'c1',
  role: 'user',
  is_active: true,
  parent_bu_id: null,
  parent_bu_name: null,
  ...person(`u${n}`, first, username),
});

const CLUSTER_USERS = [clusterUser(1, 'Ann', 'ann'), clusterUser(2, 'Bob', 'bob'), clusterUser(3, 'Cat', 'cat')];

/** A data provider over one BU whose members change as the calls say, as the server's would. */
function setup(options: { clusterUsers?: unknown[]; update?: () => Promise<never> } = {}) {
  let members = [
    {
      id: 'mem-1',
      business_unit_id: 'b1',
      role: 'user',
      is_active: true,
      etag: 'W/"v1"',
      ...person('u1', 'Ann', 'ann'),
    },
  ];
  const dp = {
    getBusinessUnitUsers: vi.fn(async () => members),
    getClusterUsers: vi.fn(async () => options.clusterUsers ?? CLUSTER_USERS),
    getOne: vi.fn(async () => ({ data: { id: 'c1', code: 'CL-A', name: 'Andaman Hotels' } })),
    addBusinessUnitUser: vi.fn(async () => ({})),
    updateBusinessUnitUser: vi.fn(
      options.update ??
        (async (member: { id: string }, body: object) => {
          members = members.map((m) => (m.id === member.id ? { ...m, ...body } : m));
          return members.find((m) => m.id === member.id)!;
        }),
    ),
    removeBusinessUnitUser: vi.fn(async (id: string) => {
      members = members.filter((m) => m.id !== id);
    }),
  };
  render(
    <MemoryRouter initialEntries={['/business-units/b1']}>
      <AdminContext
        dataProvider={testDataProvider(dp as never)}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
      >
        <BusinessUnitUsersCard businessUnitId="b1" clusterId="c1" />
      </AdminContext>
    </MemoryRouter>,
  );
  return dp;
}

describe('BU users card', { timeout: 20_000 }, () => {
  it('offers the cluster users not yet in the BU, filtered on the client, with the default role', async () => {
    const dp = setup();
    await screen.findByTestId('bu-user-row');
    fireEvent.click(screen.getByTestId('bu-user-add'));
    await waitFor(() => expect(screen.getAllByTestId('bu-user-option')).toHaveLength(2));
    expect(screen.queryByText('Ann Lee', { selector: '[data-testid="bu-user-option"] *' })).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Filter the cluster's users"), { target: { value: 'cat' } });
    await waitFor(() => expect(screen.getAllByTestId('bu-user-option')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('bu-user-option'));
    fireEvent.click(screen.getByTestId('add-bu-user-submit'));
    await waitFor(() =>
      expect(dp.addBusinessUnitUser).toHaveBeenCalledWith({ user_id: 'u3', business_unit_id: 'b1', role: 'user' }),
    );
  });

  it('edits role and status with a PATCH naming the version shown, then shows the saved row', async () => {
    const dp = setup();
    const row = await screen.findByTestId('bu-user-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Ann Lee' }));
    const dialog = await screen.findByTestId('edit-bu-user-dialog');
    fireEvent.click(within(dialog).getByLabelText('Membership active'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(dp.updateBusinessUnitUser).toHaveBeenCalledWith(expect.objectContaining({ id: 'mem-1', etag: 'W/"v1"' }), {
        role: 'user',
        is_active: false,
      }),
    );
    await waitFor(() => expect(within(screen.getByTestId('bu-user-row')).getByText('Inactive')).toBeInTheDocument());
    // The card reads the members again, so what it shows is what the server holds.
    await waitFor(() => expect(dp.getBusinessUnitUsers).toHaveBeenCalledTimes(2));
  });

  it('when someone else changed the membership first, says so instead of saving over it', async () => {
    const dp = setup({
      update: () => Promise.reject(Object.assign(new Error('Precondition failed'), { status: 412 })),
    });
    fireEvent.click(within(await screen.findByTestId('bu-user-row')).getByTestId('member-edit'));
    fireEvent.click(within(await screen.findByTestId('edit-bu-user-dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changed by someone else')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('edit-bu-user-dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(dp.getBusinessUnitUsers).toHaveBeenCalledTimes(2));
  });

  it('when the cluster has no users, says so and links to adding one to the cluster, instead of "all are members"', async () => {
    setup({ clusterUsers: [] });
    await screen.findByTestId('bu-user-row');
    fireEvent.click(screen.getByTestId('bu-user-add'));
    const none = await screen.findByTestId('bu-user-none');
    expect(none.dataset.reason).toBe('cluster_has_no_users');
    expect(none.textContent).toContain('Andaman Hotels has no users yet');
    expect(screen.getByText('Only users of Andaman Hotels can join this business unit.')).toBeInTheDocument();
    expect(within(none).getByRole('link', { name: 'Add a user to Andaman Hotels' }).getAttribute('href')).toBe(
      '/clusters/c1?add_user=1',
    );
  });

  it('when every cluster user is a member, says that, with the same link', async () => {
    setup({ clusterUsers: [clusterUser(1, 'Ann', 'ann')] });
    await screen.findByTestId('bu-user-row');
    fireEvent.click(screen.getByTestId('bu-user-add'));
    const none = await screen.findByTestId('bu-user-none');
    expect(none.dataset.reason).toBe('all_are_members');
    expect(within(none).getByRole('link')).toBeInTheDocument();
  });

  it('removes by membership id after confirmation', async () => {
    const dp = setup();
    await screen.findByTestId('bu-user-row');
    fireEvent.click(screen.getByTestId('bu-user-remove'));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(dp.removeBusinessUnitUser).toHaveBeenCalledWith('mem-1'));
    await waitFor(() => expect(screen.queryByTestId('bu-user-row')).not.toBeInTheDocument());
  });
});
