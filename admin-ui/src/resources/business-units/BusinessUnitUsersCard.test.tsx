import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent, within } from '@testing-library/react';
import { AdminContext, testDataProvider, type AuthProvider } from 'react-admin';
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

function setup() {
  const dp = {
    getBusinessUnitUsers: vi.fn(async () => [
      { id: 'mem-1', business_unit_id: 'b1', role: 'user', is_active: true, ...person('u1', 'Ann', 'ann') },
    ]),
    getClusterUsers: vi.fn(async () => [
      {
        id: 'cu-1',
        cluster_id: 'c1',
        role: 'user',
        is_active: true,
        parent_bu_id: null,
        parent_bu_name: null,
        ...person('u1', 'Ann', 'ann'),
      },
      {
        id: 'cu-2',
        cluster_id: 'c1',
        role: 'user',
        is_active: true,
        parent_bu_id: null,
        parent_bu_name: null,
        ...person('u2', 'Bob', 'bob'),
      },
      {
        id: 'cu-3',
        cluster_id: 'c1',
        role: 'user',
        is_active: true,
        parent_bu_id: null,
        parent_bu_name: null,
        ...person('u3', 'Cat', 'cat'),
      },
    ]),
    addBusinessUnitUser: vi.fn(async () => ({})),
    updateBusinessUnitUser: vi.fn(async (id: string, body: object) => ({
      id,
      business_unit_id: 'b1',
      ...person('u1', 'Ann', 'ann'),
      ...body,
    })),
    removeBusinessUnitUser: vi.fn(async () => undefined),
  };
  render(
    <AdminContext dataProvider={testDataProvider(dp as never)} authProvider={authProvider} i18nProvider={i18nProvider}>
      <BusinessUnitUsersCard businessUnitId="b1" clusterId="c1" />
    </AdminContext>,
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

  it('edits role and status with a PATCH and updates the row locally', async () => {
    const dp = setup();
    const row = await screen.findByTestId('bu-user-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Ann Lee' }));
    const dialog = await screen.findByTestId('edit-bu-user-dialog');
    fireEvent.click(within(dialog).getByLabelText('Membership active'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(dp.updateBusinessUnitUser).toHaveBeenCalledWith('mem-1', { role: 'user', is_active: false }),
    );
    await waitFor(() => expect(within(screen.getByTestId('bu-user-row')).getByText('Inactive')).toBeInTheDocument());
    expect(dp.getBusinessUnitUsers).toHaveBeenCalledTimes(1);
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
