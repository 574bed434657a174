import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, HttpError, Notification, ResourceContextProvider, testDataProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import { createApi } from '../../dataProvider/api';
import { createDataProvider } from '../../dataProvider';
import { createReauth } from '../../dataProvider/reauth';
import { createQueryClient } from '../../dataProvider/queryClient';
import { tokenStore } from '../../dataProvider/tokens';
import { createAuthProvider } from '../../authProvider';
import { SessionExpiredDialog } from '../../components/SessionExpiredDialog';
import { ClusterEdit } from './ClusterEdit';

const BASE = 'http://localhost:3997';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const cluster = { id: 'c1', code: 'CL-A', name: 'Andaman', alias_name: null, max_license_bu: null, is_active: true };

/**
 * The API as the browser meets it when the session has expired: every call with the old token answers 401, the
 * refresh token is revoked (401), and only a new sign-in gives a token that works.
 */
function expiredSessionServer() {
  let stored = { ...cluster };
  const puts: { auth: string | null; body: Record<string, unknown> }[] = [];
  const fetch = vi.fn(async (req: Request) => {
    const url = new URL(req.url);
    const auth = req.headers.get('Authorization');
    if (url.pathname === '/api/auth/refresh-token')
      return json(401, { title: 'Unauthorized', status: 401, detail: 'revoked' });
    if (url.pathname === '/api/auth/login') {
      const body = (await req.json()) as { password?: string };
      return body.password === 'right'
        ? json(200, {
            access_token: 'fresh',
            refresh_token: 'r2',
            token_type: 'Bearer',
            expires_in: 900,
            refresh_expires_in: 3600,
          })
        : json(401, { title: 'Unauthorized', status: 401, detail: 'Invalid username or password' });
    }
    if (url.pathname === '/api/user/permission/platform') {
      return json(200, {
        user: { id: 'u1', username: 'admin', email: 'a@x', display_name: 'Admin' },
        platform: [],
        clusters: {},
        is_super_admin: true,
      });
    }
    if (req.method === 'PUT') {
      const body = (await req.json()) as Record<string, unknown>;
      puts.push({ auth, body });
      if (auth !== 'Bearer fresh')
        return json(401, { title: 'Unauthorized', status: 401, detail: 'invalid or expired token' });
      stored = { ...stored, ...body };
      return json(200, stored);
    }
    if (url.pathname === '/api-system/clusters/c1') return json(200, stored);
    if (url.pathname === '/api-system/business-units')
      return json(200, { data: [], paginate: { total: 0, page: 1, perpage: -1, pages: 1 } });
    if (url.pathname === '/api-system/user/clusters/c1') return json(200, { data: [] });
    return json(404, { title: 'Not Found', status: 404, detail: `no ${url.pathname}` });
  });
  return { fetch, puts };
}

function renderPage(
  ui: React.ReactNode,
  dataProvider: ReturnType<typeof testDataProvider>,
  authProvider?: ReturnType<typeof createAuthProvider>,
) {
  const page = (
    <AdminContext
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      <ResourceContextProvider value="clusters">{ui}</ResourceContextProvider>
      <Notification />
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      { path: '/clusters/:id/edit', element: page },
      { path: '*', element: <p>elsewhere</p> },
    ],
    {
      initialEntries: ['/clusters/c1/edit'],
    },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => localStorage.clear());

