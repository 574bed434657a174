import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Admin, Resource } from 'react-admin';
import { createAuthProvider } from '../authProvider';
import { createApi } from '../dataProvider/api';
import { createDataProvider } from '../dataProvider';
import { createQueryClient } from '../dataProvider/queryClient';
import { tokenStore } from '../dataProvider/tokens';
import { LoginPage } from '../pages/LoginPage';
import { accountI18n } from '../account/testSupport';

/** The login page's second step inside the console: the real auth provider and API client over a fake server. */
const BASE = 'http://localhost:3994';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });
const problem = (status: number, name: string, extra: object = {}) =>
  json(status, { type: `https://platform.example/problems/${name}`, title: 'Refused', status, ...extra });
const TOKEN = 'x'.repeat(43);
const perms = {
  user: { id: 'u1', username: 'nok', email: 'n@x', display_name: 'Nok' },
  platform: [],
  clusters: {},
  is_super_admin: false,
  must_change_password: false,
  must_enrol_second_factor: false,
};
const TOKENS = {
  access_token: 'a',
  refresh_token: 'r',
  token_type: 'Bearer',
  expires_in: 900,
  refresh_expires_in: 3600,
};

function consoleWith(secondStep: (body: { code: string; method: string }) => Response, locale: 'en' | 'th' = 'en') {
  const fetch = vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === '/api/auth/login')
      return json(202, { second_factor_token: TOKEN, methods: ['totp', 'recovery_code'], expires_in: 300 });
    if (path === '/api/auth/second-factor') return secondStep((await req.json()) as { code: string; method: string });
    if (path === '/api/user/permission/platform') return json(200, perms);
    return json(200, { data: [] });
  });
  const api = createApi({ baseUrl: BASE, fetch });
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
      {/* Without a resource react-admin shows its welcome page instead of the dashboard. */}
      <Resource name="clusters" list={() => <div data-testid="cluster-list" />} />
    </Admin>,
  );
  return { fetch, missing: i18n.missing };
}

async function password(name = 'Sign in') {
  fireEvent.change(await screen.findByLabelText(/Username|ชื่อผู้ใช้/, undefined, { timeout: 10_000 }), {
    target: { value: 'nok' },
  });
  fireEvent.change(screen.getByLabelText(/Password|รหัสผ่าน/, { selector: 'input[name="password"]' }), {
    target: { value: 'pw-of-nok' },
  });
  fireEvent.click(screen.getByRole('button', { name }));
}

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '#/login');
});

describe('the second step of a sign-in', { timeout: 30_000 }, () => {
  it('asks for the code after a right password, says a wrong one, and signs in with the right one', async () => {
    consoleWith(({ code }) => (code === '123456' ? json(200, TOKENS) : problem(401, 'second-factor-invalid')));
    await password();
    const code = await screen.findByLabelText('Code from your authenticator app', undefined, { timeout: 10_000 });
    expect(tokenStore.access).toBeNull();
    fireEvent.change(code, { target: { value: '000 000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('second-factor-error')).textContent).toContain(
      'The code is wrong or has been used',
    );
    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(tokenStore.access).toBe('a');
  });

  it('switches to a recovery code and sends it as one', async () => {
    let sent: unknown = null;
    consoleWith((body) => {
      sent = body;
      return body.method === 'recovery_code' ? json(200, TOKENS) : problem(401, 'second-factor-invalid');
    });
    await password();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }, { timeout: 10_000 }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: ' ABCD-EFGH-JKMN ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(sent).toEqual({ second_factor_token: TOKEN, method: 'recovery_code', code: 'abcd-efgh-jkmn' });
  });

  it('says how long to wait after too many tries, and to start again once the sign-in has expired', async () => {
    let answer = problem(429, 'too-many-requests', { retry_after: 30 });
    consoleWith(() => answer);
    await password();
    fireEvent.change(await screen.findByLabelText('Code from your authenticator app', undefined, { timeout: 10_000 }), {
      target: { value: '111111' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('second-factor-error')).textContent).toBe(
      'Too many tries. Wait 30 seconds, then try again.',
    );
    answer = problem(401, 'second-factor-token-invalid');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByText(/This sign-in has expired/)).textContent).toContain(
      'Start again with your password',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
    expect(await screen.findByLabelText(/Password/, { selector: 'input[name="password"]' })).toBeInTheDocument();
  });

  it('says it all in Thai', async () => {
    const { missing } = consoleWith(() => problem(401, 'second-factor-invalid'), 'th');
    await password('เข้าสู่ระบบ');
    await screen.findByText('ขั้นตอนที่สอง', undefined, { timeout: 10_000 });
    fireEvent.change(screen.getByLabelText('รหัสจากแอปยืนยันตัวตน'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'ยืนยัน' }));
    await screen.findByTestId('second-factor-error');
    expect([...missing]).toEqual([]);
  });
});
