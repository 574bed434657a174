import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpError } from 'react-admin';
import type { UserSso } from '../../types';
import { UserShow } from './UserEdit';
import { SUPER, USER_READER, account, renderRoutes } from './testing';

const LINKED: UserSso = {
  sso_only: false,
  identities: [
    {
      provider: 'entra',
      subject: 'sub-9f2c',
      email: 'somchai@andaman.example',
      created_at: '2026-11-20T07:45:00.000Z',
      last_sign_in_at: '2026-11-21T07:45:00.000Z',
    },
    {
      provider: 'retired',
      subject: 'old-1',
      email: null,
      created_at: '2026-10-01T07:45:00.000Z',
      last_sign_in_at: '2026-10-01T07:45:00.000Z',
    },
  ],
};

function setup(sso: UserSso, grants = SUPER) {
  let held = sso;
  const dp = {
    getOne: vi.fn(async () => ({ data: account('a') })),
    listSsoProviders: vi.fn(async () => [{ id: 'entra', display_name: 'Microsoft Entra ID' }]),
    getUserSso: vi.fn(async () => held),
    setUserSsoOnly: vi.fn(async (_: string, ssoOnly: boolean) => {
      held = { ...held, sso_only: ssoOnly };
      return held;
    }),
  };
  renderRoutes('/users/a', grants, dp, [{ path: '/users/:id', resource: 'users', element: <UserShow /> }]);
  return dp;
}

const ssoSwitch = () => screen.getByRole('switch', { name: 'SSO only' });

beforeEach(() => localStorage.clear());

describe('the single sign-on card of an account', { timeout: 30_000 }, () => {
  it('lists the linked identities with the provider’s name, subject, email and last sign-in', async () => {
    setup(LINKED);
    const [entra, retired] = await screen.findAllByTestId('sso-identity', {}, { timeout: 5000 });
    expect(entra).toHaveTextContent('Microsoft Entra ID');
    expect(entra).toHaveTextContent('sub-9f2c');
    expect(entra).toHaveTextContent('somchai@andaman.example');
    // A provider no longer configured is named by its id.
    expect(retired).toHaveTextContent('retired');
  });

  it('when nothing is linked, then it says so, and the switch is off with the reason', async () => {
    setup({ sso_only: false, identities: [] });
    expect(await screen.findByTestId('sso-not-linked')).toHaveTextContent('Not linked to an identity provider');
    expect(ssoSwitch()).toBeDisabled();
    expect(screen.getByTestId('sso-only-help')).toHaveTextContent(
      'Only an account linked to an identity provider can be made SSO only',
    );
  });

  it('turns SSO only on for user.manage, and says so', async () => {
    const dp = setup(LINKED);
    await screen.findAllByTestId('sso-identity');
    await waitFor(() => expect(ssoSwitch()).toBeEnabled());
    fireEvent.click(ssoSwitch());
    await waitFor(() => expect(dp.setUserSsoOnly).toHaveBeenCalledWith('a', true));
    expect(await screen.findByText('user.a now signs in with single sign-on only')).toBeInTheDocument();
    await waitFor(() => expect(ssoSwitch()).toBeChecked());
  });

  it('when the server refuses (409), then its detail shows and the switch stays as it was', async () => {
    const dp = setup(LINKED);
    dp.setUserSsoOnly.mockRejectedValueOnce(
      new HttpError('The account is not linked to any identity provider', 409, {
        status: 409,
        detail: 'The account is not linked to any identity provider',
      }),
    );
    await screen.findAllByTestId('sso-identity');
    await waitFor(() => expect(ssoSwitch()).toBeEnabled());
    fireEvent.click(ssoSwitch());
    expect(await screen.findByTestId('sso-error')).toHaveTextContent(
      'The account is not linked to any identity provider',
    );
    expect(ssoSwitch()).not.toBeChecked();
  });

  it('shows the switch read-only to user.read', async () => {
    setup({ ...LINKED, sso_only: true }, USER_READER);
    await screen.findAllByTestId('sso-identity');
    // The identity card waits for the same access check as the switch: once it shows, the switch's answer is final.
    await screen.findByTestId('user-identity');
    expect(ssoSwitch()).toBeChecked();
    expect(ssoSwitch()).toBeDisabled();
  });

  it('when the card fails to load, then the error shows', async () => {
    const dp = {
      getOne: vi.fn(async () => ({ data: account('a') })),
      listSsoProviders: vi.fn(async () => []),
      getUserSso: vi.fn(async () => {
        throw new HttpError('Database unavailable', 400, { status: 400 });
      }),
    };
    renderRoutes('/users/a', SUPER, dp, [{ path: '/users/:id', resource: 'users', element: <UserShow /> }]);
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Database unavailable');
  });
});
