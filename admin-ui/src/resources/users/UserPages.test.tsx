import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { toHttpError } from '../../dataProvider/errors';
import { UserCreate } from './UserCreate';
import { UserEdit, UserShow } from './UserEdit';
import { SUPER, USER_ADMIN, USER_READER, account, renderRoutes } from './testing';

const createRoutes = [
  { path: '/users/create', resource: 'users', element: <UserCreate /> },
  { path: '/users/:id', element: <p>user read view</p> },
];

async function fillCreateForm() {
  fireEvent.change(await screen.findByLabelText(/^Username/), { target: { value: 'somchai.j' } });
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'somchai@example.com' } });
  fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: 'Somchai' } });
  fireEvent.change(screen.getByLabelText(/^Initial password/), { target: { value: 'short' } });
}

beforeEach(() => localStorage.clear());

describe('creating a user', { timeout: 30_000 }, () => {
  it('reminds that the initial password must be changed at the first sign-in', async () => {
    renderRoutes('/users/create', SUPER, {}, createRoutes);
    expect(await screen.findByText('The user must change this password at the first sign-in.')).toBeInTheDocument();
  });

  it('when the API refuses the password (400), then its rule is shown under the password field and nothing opens', async () => {
    const create = vi.fn(async () => {
      throw toHttpError(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'The password must be at least 12 characters long',
      });
    });
    const router = renderRoutes('/users/create', SUPER, { create }, createRoutes);
    await fillCreateForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]).toEqual([
      'users',
      expect.objectContaining({
        data: {
          username: 'somchai.j',
          email: 'somchai@example.com',
          firstname: 'Somchai',
          middlename: null,
          lastname: null,
          password: 'short',
        },
      }),
    ]);
    const password = screen.getByLabelText(/^Initial password/);
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById(`${password.id}-helper-text`)).toHaveTextContent(
      'The password must be at least 12 characters long',
    );
    expect(router.state.location.pathname).toBe('/users/create');
  });

  it('when the username is taken (409), then the detail is shown under the username', async () => {
    const create = vi.fn(async () => {
      throw new HttpError('Username somchai.j is already used', 409, { detail: 'Username somchai.j is already used' });
    });
    renderRoutes('/users/create', SUPER, { create }, createRoutes);
    await fillCreateForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const username = screen.getByLabelText(/^Username/);
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById(`${username.id}-helper-text`)).toHaveTextContent(
      'Username somchai.j is already used',
    );
  });

  it('when the email is taken (409), then the detail is shown under the email', async () => {
    const create = vi.fn(async () => {
      throw new HttpError('Email somchai@example.com is already used', 409, {});
    });
    renderRoutes('/users/create', SUPER, { create }, createRoutes);
    await fillCreateForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
  });

  it('opens the new account’s read view', async () => {
    const create = vi.fn(async () => ({ data: account('u9', { username: 'somchai.j' }) }));
    const router = renderRoutes('/users/create', SUPER, { create }, createRoutes);
    await fillCreateForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/u9'));
    expect(await screen.findByText('user read view')).toBeInTheDocument();
  });
});

function userProvider(record = account('a')) {
  let current = { ...record };
  return {
    getOne: vi.fn(async () => ({ data: current })),
    update: vi.fn(async (_: string, params: { data: Record<string, unknown> }) => {
      current = { ...current, ...params.data };
      return { data: current };
    }),
    getUserGrants: vi.fn(async () => ({ data: [], is_super_admin: false })),
    listAuditEvents: vi.fn(async () => ({ data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 1 } })),
    deactivateUser: vi.fn(async () => {
      current = { ...current, is_active: false };
      return current;
    }),
    reactivateUser: vi.fn(async () => ({ ...current, is_active: true })),
    unlockUser: vi.fn(async () => {
      current = { ...current, sign_in_delayed: false };
      return current;
    }),
    resetUserPassword: vi.fn(async () => current),
    revokeSuperAdmin: vi.fn(async () => ({ ...current, is_super_admin: false })),
  };
}

const userRoutes = [
  { path: '/users/:id', resource: 'users', element: <UserShow /> },
  { path: '/users/:id/edit', resource: 'users', element: <UserEdit /> },
];

