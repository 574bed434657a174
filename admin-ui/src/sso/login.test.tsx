import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Admin, ListBase, Resource, useListContext } from 'react-admin';
import { createAuthProvider } from '../authProvider';
import { createApi } from '../dataProvider/api';
import { createDataProvider } from '../dataProvider';
import { createQueryClient } from '../dataProvider/queryClient';
import { tokenStore } from '../dataProvider/tokens';
import { LoginPage } from '../pages/LoginPage';
import { accountI18n } from '../account/testSupport';
import { leaveConsole } from '../lib/browserNavigation';
import { SSO_ERRORS } from './loginMessages';

// jsdom cannot leave the page: the test reads where the browser would have gone.
vi.mock('../lib/browserNavigation', () => ({ leaveConsole: vi.fn() }));

/**
 * The login page's single sign-on, inside the console: the real auth provider, API client and data provider over a
 * fake server, and react-admin's router.
 */
const BASE = 'http://localhost:3995';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });
const perms = {
  user: { id: 'u1', username: 'sso.operator', email: 'o@x', display_name: 'Operator' },
  platform: ['cluster.read'],
  clusters: {},
  is_super_admin: false,
  must_change_password: false,
};
const PROVIDERS = {
  data: [
    { id: 'test-idp', display_name: 'Test IdP' },
    { id: 'entra', display_name: 'Microsoft Entra ID' },
  ],
};
const TOKENS = {
  access_token: 'sso-a',
  refresh_token: 'sso-r',
  token_type: 'Bearer',
  expires_in: 900,
  refresh_expires_in: 3600,
};

type Handler = (req: Request, path: string) => Response | undefined | Promise<Response | undefined>;

function consoleWith(handler: Handler, locale: 'en' | 'th' = 'en') {
  const calls: string[] = [];
  const bodies: Record<string, unknown> = {};
  const fetch = vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    calls.push(`${req.method} ${path}`);
    if (req.method === 'POST') bodies[path] = await req.clone().json();
    return (
      (await handler(req, path)) ?? json(200, { data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 0 } })
    );
  });
  const api = createApi({ baseUrl: BASE, fetch });
  const ClusterRows = () => {
    const { data } = useListContext();
    return <div data-testid="cluster-list">{data?.length ?? 0} clusters</div>;
  };
  const i18n = accountI18n(locale, true);
  render(
    <Admin
      dataProvider={createDataProvider(api)}
      authProvider={createAuthProvider(api)}
      i18nProvider={i18n.provider}
      queryClient={createQueryClient()}
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
    </Admin>,
  );
  return { calls, bodies, missing: i18n.missing };
}

const SLOW = { timeout: 10_000 };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.mocked(leaveConsole).mockClear();
  // The router keeps where it came from in the history's state: a test starts from none.
  window.history.replaceState(null, '', '#/');
});

