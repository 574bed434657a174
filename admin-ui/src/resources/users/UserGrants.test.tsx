import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import type { Grant } from '../../types';
import { UserShow } from './UserEdit';
import { SUPER, USER_READER, account, renderRoutes } from './testing';

const grant = (id: string, extra: Partial<Grant> = {}): Grant => ({
  id,
  permission_key: 'cluster.read',
  cluster_id: null,
  cluster_code: null,
  cluster_name: null,
  granted_at: '2026-11-05T10:00:00.000Z',
  granted_by_name: 'Platform Administrator',
  ...extra,
});

const clusters = [{ id: 'c1', code: 'CL-A', name: 'Andaman', is_active: true }];

function setup(grants = SUPER, answers?: Map<string, boolean>) {
  let held: Grant[] = [
    grant('g1'),
    grant('g2', { permission_key: 'cluster.update', cluster_id: 'c1', cluster_code: 'CL-A', cluster_name: 'Andaman' }),
  ];
  const dp = {
    getOne: vi.fn(async () => ({ data: account('a', { grant_count: held.length }) })),
    getList: vi.fn(async () => ({ data: clusters, total: 1 })),
    getUserGrants: vi.fn(async () => ({ data: held, is_super_admin: false })),
    addUserGrant: vi.fn(
      async (_: string, input: { permission_key: Grant['permission_key']; cluster_id: string | null }) => {
        const added = grant('g3', {
          ...input,
          cluster_code: input.cluster_id ? 'CL-A' : null,
          cluster_name: input.cluster_id ? 'Andaman' : null,
        });
        held = [...held, added];
        return added;
      },
    ),
    removeUserGrant: vi.fn(async (_: string, grantId: string) => {
      held = held.filter((g) => g.id !== grantId);
    }),
  };
  renderRoutes('/users/a', grants, dp, [{ path: '/users/:id', resource: 'users', element: <UserShow /> }], answers);
  return dp;
}

async function openAccess() {
  fireEvent.click(await screen.findByTestId('tab-access'));
  return screen.findAllByTestId('grant-row');
}

async function chooseKey(label: string) {
  const dialog = await screen.findByTestId('add-grant-dialog');
  fireEvent.mouseDown(within(within(dialog).getByTestId('grant-key-select')).getByRole('combobox'));
  fireEvent.click(await screen.findByRole('option', { name: label }));
  return dialog;
}

beforeEach(() => localStorage.clear());

describe('the Access tab', { timeout: 30_000 }, () => {
  it('lists each grant with its key in words, its cluster or all clusters, and who granted it when', async () => {
    setup();
    const [all, one] = await openAccess();
    expect(all).toHaveTextContent('Read clusters');
    expect(all).toHaveTextContent('All clusters');
    expect(all).toHaveTextContent('Platform Administrator');
    expect(one).toHaveTextContent('Update clusters');
    expect(one).toHaveTextContent('CL-A — Andaman');
  });

  it('shows no Add or Remove without grant.manage', async () => {
    const answers = new Map<string, boolean>();
    setup(USER_READER, answers);
    await openAccess();
    // The tab has been told the caller may not manage grants.
    await waitFor(() => expect(answers.get('edit user-grants')).toBe(false));
    expect(screen.queryByTestId('grant-add')).not.toBeInTheDocument();
    expect(screen.queryByTestId('grant-remove')).not.toBeInTheDocument();
  });

  it('grants a cluster key on one cluster', async () => {
    const dp = setup();
    await openAccess();
    fireEvent.click(screen.getByTestId('grant-add'));
    const dialog = await chooseKey('Delete clusters');
    fireEvent.click(within(dialog).getByLabelText('One cluster'));
    fireEvent.mouseDown(within(dialog).getByTestId('grant-cluster'));
    fireEvent.click(await screen.findByRole('option', { name: 'CL-A — Andaman' }));
    fireEvent.click(within(dialog).getByTestId('add-grant-submit'));
    await waitFor(() =>
      expect(dp.addUserGrant).toHaveBeenCalledWith('a', { permission_key: 'cluster.delete', cluster_id: 'c1' }),
    );
    expect(await screen.findByText('"Delete clusters" granted to user.a')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('grant-row')).toHaveLength(3));
  });

  it('holds a platform key on all clusters only', async () => {
    const dp = setup();
    await openAccess();
    fireEvent.click(screen.getByTestId('grant-add'));
    let dialog = await chooseKey('Read clusters');
    fireEvent.click(within(dialog).getByLabelText('One cluster'));
    expect(within(dialog).getByTestId('grant-cluster')).toBeInTheDocument();
    dialog = await chooseKey('Manage users');
    expect(within(dialog).getByLabelText('All clusters')).toBeChecked();
    expect(within(dialog).getByLabelText('One cluster')).toBeDisabled();
    expect(within(dialog).queryByTestId('grant-cluster')).not.toBeInTheDocument();
    expect(within(dialog).getByText('This permission holds on all clusters only.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('add-grant-submit'));
    await waitFor(() =>
      expect(dp.addUserGrant).toHaveBeenCalledWith('a', { permission_key: 'user.manage', cluster_id: null }),
    );
  });

  it('when the API refuses a grant (403), then its detail stays in the dialog', async () => {
    const dp = setup();
    dp.addUserGrant.mockRejectedValueOnce(
      new HttpError('You do not hold cluster.delete on all clusters', 403, {
        detail: 'You do not hold cluster.delete on all clusters',
      }),
    );
    await openAccess();
    fireEvent.click(screen.getByTestId('grant-add'));
    const dialog = await chooseKey('Delete clusters');
    fireEvent.click(within(dialog).getByTestId('add-grant-submit'));
    expect(await within(dialog).findByTestId('add-grant-error')).toHaveTextContent(
      'You do not hold cluster.delete on all clusters',
    );
    expect(screen.getByTestId('add-grant-dialog')).toBeInTheDocument();
    expect(screen.getAllByTestId('grant-row')).toHaveLength(2);
  });

  it('removes a grant after the confirmation', async () => {
    const dp = setup();
    await openAccess();
    fireEvent.click(screen.getAllByTestId('grant-remove')[1]!);
    expect(await screen.findByText('Remove "Update clusters"?')).toBeInTheDocument();
    expect(screen.getByText('user.a loses this permission on CL-A — Andaman.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dp.removeUserGrant).toHaveBeenCalledWith('a', 'g2'));
    await waitFor(() => expect(screen.getAllByTestId('grant-row')).toHaveLength(1));
  });

  it('when the API refuses a removal (403), then its detail is shown and the grant stays', async () => {
    const dp = setup();
    dp.removeUserGrant.mockRejectedValueOnce(new HttpError('You do not hold cluster.read on all clusters', 403, {}));
    await openAccess();
    fireEvent.click(screen.getAllByTestId('grant-remove')[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('grant-error')).toHaveTextContent('You do not hold cluster.read on all clusters');
    expect(screen.getAllByTestId('grant-row')).toHaveLength(2);
  });
});
