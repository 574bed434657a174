import type { TokenPair } from '../types';
import { endReasonStore, tokenStore } from './tokens';
import { PROBLEM, isSessionEndReason, problemNameOf, problemOfResponse, type SessionEndReason } from './errors';
import { WRITABLE, pickWritable } from './writable';
import { stepUpMethodsOf, type StepUpMethod } from './stepUp';

export type FetchLike = (input: Request) => Promise<Response>;

// The sign-in calls (password, refresh, sign-out, single sign-on) need no token: a 401 of one says the call itself
// failed, and refreshing the session cannot help.
const isAuthCall = (url: string) => new URL(url, 'http://x').pathname.startsWith('/api/auth/');

type RefreshOutcome = 'refreshed' | 'failed' | SessionEndReason;

/**
 * A fetch that adds the bearer token and, on the first 401, refreshes the session once and retries.
 * Concurrent 401s share one refresh (single flight); a 403 is returned untouched.
 *
 * A 401 that names why the server ended the session (a deactivated account, a revoked session) is not an expiry:
 * neither a refresh nor signing in again in place can bring it back, so the tokens are dropped, the reason is kept
 * for the login page, and the 401 is returned as it came.
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
  /** A call was refused because the account must change its password first. */
  onPasswordChangeRequired?: () => void;
  /** A call was refused because the account must set up a second factor first. */
  onEnrolmentRequired?: () => void;
  /**
   * Asked when a sensitive call needs a recent second factor: resolves true once the user has confirmed it is them
   * (the call is then sent once more), false when cancelled or when nobody can ask (the refusal is returned).
   */
  stepUp?: (methods: StepUpMethod[]) => Promise<boolean>;
}) {
  const baseFetch: FetchLike = options.fetch ?? ((req) => globalThis.fetch(req));
  let inFlight: Promise<RefreshOutcome> | null = null;

  function ended(reason: SessionEndReason): void {
    tokenStore.clear();
    endReasonStore.set(reason);
    options.onSessionLost?.();
  }

  async function doRefresh(): Promise<RefreshOutcome> {
    const refreshToken = tokenStore.refresh;
    if (!refreshToken) return 'failed';
    try {
      const res = await baseFetch(
        new Request(`${options.baseUrl}/api/auth/refresh-token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(pickWritable({ refresh_token: refreshToken }, WRITABLE.RefreshTokenRequest)),
        }),
      );
      if (!res.ok) {
        const problem = await problemOfResponse(res);
        if (isSessionEndReason(problem)) {
          ended(problem);
          return problem;
        }
        tokenStore.clear();
        options.onSessionLost?.();
        return 'failed';
      }
      const pair = (await res.json()) as TokenPair;
      tokenStore.set(pair);
      return 'refreshed';
    } catch {
      // A network failure is not a lost session: keep the tokens, report failure for this call.
      return 'failed';
    }
  }

  /** Starts a refresh, or joins the one already running. */
  function refreshOutcome(): Promise<RefreshOutcome> {
    if (!inFlight) inFlight = doRefresh().finally(() => (inFlight = null));
    return inFlight;
  }

  /** Refreshes the session (or joins the refresh under way); true when it holds new tokens. */
  async function refresh(): Promise<boolean> {
    return (await refreshOutcome()) === 'refreshed';
  }

  function withToken(request: Request, token: string | null): Request {
    const req = new Request(request);
    if (token) req.headers.set('Authorization', `Bearer ${token}`);
    return req;
  }

  /** The body of a 403 the console acts on: a password to change, a factor to set up, a step-up to ask for. */
  async function refusalOf(res: Response): Promise<{ problem: string | undefined; body: unknown }> {
    try {
      const body: unknown = await res.clone().json();
      const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
      return { problem: typeof type === 'string' ? problemNameOf(type) : undefined, body };
    } catch {
      return { problem: undefined, body: undefined };
    }
  }

  function authFetch(request: Request): Promise<Response> {
    return send(request, true);
  }

  /** `mayStepUp` is false for the one retry after a step-up: a second refusal is returned, not asked again. */
  async function send(request: Request, mayStepUp: boolean): Promise<Response> {
    if (isAuthCall(request.url)) return baseFetch(request);
    // The server ended this session and the console is on its way to the login page: a call the screen being left
    // still makes is dropped like a call of an unmounted screen, not sent to be refused (and not reported).
    if (!tokenStore.access && !tokenStore.refresh && endReasonStore.get()) {
      throw new DOMException('The session was ended by the server', 'AbortError');
    }
    const retryCopy = request.clone();
    const usedToken = tokenStore.access;
    const res = await baseFetch(withToken(request, usedToken));
    if (res.status === 403) {
      const { problem, body } = await refusalOf(res);
      if (problem === PROBLEM.passwordChangeRequired) options.onPasswordChangeRequired?.();
      if (problem === PROBLEM.enrolmentRequired) options.onEnrolmentRequired?.();
      // Confirmed in place: the same call once more, so the action the user started completes.
      if (problem === PROBLEM.stepUpRequired && mayStepUp && options.stepUp) {
        if (await options.stepUp(stepUpMethodsOf(body))) return send(retryCopy, false);
      }
      return res;
    }
    if (res.status !== 401) return res;
    const problem = await problemOfResponse(res);
    // A wrong code at a step-up: the session is fine, and refreshing it would only send the wrong code again.
    if (problem === PROBLEM.secondFactorInvalid) return res;
    if (isSessionEndReason(problem)) {
      ended(problem);
      return res;
    }
    // Another call may already have rotated the token while this one was in flight.
    const current = tokenStore.access;
    const outcome: RefreshOutcome = current && current !== usedToken ? 'refreshed' : await refreshOutcome();
    if (isSessionEndReason(outcome)) return res;
    let refreshed = outcome === 'refreshed';
    // Another call already learnt that the server ended this session: asking for the password would not bring it back.
    if (!refreshed && !tokenStore.refresh && endReasonStore.get()) return res;
    // The session expired: ask the user to sign in again in place, so the call (a save above all) is not lost.
    if (!refreshed && options.reauthenticate) refreshed = await options.reauthenticate();
    if (!refreshed) return res;
    return baseFetch(withToken(retryCopy, tokenStore.access));
  }

  return { authFetch, refresh };
}
