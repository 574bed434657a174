import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession } from './session';
import { tokenStore } from './tokens';

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
    const fetch = vi.fn(async (req: Request) => {
      const url = new URL(req.url);
      if (url.pathname === '/api/auth/refresh-token') {
        refreshCalls++;
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { access_token: 'new', refresh_token: 'r2' });
      }
      return req.headers.get('Authorization') === 'Bearer new' ? json(200, { ok: url.pathname }) : json(401, {});
    });
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    const results = await Promise.all(
      ['/a', '/b', '/c'].map((p) => authFetch(new Request(`${BASE}${p}`)).then((r) => r.json())),
    );
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
