import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Admin, CustomRoutes, ListBase, Resource, useListContext } from 'react-admin';
import { Route } from 'react-router-dom';
import type { ReactNode } from 'react';
import { createAuthProvider } from '../authProvider';
import { createApi } from '../dataProvider/api';
import { createDataProvider } from '../dataProvider';
import { createQueryClient } from '../dataProvider/queryClient';
import { createPasswordChange } from '../dataProvider/passwordChange';
import { tokenStore } from '../dataProvider/tokens';
import { AppLayout } from '../layout/AppLayout';
import { LoginPage } from '../pages/LoginPage';
import { AccountPage } from './AccountPage';
import { accountI18n } from './testSupport';

/**
 * The console's session flows end to end inside the page: the real auth provider, API client and data provider over
 * a fake server, react-admin's router, the layout and the login page.
 */
const BASE = 'http://localhost:3996';
const PROBLEMS = 'https://platform-admin.dev/problems';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

const user = { id: 'u1', username: 'somchai', email: 'somchai@example.com', display_name: 'Somchai' };
const perms = (must_change_password: boolean) => ({
  user,
  platform: ['cluster.read'],
  clusters: {},
  is_super_admin: false,
  must_change_password,
});

type Handler = (req: Request, path: string) => Response | undefined | Promise<Response | undefined>;

function consoleWith(handler: Handler) {
  const calls: string[] = [];
  const fetch = vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    calls.push(`${req.method} ${path}`);
    return (
      (await handler(req, path)) ?? json(200, { data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 0 } })
    );
  });
  const api = createApi({ baseUrl: BASE, fetch });
  const passwordChange = createPasswordChange();
  const authProvider = createAuthProvider(api, undefined, passwordChange);
  const Layout = ({ children }: { children: ReactNode }) => (
    <AppLayout passwordChange={passwordChange}>{children}</AppLayout>
  );
  const ClusterRows = () => {
    const { data } = useListContext();
    return <div data-testid="cluster-list">{data?.length ?? 0} clusters</div>;
  };
  render(
    <Admin
      dataProvider={createDataProvider(api)}
      authProvider={authProvider}
      i18nProvider={accountI18n('en').provider}
      queryClient={createQueryClient()}
      layout={Layout}
      loginPage={LoginPage}
      dashboard={() => <h1>Dashboard</h1>}
      requireAuth
    >
      <Resource
        name="clusters"
        list={() => (
          <ListBase>
            <ClusterRows />
          </ListBase>
        )}
      />
      <CustomRoutes>
        <Route path="/account" element={<AccountPage />} />
      </CustomRoutes>
    </Admin>,
  );
  return { calls, passwordChange };
}

// react-admin moves to the login page once the screen being left has settled its own failed reads.
const SLOW = { timeout: 10_000 };

const field = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  tokenStore.set({ access_token: 'a', refresh_token: 'r' });
});

describe('a password set by an administrator', { timeout: 30_000 }, () => {
  it('shows only the new-password screen, whatever the route, then the dashboard once changed', async () => {
    let changed = false;
    window.location.hash = '#/clusters';
    const { calls } = consoleWith(async (req, path) => {
      if (path === '/api/user/permission/platform') return json(200, perms(!changed));
      if (path === '/api-system/me/password') {
        expect(await req.json()).toEqual({
          current_password: 'Initial-Password-1',
          new_password: 'Phuket-Lagoon-Morning-7',
        });
        changed = true;
        return new Response(null, { status: 204 });
      }
      return undefined;
    });

    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(
      screen.getByText('Your password was set by an administrator. Choose your own to continue.'),
    ).toBeInTheDocument();
    // Nothing behind it started: the server would refuse it anyway.
    expect(screen.queryByTestId('cluster-list')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.startsWith('GET /api-system/'))).toEqual([]);

    await waitFor(() => expect(document.querySelector('input[name="username"]')).toHaveValue('somchai'));
    fireEvent.change(field(/^Current password/), { target: { value: 'Initial-Password-1' } });
    fireEvent.change(field(/^New password/), { target: { value: 'Phuket-Lagoon-Morning-7' } });
    fireEvent.change(field(/^Confirm the new password/), { target: { value: 'Phuket-Lagoon-Morning-7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' }, SLOW)).toBeInTheDocument();
    expect(window.location.hash).toBe('#/');
    expect(screen.queryByRole('heading', { name: 'Choose a new password' })).not.toBeInTheDocument();
    // The permissions were read again after the change.
    await waitFor(() =>
      expect(calls.filter((c) => c === 'GET /api/user/permission/platform').length).toBeGreaterThanOrEqual(2),
    );
  });

  it('when a call is refused with password-change-required, then the console shows the new-password screen', async () => {
    window.location.hash = '#/clusters';
    consoleWith((_, path) => {
      if (path === '/api/user/permission/platform') return json(200, perms(false));
      if (path === '/api-system/clusters') {
        return json(403, {
          type: `${PROBLEMS}/password-change-required`,
          title: 'Forbidden',
          status: 403,
          detail: 'Change your password first.',
        });
      }
      return undefined;
    });
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(tokenStore.access).toBe('a');
  });
});

describe('a session the server ended', { timeout: 30_000 }, () => {
  it('when a list fetch gets 401 account-deactivated, then the login page says why, and no sign-in-again dialog opens', async () => {
    window.location.hash = '#/clusters';
    const { calls } = consoleWith((_, path) => {
      if (path === '/api/user/permission/platform') return json(200, perms(false));
      if (path === '/api-system/clusters') {
        return json(401, {
          type: `${PROBLEMS}/account-deactivated`,
          title: 'Unauthorized',
          status: 401,
          detail: 'Your account has been deactivated. Ask an administrator to reactivate it.',
        });
      }
      return undefined;
    });

    expect(await screen.findByTestId('session-end-reason', undefined, SLOW)).toHaveTextContent(
      'Your account has been deactivated. Ask an administrator to reactivate it.',
    );
    expect(window.location.hash).toBe('#/login');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByTestId('session-expired')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api-system/clusters');
    expect(calls.some((c) => c.includes('/api/auth/refresh-token'))).toBe(false);
    expect(tokenStore.access).toBeNull();
  });

  it('when a call gets 401 session-ended, then the login page says this device was signed out', async () => {
    window.location.hash = '#/clusters';
    consoleWith((_, path) => {
      if (path === '/api/user/permission/platform') return json(200, perms(false));
      if (path === '/api-system/clusters')
        return json(401, { type: `${PROBLEMS}/session-ended`, title: 'Unauthorized', status: 401 });
      return undefined;
    });
    expect(await screen.findByTestId('session-end-reason', undefined, SLOW)).toHaveTextContent(
      'You were signed out of this device.',
    );
    expect(screen.queryByTestId('session-expired')).not.toBeInTheDocument();
  });
});
