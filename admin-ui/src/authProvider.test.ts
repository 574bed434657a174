import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from './authProvider';
import { createApi } from './dataProvider/api';
import { endReasonStore, tokenStore } from './dataProvider/tokens';
import { createReauth } from './dataProvider/reauth';
import { createPasswordChange } from './dataProvider/passwordChange';
import { HttpError } from 'react-admin';

const BASE = 'http://localhost:3998';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const perms = {
  user: { id: 'u1', username: 'editor', email: 'e@x', display_name: 'Editor' },
  platform: ['cluster.read'],
  clusters: { c1: ['cluster.update'] },
  is_super_admin: false,
  must_change_password: false,
};

function setup(handler: (req: Request) => Promise<Response>) {
  const fetch = vi.fn(handler);
  const auth = createAuthProvider(createApi({ baseUrl: BASE, fetch }));
  return { auth, fetch };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('auth provider', () => {
  it('stores the tokens on login and revokes the refresh token on logout', async () => {
    const { auth, fetch } = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/login')
        return json(200, {
          access_token: 'a',
          refresh_token: 'r',
          token_type: 'Bearer',
          expires_in: 900,
          refresh_expires_in: 3600,
        });
      return new Response(null, { status: 204 });
    });
    await auth.login({ username: 'admin', password: 'pw' });
    expect(tokenStore.access).toBe('a');
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    await auth.logout({});
    expect(tokenStore.access).toBeNull();
    const logoutCall = fetch.mock.calls.map((c) => c[0]).find((r) => r.url.endsWith('/api/auth/logout'))!;
    expect(await logoutCall.json()).toEqual({ refresh_token: 'r' });
    await expect(auth.checkAuth({})).rejects.toBeDefined();
  });

  it('when the login page hands over an SSO code, then it is exchanged, kept as an SSO session, and only a same-site return path is followed', async () => {
    const { auth, fetch } = setup(async (req) =>
      new URL(req.url).pathname === '/api/auth/sso/exchange'
        ? json(200, {
            access_token: 'a',
            refresh_token: 'r',
            token_type: 'Bearer',
            expires_in: 900,
            refresh_expires_in: 3600,
          })
        : json(404, {}),
    );
    await expect(auth.login({ sso_code: 'c'.repeat(20), return_to: '/clusters?page=2' })).resolves.toEqual({
      redirectTo: '/clusters?page=2',
    });
    expect(await fetch.mock.calls[0]![0].json()).toEqual({ code: 'c'.repeat(20) });
    expect(tokenStore.access).toBe('a');
    expect(tokenStore.fromSso).toBe(true);
    for (const foreign of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'clusters', null]) {
      await expect(auth.login({ sso_code: 'c'.repeat(20), return_to: foreign })).resolves.toEqual({ redirectTo: '/' });
    }
  });

  it('when an SSO session signs out, then the SSO sign-out is called, the tokens dropped, and the provider’s end-session URL answered', async () => {
    const { auth, fetch } = setup(async (req) =>
      new URL(req.url).pathname === '/api/auth/sso/logout'
        ? json(200, { end_session_url: 'https://idp.example/end?id_token_hint=x' })
        : json(404, {}),
    );
    tokenStore.set({ access_token: 'a', refresh_token: 'r' }, 'sso');
    await expect(auth.logout({})).resolves.toBe('https://idp.example/end?id_token_hint=x');
    expect(tokenStore.access).toBeNull();
    expect(tokenStore.fromSso).toBe(false);
    const call = fetch.mock.calls.map((c) => c[0]).find((r) => r.url.endsWith('/api/auth/sso/logout'))!;
    expect(await call.json()).toEqual({ refresh_token: 'r' });
    expect(fetch.mock.calls.some((c) => c[0].url.endsWith('/api/auth/logout'))).toBe(false);
  });

  it('when the SSO sign-out has no end-session URL, or fails, then react-admin goes to the login page as usual', async () => {
    let answer = json(200, { end_session_url: null });
    const { auth } = setup(async () => answer);
    tokenStore.set({ access_token: 'a', refresh_token: 'r' }, 'sso');
    await expect(auth.logout({})).resolves.toBeUndefined();
    answer = json(500, { title: 'Internal Server Error', status: 500 });
    tokenStore.set({ access_token: 'a', refresh_token: 'r' }, 'sso');
    await expect(auth.logout({})).resolves.toBeUndefined();
    expect(tokenStore.refresh).toBeNull();
  });

  it('when a password sign-in follows an SSO session, then the session no longer counts as SSO, and a refresh keeps what the sign-in said', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' }, 'sso');
    tokenStore.set({ access_token: 'a2', refresh_token: 'r2' });
    expect(tokenStore.fromSso).toBe(true);
    const { auth } = setup(async () =>
      json(200, {
        access_token: 'p',
        refresh_token: 'pr',
        token_type: 'Bearer',
        expires_in: 900,
        refresh_expires_in: 3600,
      }),
    );
    await auth.login({ username: 'admin', password: 'pw' });
    expect(tokenStore.fromSso).toBe(false);
  });

  it('rejects a failed login with the server message', async () => {
    const { auth } = setup(async () =>
      json(401, { title: 'Unauthorized', status: 401, detail: 'Invalid username or password' }),
    );
    await expect(auth.login({ username: 'x', password: 'y' })).rejects.toMatchObject({
      message: 'Invalid username or password',
    });
  });

  it('never treats a 403 as a lost session', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' });
    const { auth, fetch } = setup(async () => json(500, {}));
    await expect(auth.checkError({ status: 403 })).resolves.toBeUndefined();
    expect(tokenStore.access).toBe('a');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps the session on a 401 when the refresh succeeds, ends it when the refresh fails', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' });
    let refreshOk = true;
    const { auth } = setup(async (req) =>
      new URL(req.url).pathname === '/api/auth/refresh-token'
        ? refreshOk
          ? json(200, { access_token: 'a2', refresh_token: 'r2' })
          : json(401, { title: 'Unauthorized' })
        : json(404, {}),
    );
    await expect(auth.checkError({ status: 401 })).resolves.toBeUndefined();
    expect(tokenStore.access).toBe('a2');
    refreshOk = false;
    await expect(auth.checkError({ status: 401 })).rejects.toBeDefined();
    expect(tokenStore.access).toBeNull();
  });

  it('answers canAccess from the permission endpoint, scoped by cluster', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' });
    const { auth, fetch } = setup(async () => json(200, perms));
    await expect(auth.canAccess!({ action: 'edit', resource: 'clusters', record: { id: 'c1' } })).resolves.toBe(true);
    await expect(auth.canAccess!({ action: 'edit', resource: 'clusters', record: { id: 'c2' } })).resolves.toBe(false);
    await expect(
      auth.canAccess!({ action: 'edit', resource: 'business-units', record: { cluster_id: 'c1' } }),
    ).resolves.toBe(true);
    await expect(auth.canAccess!({ action: 'list', resource: 'business-units' })).resolves.toBe(true);
    await expect(auth.canAccess!({ action: 'delete', resource: 'clusters', record: { id: 'c1' } })).resolves.toBe(
      false,
    );
    expect(await auth.getIdentity!()).toMatchObject({ id: 'u1', fullName: 'Editor' });
    // one permission read serves every check of the session
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0].headers.get('Authorization')).toBe('Bearer a');
  });

  it('when signed out, then permission checks deny without calling the server', async () => {
    const { auth, fetch } = setup(async () => json(401, { title: 'Unauthorized' }));
    await expect(auth.canAccess!({ action: 'list', resource: 'clusters' })).resolves.toBe(false);
    await expect(auth.getPermissions!({})).rejects.toMatchObject({ status: 401 });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('a password change required by the server', () => {
  function withPasswordChange(answers: { must_change_password: boolean }[]) {
    const passwordChange = createPasswordChange();
    let calls = 0;
    const fetch = vi.fn(async () => json(200, { ...perms, ...answers[Math.min(calls++, answers.length - 1)] }));
    const auth = createAuthProvider(createApi({ baseUrl: BASE, fetch }), createReauth(), passwordChange);
    return { auth, fetch, passwordChange };
  }

  it('when the permissions say so, then it is required; once changed, the permissions are read again', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' });
    const { auth, fetch, passwordChange } = withPasswordChange([
      { must_change_password: true },
      { must_change_password: false },
    ]);
    await auth.getPermissions!({});
    expect(passwordChange.isRequired()).toBe(true);
    // Same session, same answer: no second read.
    await auth.getPermissions!({});
    expect(fetch).toHaveBeenCalledTimes(1);

    passwordChange.changed();
    expect(passwordChange.isRequired()).toBe(false);
    expect(await auth.getPermissions!({})).toMatchObject({ must_change_password: false });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(passwordChange.isRequired()).toBe(false);
  });

  it('when any call is refused with password-change-required, then it is required and the session stays', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' });
    const { auth, passwordChange } = withPasswordChange([{ must_change_password: false }]);
    const refusal = new HttpError('Change your password first', 403, {
      type: 'https://platform-admin.dev/problems/password-change-required',
    });
    await expect(auth.checkError(refusal)).resolves.toBeUndefined();
    expect(passwordChange.isRequired()).toBe(true);
    expect(tokenStore.access).toBe('a');
  });

  it('when someone signs out, then nothing is known about the next account yet', async () => {
    const passwordChange = createPasswordChange();
    const fetch = vi.fn(async () => json(200, { access_token: 'a', refresh_token: 'r' }));
    const auth = createAuthProvider(createApi({ baseUrl: BASE, fetch }), createReauth(), passwordChange);
    await auth.login({ username: 'u', password: 'p' });
    passwordChange.require();
    await auth.logout({});
    expect(passwordChange.isRequired()).toBe(false);
  });
});