describe('a user’s read view', { timeout: 30_000 }, () => {
  it('shows a reader the account read-only, with no actions', async () => {
    renderRoutes('/users/a', USER_READER, userProvider(account('a', { sign_in_delayed: true })), userRoutes);
    // The identity fields appear once the edit grant has been answered; the actions read that same answer.
    expect(await screen.findByDisplayValue('user.a')).toHaveAttribute('readonly');
    expect(screen.getByTestId('flag-sign-in-delayed')).toBeInTheDocument();
    expect(screen.queryByTestId('mode-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('user-deactivate')).not.toBeInTheDocument();
    expect(screen.queryByTestId('user-unlock')).not.toBeInTheDocument();
  });

  it('saves the identity and names the account in the message', async () => {
    const dp = userProvider();
    renderRoutes('/users/a', USER_ADMIN, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('mode-edit'));
    const email = screen.getByDisplayValue('a@example.com');
    fireEvent.change(email, { target: { value: 'new@example.com' } });
    fireEvent.click(screen.getByTestId('mode-save'));
    await waitFor(() => expect(dp.update).toHaveBeenCalledTimes(1));
    expect(dp.update.mock.calls[0]![1]).toMatchObject({
      id: 'a',
      data: { username: 'user.a', email: 'new@example.com', middlename: null },
    });
    expect(await screen.findByText('User user.a saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('user-identity')).toHaveAttribute('data-mode', 'view'));
  });

  it('opens /users/:id/edit in edit mode', async () => {
    renderRoutes('/users/a/edit', USER_ADMIN, userProvider(), userRoutes);
    expect(await screen.findByTestId('mode-save')).toBeInTheDocument();
    expect(screen.getByDisplayValue('user.a')).not.toHaveAttribute('readonly');
  });

  it('deactivates only after the confirmation', async () => {
    const dp = userProvider();
    renderRoutes('/users/a', USER_ADMIN, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('user-deactivate'));
    expect(await screen.findByText('Deactivate user.a?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dp.deactivateUser).toHaveBeenCalledWith('a'));
    expect(await screen.findByText('user.a deactivated')).toBeInTheDocument();
    expect(await screen.findByTestId('user-reactivate')).toBeInTheDocument();
  });

  it('says why the server refused an action', async () => {
    const dp = userProvider();
    dp.deactivateUser.mockRejectedValueOnce(
      new HttpError('The last active super admin cannot be deactivated', 409, {}),
    );
    renderRoutes('/users/a', USER_ADMIN, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('user-deactivate'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('user-action-error')).toHaveTextContent(
      'The last active super admin cannot be deactivated',
    );
  });

  it('unlocks sign-in while it is delayed', async () => {
    const dp = userProvider(account('a', { sign_in_delayed: true }));
    renderRoutes('/users/a', USER_ADMIN, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('user-unlock'));
    await waitFor(() => expect(dp.unlockUser).toHaveBeenCalledWith('a'));
    await waitFor(() => expect(screen.queryByTestId('user-unlock')).not.toBeInTheDocument());
  });

  it('resets the password in a dialog that shows the API’s rule', async () => {
    const dp = userProvider();
    dp.resetUserPassword.mockRejectedValueOnce(new HttpError('The password is too common', 400, {}));
    renderRoutes('/users/a', USER_ADMIN, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('user-reset-password'));
    const dialog = await screen.findByTestId('reset-password-dialog');
    fireEvent.change(within(dialog).getByTestId('reset-password-input'), { target: { value: 'Password123' } });
    fireEvent.click(within(dialog).getByTestId('reset-password-submit'));
    expect(await within(dialog).findByText('The password is too common')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByTestId('reset-password-input'), { target: { value: 'Andaman-Sunrise-2026' } });
    fireEvent.click(within(dialog).getByTestId('reset-password-submit'));
    await waitFor(() => expect(dp.resetUserPassword).toHaveBeenLastCalledWith('a', 'Andaman-Sunrise-2026'));
    expect(await screen.findByText('Password of user.a reset')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('reset-password-dialog')).not.toBeInTheDocument());
  });

  it('offers Remove super admin on a super admin only to a super admin caller', async () => {
    const dp = userProvider(account('a', { is_super_admin: true }));
    renderRoutes('/users/a', USER_ADMIN, dp, userRoutes);
    expect(await screen.findByTestId('user-deactivate')).toBeInTheDocument();
    expect(screen.queryByTestId('user-remove-super-admin')).not.toBeInTheDocument();
  });

  it('removes super admin after the confirmation', async () => {
    const dp = userProvider(account('a', { is_super_admin: true }));
    renderRoutes('/users/a', SUPER, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('user-remove-super-admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dp.revokeSuperAdmin).toHaveBeenCalledWith('a'));
  });

  it('shows the account’s history in its tab', async () => {
    const dp = userProvider();
    renderRoutes('/users/a', USER_READER, dp, userRoutes);
    fireEvent.click(await screen.findByTestId('tab-history'));
    expect(await screen.findByTestId('history-empty')).toBeInTheDocument();
    expect(dp.listAuditEvents).toHaveBeenCalledWith({
      target_type: 'user',
      target_id: 'a',
      page: 1,
      perpage: 10,
      total: 'estimate',
    });
  });
});
