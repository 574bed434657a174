import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession } from './session';
import { tokenStore } from './tokens';
import { createReauth, SessionEndedError } from './reauth';
import { shouldRetry } from './queryClient';

const BASE = 'http://localhost';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A server whose refresh always fails; calls succeed only with the token of a new sign-in. */
function expiredServer() {
  const seen: { path: string; auth: string | null; body: string }[] = [];
  const fetch = vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === '/api/auth/refresh-token') return json(401, { title: 'Unauthorized' });
    seen.push({ path, auth: req.headers.get('Authorization'), body: await req.text() });
    return req.headers.get('Authorization') === 'Bearer fresh'
      ? json(200, { ok: path })
      : json(401, { title: 'Unauthorized' });
  });
  return { fetch, seen };
}

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'expired', refresh_token: 'revoked' });
});

describe('signing in again in place', () => {
  it('when the refresh fails and the dialog is there, then the call waits for the new sign-in and is sent again', async () => {
    const reauth = createReauth();
    reauth.attach();
    const { fetch, seen } = expiredServer();
    const { authFetch } = createSession({ baseUrl: BASE, fetch, reauthenticate: () => reauth.request() });

    const saving = authFetch(new Request(`${BASE}/api-system/clusters/c1`, { method: 'PUT', body: '{"name":"Mine"}' }));
    await vi.waitFor(() => expect(reauth.isAsking()).toBe(true));
    // Meanwhile another call joins the same question instead of asking twice.
    const reading = authFetch(new Request(`${BASE}/api-system/clusters`));
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(reauth.isAsking()).toBe(true);

    tokenStore.set({ access_token: 'fresh', refresh_token: 'r2' });
    reauth.signedIn();
    expect((await saving).status).toBe(200);
    expect((await reading).status).toBe(200);
    // The PUT went twice with the same body: once refused, once with the new session.
    expect(seen.filter((c) => c.path === '/api-system/clusters/c1').map((c) => [c.auth, c.body])).toEqual([
      ['Bearer expired', '{"name":"Mine"}'],
      ['Bearer fresh', '{"name":"Mine"}'],
    ]);
    expect(reauth.isAsking()).toBe(false);
  });

  it('when the user signs out instead, then the waiting call fails with SessionEndedError, never with a success', async () => {
    const reauth = createReauth();
    reauth.attach();
    const { fetch } = expiredServer();
    const { authFetch } = createSession({ baseUrl: BASE, fetch, reauthenticate: () => reauth.request() });
    const saving = authFetch(new Request(`${BASE}/x`, { method: 'PUT', body: '{}' }));
    await vi.waitFor(() => expect(reauth.isAsking()).toBe(true));
    reauth.signedOut();
    await expect(saving).rejects.toBeInstanceOf(SessionEndedError);
  });

  it('when no dialog can ask (the login page), then the 401 comes back as before', async () => {
    const reauth = createReauth();
    const { fetch } = expiredServer();
    const { authFetch } = createSession({ baseUrl: BASE, fetch, reauthenticate: () => reauth.request() });
    const res = await authFetch(new Request(`${BASE}/x`));
    expect(res.status).toBe(401);
    expect(reauth.isAsking()).toBe(false);
  });
});

describe('retries of failed reads', () => {
  it('never repeats a 4xx answer (a validation problem, a refusal, a missing record)', () => {
    for (const status of [400, 401, 403, 404, 409, 412, 422, 429]) expect(shouldRetry(0, { status })).toBe(false);
    expect(shouldRetry(0, new SessionEndedError())).toBe(false);
  });

  it('tries a 5xx or a network failure twice more', () => {
    expect(shouldRetry(0, { status: 503 })).toBe(true);
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(2, { status: 500 })).toBe(false);
  });
});