describe('a session the server ended', () => {
  it('when a call got 401 account-deactivated, then checkError ends the session and the reason stays until the next sign-in', async () => {
    tokenStore.set({ access_token: 'a', refresh_token: 'r' });
    const { auth, fetch } = setup(async (req) =>
      new URL(req.url).pathname === '/api/auth/login'
        ? json(200, { access_token: 'a2', refresh_token: 'r2' })
        : json(401, {
            type: 'https://platform-admin.dev/problems/account-deactivated',
            title: 'Unauthorized',
            status: 401,
          }),
    );
    // What the session fetch does with such an answer: tokens gone, reason kept.
    await expect(auth.getPermissions!({})).rejects.toMatchObject({ status: 401 });
    expect(tokenStore.access).toBeNull();
    expect(endReasonStore.get()).toBe('account-deactivated');
    await expect(auth.checkError({ status: 401 })).rejects.toBeDefined();
    // Never a refresh: the refresh token went with the session.
    expect(fetch.mock.calls.some((c) => c[0].url.endsWith('/api/auth/refresh-token'))).toBe(false);
    await auth.logout({});
    expect(endReasonStore.get()).toBe('account-deactivated');
    await auth.login({ username: 'u', password: 'p' });
    expect(endReasonStore.get()).toBeNull();
  });
});
