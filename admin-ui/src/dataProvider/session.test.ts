import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession } from './session';
import { endReasonStore, tokenStore } from './tokens';

const BASE = 'http://localhost';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'old', refresh_token: 'r1' });
});

describe('session fetch', () => {
  it('sends the bearer token', async () => {
    const fetch = vi.fn(async (req: Request) => json(200, { auth: req.headers.get('Authorization') }));
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    const res = await authFetch(new Request(`${BASE}/api-system/clusters`));
    expect(await res.json()).toEqual({ auth: 'Bearer old' });
  });

  it('refreshes once for concurrent 401s and retries each call with the new token', async () => {
    let refreshCalls = 0;
    // The refresh answers only once every call has had its 401, so all three meet the same refresh in flight.
    let answerRefresh!: () => void;
    const refreshAnswered = new Promise<void>((resolve) => (answerRefresh = resolve));
    const fetch = vi.fn(async (req: Request) => {
      const url = new URL(req.url);
      if (url.pathname === '/api/auth/refresh-token') {
        refreshCalls++;
        await refreshAnswered;
        return json(200, { access_token: 'new', refresh_token: 'r2' });
      }
      return req.headers.get('Authorization') === 'Bearer new' ? json(200, { ok: url.pathname }) : json(401, {});
    });
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    const calls = Promise.all(
      ['/a', '/b', '/c'].map((p) => authFetch(new Request(`${BASE}${p}`)).then((r) => r.json())),
    );
    // Three refused calls and one refresh.
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(4));
    answerRefresh();
    const results = await calls;
    expect(refreshCalls).toBe(1);
    expect(results).toEqual([{ ok: '/a' }, { ok: '/b' }, { ok: '/c' }]);
    expect(tokenStore.refresh).toBe('r2');
  });

  it('replays a POST body on the retry', async () => {
    const bodies: string[] = [];
    const fetch = vi.fn(async (req: Request) => {
      if (req.url.endsWith('/api/auth/refresh-token')) return json(200, { access_token: 'new', refresh_token: 'r2' });
      bodies.push(await req.text());
      return req.headers.get('Authorization') === 'Bearer new' ? json(201, {}) : json(401, {});
    });
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    const res = await authFetch(new Request(`${BASE}/x`, { method: 'POST', body: '{"a":1}' }));
    expect(res.status).toBe(201);
    expect(bodies).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('returns the 401 and clears the session when the refresh fails', async () => {
    const lost = vi.fn();
    const fetch = vi.fn(async (req: Request) =>
      req.url.endsWith('/api/auth/refresh-token') ? json(401, {}) : json(401, { title: 'Unauthorized' }),
    );
    const { authFetch } = createSession({ baseUrl: BASE, fetch, onSessionLost: lost });
    const res = await authFetch(new Request(`${BASE}/x`));
    expect(res.status).toBe(401);
    expect(tokenStore.access).toBeNull();
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('never refreshes on a 403', async () => {
    const fetch = vi.fn(async () => json(403, { title: 'Forbidden' }));
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    const res = await authFetch(new Request(`${BASE}/x`));
    expect(res.status).toBe(403);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(tokenStore.access).toBe('old');
  });
});

describe('a session the server ended', () => {
  const problem = (status: number, name: string) =>
    new Response(
      JSON.stringify({
        type: `https://platform-admin.dev/problems/${name}`,
        title: 'Unauthorized',
        status,
        detail: name,
      }),
      {
        status,
        headers: { 'Content-Type': 'application/problem+json' },
      },
    );

  beforeEach(() => sessionStorage.clear());

  it.each(['account-deactivated', 'session-ended'])(
    'when a call gets 401 %s, then the tokens go, the reason stays for the login page, and nobody is asked to sign in again',
    async (name) => {
      const reauthenticate = vi.fn(async () => true);
      const fetch = vi.fn(async () => problem(401, name));
      const { authFetch } = createSession({ baseUrl: BASE, fetch, reauthenticate });
      const res = await authFetch(new Request(`${BASE}/api-system/clusters`));
      expect(res.status).toBe(401);
      // The caller still reads the problem the server sent.
      expect(await res.json()).toMatchObject({ detail: name });
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(reauthenticate).not.toHaveBeenCalled();
      expect(tokenStore.access).toBeNull();
      expect(tokenStore.refresh).toBeNull();
      expect(endReasonStore.get()).toBe(name);
    },
  );

  it('when the session was ended, then a call the screen still makes is dropped, not sent', async () => {
    const fetch = vi.fn(async () => problem(401, 'account-deactivated'));
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    await authFetch(new Request(`${BASE}/api-system/me/sessions`));
    await expect(authFetch(new Request(`${BASE}/api-system/me/sessions`))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    // Signing in again goes out as usual.
    fetch.mockImplementation(async () => json(200, { access_token: 'a2', refresh_token: 'r2' }));
    expect((await authFetch(new Request(`${BASE}/api/auth/login`, { method: 'POST', body: '{}' }))).status).toBe(200);
  });

  it('when the refresh is refused with session-ended, then the reason stays and nobody is asked to sign in again', async () => {
    const reauthenticate = vi.fn(async () => true);
    const fetch = vi.fn(async (req: Request) =>
      req.url.endsWith('/api/auth/refresh-token')
        ? problem(401, 'session-ended')
        : json(401, { type: 'about:blank', title: 'Unauthorized' }),
    );
    const { authFetch } = createSession({ baseUrl: BASE, fetch, reauthenticate });
    expect((await authFetch(new Request(`${BASE}/x`))).status).toBe(401);
    expect(reauthenticate).not.toHaveBeenCalled();
    expect(endReasonStore.get()).toBe('session-ended');
  });

  it('when the refresh fails without a reason (an expiry), then the sign-in-again question is asked as before', async () => {
    const reauthenticate = vi.fn(async () => false);
    const fetch = vi.fn(async () => json(401, { type: 'about:blank', title: 'Unauthorized' }));
    const { authFetch } = createSession({ baseUrl: BASE, fetch, reauthenticate });
    await authFetch(new Request(`${BASE}/x`));
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(endReasonStore.get()).toBeNull();
  });

  it('when a call is refused until the password is changed, then that is reported and the session stays', async () => {
    const onPasswordChangeRequired = vi.fn();
    const fetch = vi.fn(async () => problem(403, 'password-change-required'));
    const { authFetch } = createSession({ baseUrl: BASE, fetch, onPasswordChangeRequired });
    expect((await authFetch(new Request(`${BASE}/api-system/clusters`))).status).toBe(403);
    expect(onPasswordChangeRequired).toHaveBeenCalledTimes(1);
    expect(tokenStore.access).toBe('old');
    // Any other refusal is only a refusal.
    fetch.mockImplementation(async () => problem(403, 'forbidden'));
    await authFetch(new Request(`${BASE}/api-system/clusters`));
    expect(onPasswordChangeRequired).toHaveBeenCalledTimes(1);
  });
});