describe('the login page’s single sign-on', { timeout: 30_000 }, () => {
  it('when providers are configured, then each has a button that sends the browser to its start, with the page the user wanted', async () => {
    window.location.hash = '#/clusters';
    consoleWith((_, path) => (path === '/api/auth/sso/providers' ? json(200, PROVIDERS) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Microsoft Entra ID' }, SLOW));
    expect(leaveConsole).toHaveBeenCalledWith(`/api/auth/sso/entra/start?return_to=%2Fclusters`);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Test IdP' }));
    expect(leaveConsole).toHaveBeenLastCalledWith(`/api/auth/sso/test-idp/start?return_to=%2Fclusters`);
  });

  it('when the login page is opened directly, then the button asks for no return path', async () => {
    window.location.hash = '#/login';
    consoleWith((_, path) => (path === '/api/auth/sso/providers' ? json(200, PROVIDERS) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Test IdP' }, SLOW));
    expect(leaveConsole).toHaveBeenCalledWith(`/api/auth/sso/test-idp/start`);
  });

  it('when no provider is configured, then no button shows', async () => {
    window.location.hash = '#/login';
    const { calls } = consoleWith((_, path) =>
      path === '/api/auth/sso/providers' ? json(200, { data: [] }) : undefined,
    );
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(calls).toContain('GET /api/auth/sso/providers'));
    expect(screen.queryByTestId('sso-provider')).not.toBeInTheDocument();
  });

  it('when the list fails to load, then the password form still works and no button shows', async () => {
    window.location.hash = '#/login';
    const { calls } = consoleWith((_, path) =>
      path === '/api/auth/sso/providers' ? json(500, { title: 'Internal Server Error', status: 500 }) : undefined,
    );
    await waitFor(() => expect(calls).toContain('GET /api/auth/sso/providers'));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByTestId('sso-provider')).not.toBeInTheDocument();
  });

  it('when the page opens with sso_code, then the code is exchanged once, the tokens kept as an SSO session, and return_to opened', async () => {
    window.location.hash = '#/login?sso_code=code-0123456789abcdefghij&return_to=%2Fclusters';
    const { calls, bodies } = consoleWith((_, path) => {
      if (path === '/api/auth/sso/exchange') return json(200, TOKENS);
      if (path === '/api/user/permission/platform') return json(200, perms);
      if (path === '/api-system/clusters')
        return json(200, {
          data: [{ id: 'c1', code: 'CL-A' }],
          paginate: { total: 1, page: 1, perpage: 10, pages: 1 },
        });
      return undefined;
    });
    await waitFor(() => expect(screen.getByTestId('cluster-list')).toHaveTextContent('1 clusters'), SLOW);
    expect(window.location.hash).toBe('#/clusters');
    expect(bodies['/api/auth/sso/exchange']).toEqual({ code: 'code-0123456789abcdefghij' });
    expect(calls.filter((c) => c === 'POST /api/auth/sso/exchange')).toHaveLength(1);
    expect(tokenStore.access).toBe('sso-a');
    expect(tokenStore.fromSso).toBe(true);
  });

  it('when return_to leaves the site, then the dashboard opens instead', async () => {
    window.location.hash = '#/login?sso_code=code-1123456789abcdefghij&return_to=%2F%2Fevil.example%2F';
    consoleWith((_, path) => {
      if (path === '/api/auth/sso/exchange') return json(200, TOKENS);
      if (path === '/api/user/permission/platform') return json(200, perms);
      return undefined;
    });
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, SLOW)).toBeInTheDocument();
    expect(window.location.hash).toBe('#/');
  });

  it('while the code is exchanged a progress shows, and a spent code is said in words', async () => {
    window.location.hash = '#/login?sso_code=code-2123456789abcdefghij';
    let answer: (r: Response) => void = () => undefined;
    consoleWith((_, path) =>
      path === '/api/auth/sso/exchange' ? new Promise<Response>((resolve) => (answer = resolve)) : undefined,
    );
    expect(await screen.findByTestId('sso-exchanging')).toHaveTextContent('Signing you in…');
    answer(json(401, { title: 'Unauthorized', status: 401, detail: 'This sign-in code is no longer valid' }));
    expect(await screen.findByTestId('sso-exchange-error')).toHaveTextContent(
      'This sign-in has expired or was already used. Sign in with your identity provider again.',
    );
    expect(tokenStore.access).toBeNull();
    expect(window.location.hash).toContain('#/login');
  });

  const REASONS: Record<(typeof SSO_ERRORS)[number] | 'something_new', string> = {
    state: 'The sign-in took too long, or was started in another browser or window. Start it again here.',
    denied:
      'The identity provider did not let you sign in, or the sign-in was cancelled. Try again, or sign in with your password.',
    token:
      'The answer of the identity provider could not be verified. Try again; if it keeps happening, tell an administrator.',
    email_unverified: 'Your email address is not verified at the identity provider. Verify it there, then try again.',
    domain_not_allowed: 'Accounts of your email domain may not sign in to this console. Ask an administrator.',
    no_account: 'No account of this console belongs to your identity. Ask an administrator to create one for you.',
    not_linked:
      'An account with your email already exists, but it is not linked to this identity provider. Sign in with your username and password, or ask an administrator to allow linking.',
    link_refused:
      'An account with your email already exists, and it holds permissions that are never linked to an identity provider by email. Sign in with your username and password.',
    inactive: 'Your account has been deactivated. Ask an administrator to reactivate it.',
    provider_unavailable:
      'The identity provider cannot be reached right now. Try again in a moment, or sign in with your password.',
    something_new: 'The single sign-on did not complete. Try again, or sign in with your password.',
  };
  for (const [reason, words] of Object.entries(REASONS)) {
    it(`when the page opens with sso_error=${reason}, then it says why in words`, async () => {
      window.location.hash = `#/login?sso_error=${reason}`;
      consoleWith(() => undefined);
      expect(await screen.findByTestId('sso-error')).toHaveTextContent(words);
    });
  }

  it('says an sso_error in Thai, with no message missing', async () => {
    window.location.hash = '#/login?sso_error=provider_unavailable';
    const { missing } = consoleWith(
      (_, path) => (path === '/api/auth/sso/providers' ? json(200, PROVIDERS) : undefined),
      'th',
    );
    expect(await screen.findByTestId('sso-error')).toHaveTextContent('ไม่สามารถติดต่อผู้ให้บริการยืนยันตัวตนได้ในขณะนี้');
    expect(await screen.findByRole('button', { name: 'เข้าสู่ระบบด้วย Test IdP' })).toBeInTheDocument();
    expect([...missing]).toEqual([]);
  });

  it('when the password of an SSO-only account is refused, then the server’s words are shown', async () => {
    window.location.hash = '#/login';
    const detail = 'This account signs in with single sign-on only: use the "Sign in with" button of your organisation';
    consoleWith((_, path) =>
      path === '/api/auth/login' ? json(401, { title: 'Unauthorized', status: 401, detail }) : undefined,
    );
    fireEvent.change(await screen.findByLabelText(/Username/, { selector: 'input' }), {
      target: { value: 'sso.operator' },
    });
    fireEvent.change(screen.getByLabelText(/Password/, { selector: 'input' }), { target: { value: 'whatever-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(detail)).toBeInTheDocument();
    expect(tokenStore.access).toBeNull();
  });
});
