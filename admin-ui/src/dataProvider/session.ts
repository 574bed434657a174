import type { TokenPair } from '../types';
import { tokenStore } from './tokens';
import { WRITABLE, pickWritable } from './writable';

export type FetchLike = (input: Request) => Promise<Response>;

const AUTH_PATHS = ['/api/auth/login', '/api/auth/refresh-token', '/api/auth/logout'];
const isAuthCall = (url: string) => AUTH_PATHS.some((p) => new URL(url, 'http://x').pathname === p);

/**
 * A fetch that adds the bearer token and, on the first 401, refreshes the session once and retries.
 * Concurrent 401s share one refresh (single flight); a 403 is returned untouched.
 */
export function createSession(options: {
  baseUrl: string;
  fetch?: FetchLike;
  onSessionLost?: () => void;
  /**
   * Asked when the refresh has failed: resolves true once the user has signed in again (the call is then retried),
   * false when nobody can ask (the 401 is returned as before); rejects when the user signs out instead.
   */
  reauthenticate?: () => Promise<boolean>;
}) {
  const baseFetch: FetchLike = options.fetch ?? ((req) => globalThis.fetch(req));
  let inFlight: Promise<boolean> | null = null;

  async function doRefresh(): Promise<boolean> {
    const refreshToken = tokenStore.refresh;
    if (!refreshToken) return false;
    try {
      const res = await baseFetch(
        new Request(`${options.baseUrl}/api/auth/refresh-token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(pickWritable({ refresh_token: refreshToken }, WRITABLE.RefreshTokenRequest)),
        }),
      );
      if (!res.ok) {
        tokenStore.clear();
        options.onSessionLost?.();
        return false;
      }
      const pair = (await res.json()) as TokenPair;
      tokenStore.set(pair);
      return true;
    } catch {
      // A network failure is not a lost session: keep the tokens, report failure for this call.
      return false;
    }
  }

  /** Starts a refresh, or joins the one already running. */
  function refresh(): Promise<boolean> {
    if (!inFlight) inFlight = doRefresh().finally(() => (inFlight = null));
    return inFlight;
  }

  function withToken(request: Request, token: string | null): Request {
    const req = new Request(request);
    if (token) req.headers.set('Authorization', `Bearer ${token}`);
    return req;
  }

  async function authFetch(request: Request): Promise<Response> {
    if (isAuthCall(request.url)) return baseFetch(request);
    const retryCopy = request.clone();
    const usedToken = tokenStore.access;
    const res = await baseFetch(withToken(request, usedToken));
    if (res.status !== 401) return res;
    // Another call may already have rotated the token while this one was in flight.
    const current = tokenStore.access;
    let refreshed = current && current !== usedToken ? true : await refresh();
    // The session is gone: ask the user to sign in again in place, so the call (a save above all) is not lost.
    if (!refreshed && options.reauthenticate) refreshed = await options.reauthenticate();
    if (!refreshed) return res;
    return baseFetch(withToken(retryCopy, tokenStore.access));
  }

  return { authFetch, refresh };
}
