import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from './authProvider';
import { createApi } from './dataProvider/api';
import { tokenStore } from './dataProvider/tokens';

const BASE = 'http://localhost:3998';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const perms = {
  user: { id: 'u1', username: 'editor', email: 'e@x', display_name: 'Editor' },
  platform: ['cluster.read'],
  clusters: { c1: ['cluster.update'] },
  is_super_admin: false,
};

function setup(handler: (req: Request) => Promise<Response>) {
  const fetch = vi.fn(handler);
  const auth = createAuthProvider(createApi({ baseUrl: BASE, fetch }));
  return { auth, fetch };
}

beforeEach(() => localStorage.clear());

describe('auth provider', () => {
  it('stores the tokens on login and revokes the refresh token on logout', async () => {
    const { auth, fetch } = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/auth/login') return json(200, { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, refresh_expires_in: 3600 });
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

  it('rejects a failed login with the server message', async () => {
    const { auth } = setup(async () => json(401, { title: 'Unauthorized', status: 401, detail: 'Invalid username or password' }));
    await expect(auth.login({ username: 'x', password: 'y' })).rejects.toMatchObject({ message: 'Invalid username or password' });
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
    await expect(auth.canAccess!({ action: 'edit', resource: 'clusters', record: { id: 'c1' } } as never)).resolves.toBe(true);
    await expect(auth.canAccess!({ action: 'edit', resource: 'clusters', record: { id: 'c2' } } as never)).resolves.toBe(false);
    await expect(auth.canAccess!({ action: 'edit', resource: 'business-units', record: { cluster_id: 'c1' } } as never)).resolves.toBe(true);
    await expect(auth.canAccess!({ action: 'list', resource: 'business-units' } as never)).resolves.toBe(true);
    await expect(auth.canAccess!({ action: 'delete', resource: 'clusters', record: { id: 'c1' } } as never)).resolves.toBe(false);
    expect(await auth.getIdentity!()).toMatchObject({ id: 'u1', fullName: 'Editor' });
    // one permission read serves every check of the session
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0].headers.get('Authorization')).toBe('Bearer a');
  });

  it('when signed out, then permission checks deny without calling the server', async () => {
    const { auth, fetch } = setup(async () => json(401, { title: 'Unauthorized' }));
    await expect(auth.canAccess!({ action: 'list', resource: 'clusters' } as never)).resolves.toBe(false);
    await expect(auth.getPermissions!({})).rejects.toMatchObject({ status: 401 });
    expect(fetch).not.toHaveBeenCalled();
  });
});
