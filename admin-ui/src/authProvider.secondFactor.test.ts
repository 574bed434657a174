import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider, isSecondFactorRequired } from './authProvider';
import { createApi } from './dataProvider/api';
import { tokenStore } from './dataProvider/tokens';
import { createReauth } from './dataProvider/reauth';
import { createPasswordChange } from './dataProvider/passwordChange';
import { createEnrolment } from './dataProvider/enrolment';

const BASE = 'http://localhost:3998';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const pair = { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, refresh_expires_in: 3600 };
const challenge = { second_factor_token: 't'.repeat(43), methods: ['totp', 'recovery_code'], expires_in: 300 };
const perms = (mustEnrol: boolean) => ({
  user: { id: 'u1', username: 'nok', email: 'n@x', display_name: 'Nok' },
  platform: [],
  clusters: {},
  is_super_admin: true,
  must_change_password: false,
  must_enrol_second_factor: mustEnrol,
});

function setup(handler: (req: Request) => Promise<Response>) {
  const fetch = vi.fn(handler);
  const enrolment = createEnrolment();
  const auth = createAuthProvider(
    createApi({ baseUrl: BASE, fetch }),
    createReauth(),
    createPasswordChange(),
    enrolment,
  );
  return { auth, fetch, enrolment };
}

beforeEach(() => localStorage.clear());

describe('signing in with a second factor', () => {
  it('after a single sign-on the policy asks about, keeps the session an SSO one and opens the path wanted before', async () => {
    const { auth } = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/sso/exchange') return json(202, challenge);
      if (path === '/api/auth/second-factor') return json(200, pair);
      return json(404, {});
    });
    const refused: unknown = await auth.login({ sso_code: 'c'.repeat(43), return_to: '/clusters' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isSecondFactorRequired(refused) && refused.challenge.second_factor_token).toBe(
      challenge.second_factor_token,
    );
    expect(tokenStore.access).toBeNull();

    const done: unknown = await auth.login({
      second_factor_token: challenge.second_factor_token,
      method: 'totp',
      code: '123456',
      sso: { return_to: '/clusters' },
    });
    expect(done).toEqual({ redirectTo: '/clusters' });
    expect(tokenStore.access).toBe('a');
    // Signing out goes through the provider's end-session, as after any single sign-on.
    expect(tokenStore.fromSso).toBe(true);
  });

  it('answers the second step for a 202 without opening a session, then signs in with the code', async () => {
    const { auth, fetch } = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/login') return json(202, challenge);
      if (path === '/api/auth/second-factor') return json(200, pair);
      return json(404, {});
    });
    const refused: unknown = await auth.login({ username: 'nok', password: 'pw' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isSecondFactorRequired(refused)).toBe(true);
    expect(isSecondFactorRequired(refused) && refused.challenge.methods).toEqual(['totp', 'recovery_code']);
    expect(tokenStore.access).toBeNull();

    await auth.login({ second_factor_token: challenge.second_factor_token, method: 'totp', code: '123456' });
    expect(tokenStore.access).toBe('a');
    const second = fetch.mock.calls.map((c) => c[0]).find((r) => r.url.endsWith('/api/auth/second-factor'))!;
    expect(await second.json()).toEqual({
      second_factor_token: challenge.second_factor_token,
      method: 'totp',
      code: '123456',
    });
  });

  it('says the account must enrol when the permissions say so, and forgets it on sign-out', async () => {
    const { auth, enrolment } = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/login') return json(200, pair);
      if (path === '/api/user/permission/platform') return json(200, perms(true));
      return new Response(null, { status: 204 });
    });
    await auth.login({ username: 'nok', password: 'pw' });
    await auth.getPermissions?.({});
    await vi.waitFor(() => expect(enrolment.isRequired()).toBe(true));
    await auth.logout({});
    expect(enrolment.isRequired()).toBe(false);
  });

  it('reads the permissions again once a factor is set up', async () => {
    let reads = 0;
    const { auth, enrolment } = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/login') return json(200, pair);
      if (path === '/api/user/permission/platform') return json(200, perms(reads++ === 0));
      return new Response(null, { status: 204 });
    });
    await auth.login({ username: 'nok', password: 'pw' });
    await auth.getPermissions?.({});
    await vi.waitFor(() => expect(enrolment.isRequired()).toBe(true));
    enrolment.enrolled();
    await auth.getPermissions?.({});
    expect(reads).toBe(2);
    expect(enrolment.isRequired()).toBe(false);
  });
});