describe('saving a cluster', { timeout: 30_000 }, () => {
  it('when the session expired (PUT 401, refresh 401), then the form stays, a dialog asks to sign in, and the save is retried', async () => {
    tokenStore.set({ access_token: 'fresh', refresh_token: 'r1' });
    const server = expiredSessionServer();
    const reauth = createReauth();
    const api = createApi({ baseUrl: BASE, fetch: server.fetch, reauthenticate: () => reauth.request() });
    const router = renderPage(
      <>
        <ClusterEdit />
        <SessionExpiredDialog reauth={reauth} />
      </>,
      createDataProvider(api),
      createAuthProvider(api, reauth),
    );

    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    await waitFor(() => expect(screen.getByTestId('mode-edit')).toBeInTheDocument());
    fireEvent.click(screen.getByTestId('mode-edit'));
    fireEvent.change(name, { target: { value: 'Andaman Renamed' } });
    // The session expires while the user edits.
    tokenStore.set({ access_token: 'expired', refresh_token: 'revoked' });
    fireEvent.click(screen.getByTestId('mode-save'));

    const dialog = await screen.findByRole('dialog', { name: 'Your session has expired' });
    // No success was claimed and nothing of the form was lost.
    expect(screen.queryByText(/saved/)).not.toBeInTheDocument();
    expect(screen.queryByText('Element updated')).not.toBeInTheDocument();
    expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'edit');
    expect(name.value).toBe('Andaman Renamed');
    expect(router.state.location.pathname).toBe('/clusters/c1/edit');
    expect(server.puts).toHaveLength(1);

    // A wrong password is said in the dialog, which stays.
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in and continue' }));
    expect(await within(dialog).findByText('Invalid username or password')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Username/)).toHaveValue('admin');

    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'right' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in and continue' }));

    expect(await screen.findByText('Cluster CL-A saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'view'));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Your session has expired' })).not.toBeInTheDocument(),
    );
    expect(server.puts.map((p) => [p.auth, p.body.name])).toEqual([
      ['Bearer expired', 'Andaman Renamed'],
      ['Bearer fresh', 'Andaman Renamed'],
    ]);
    expect(await screen.findByDisplayValue('Andaman Renamed')).toHaveAttribute('readonly');
  });

  it('when the API refuses a field (problem+json errors), then the message is shown under that field and named in words', async () => {
    const update = vi.fn(async () => {
      throw new HttpError('/body/name must NOT have more than 255 characters', 400, {
        errors: { name: 'must NOT have more than 255 characters' },
      });
    });
    const getOne = vi.fn(async () => ({ data: cluster }));
    const dp = testDataProvider({
      getOne,
      update,
      getList: async () => ({ data: [], total: 0 }),
      getClusterUsers: async () => [],
    } as never);
    renderPage(<ClusterEdit />, dp, {
      ...createAuthProvider(),
      canAccess: async () => true,
      checkError: async () => undefined,
    });
    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    fireEvent.click(screen.getByTestId('mode-edit'));
    fireEvent.change(name, { target: { value: 'x'.repeat(20) } });
    fireEvent.click(screen.getByTestId('mode-save'));

    expect(
      await screen.findByText('Cluster CL-A was not saved: Name: must NOT have more than 255 characters'),
    ).toBeInTheDocument();
    // Against the field itself, and the form stays in edit mode with the value.
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById(`${name.id}-helper-text`)).toHaveTextContent(
      'must NOT have more than 255 characters',
    );
    expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'edit');
    expect(screen.queryByText(/saved$/)).not.toBeInTheDocument();
    // A 4xx answer is not sent again behind the user's back.
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('when react-admin ends the session during the save, then no success is reported', async () => {
    // react-admin answers a call whose checkError logs the user out with an empty record instead of the error.
    const getOne = vi.fn(async () => ({ data: cluster }));
    const update = vi.fn(async () => {
      throw new HttpError('invalid or expired token', 401, {});
    });
    const dp = testDataProvider({
      getOne,
      update,
      getList: async () => ({ data: [], total: 0 }),
      getClusterUsers: async () => [],
    } as never);
    renderPage(<ClusterEdit />, dp, {
      ...createAuthProvider(),
      checkAuth: async () => undefined,
      canAccess: async () => true,
      checkError: async () => {
        throw new Error('ra.notification.logged_out');
      },
      logout: async () => undefined,
    });
    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    fireEvent.click(screen.getByTestId('mode-edit'));
    fireEvent.change(name, { target: { value: 'Lost' } });
    fireEvent.click(screen.getByTestId('mode-save'));
    await waitFor(() => expect(update).toHaveBeenCalled());
    // The page has read the record again after the session ended and shows it in view mode: the save is over.
    expect(await screen.findByTestId('mode-edit')).toBeInTheDocument();
    expect(screen.queryByText(/CL-A saved/)).not.toBeInTheDocument();
    expect(screen.queryByText('Element updated')).not.toBeInTheDocument();
  });
});
