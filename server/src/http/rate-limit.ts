import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { TooManyRequestsError, waitPhrase } from '../core/errors.js';
import type { AuthContext } from '../core/permissions.js';
import type { RateLimitStore, RatePolicy, RateVerdict } from './rate-limit-store.js';

export type { RatePolicy } from './rate-limit-store.js';

export interface SignInRateLimits {
  /** Sign-in requests per client address (or per device, for a browser with a device cookie). */
  perClient: RatePolicy;
  /** Token refresh and sign-out per client address: a bucket of their own, so a sign-in flood never signs anyone out. */
  refresh: RatePolicy;
}

/**
 * The key of a client address: IPv4 as is, IPv6 by its /64 (one subscriber usually holds a whole /64, so counting
 * single addresses there would count nothing).
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const bare = ip.replace(/%.*$/, '');
  if (!bare.includes(':')) return bare;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare)) return bare.slice(7);
  const [head = '', tail] = bare.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? h : [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

function refusal(detail: string, policy: RatePolicy, verdict: RateVerdict): TooManyRequestsError {
  const seconds = verdict.resetSeconds;
  return new TooManyRequestsError(`${detail}; try again in ${waitPhrase(seconds)}.`, seconds, {
    limit: policy.limit,
    windowSeconds: policy.windowSeconds,
  });
}

/** The IETF RateLimit fields of the quota this request was counted on (a refusal's come from its error instead). */
function describeQuota(res: Response, policy: RatePolicy, verdict: RateVerdict): void {
  res.setHeader('RateLimit', `limit=${policy.limit}, remaining=${verdict.remaining}, reset=${verdict.resetSeconds}`);
  res.setHeader('RateLimit-Policy', `${policy.limit};w=${policy.windowSeconds}`);
}

/** Requests already counted on some quota: each request is counted once, on one quota. */
const counted = new WeakSet<Request>();

/**
 * Whose quota an authenticated request spends: its principal, as the auth middleware set it. A person's account
 * counts all its sessions together; an API token counts apart under its own id, so one runaway integration spends
 * only its own quota, never its account's other tokens'.
 */
export function principalOf(auth: AuthContext): string {
  return auth.tokenId ? `token:${auth.tokenId}` : `account:${auth.userId}`;
}

/** How long a refused sign-in waits for its 429, and how many may wait at once (beyond, they are answered at once). */
const HOLD_MS = 1_000;
const MAX_HELD = 2_000;

/** Token refresh and sign-out: their own quota, never the sign-in one. */
const REFRESH_PATH = /^\/(refresh-token|logout)\/?$/;

/**
 * Refuses traffic on /api/auth beyond a client's own rate with 429, before the body is parsed, a password hashed or
 * the database asked. Every quota is one client's: there is none shared by every client, so no flood, from however
 * many addresses, takes a turn from anyone else (the password-hash gate bounds the CPU a flood can take, and gives
 * sign-ins from clean clients the first turn). These requests count on these quotas only, never on the address's.
 *
 * - Sign-in: per address; a browser with a valid device cookie counts on its own quota instead (its address may be
 *   the attacker's too: a shared office or carrier address).
 * - Refresh and sign-out: per address, on quotas of their own.
 *
 * A refused request gets its answer after a second (never later than it may retry): a flood that waits for each
 * answer before sending the next, as scripts do, so slows itself down and costs the server almost nothing, while a
 * person who honours Retry-After loses no time.
 */
export function signInRateLimit(
  store: RateLimitStore,
  limits: SignInRateLimits,
  opts: { holdMs?: number; deviceOf?: (req: Request) => { id: string } | null } = {},
): RequestHandler {
  const signIns = store.limiter('sign-in', limits.perClient);
  const refreshes = store.limiter('refresh', limits.refresh);
  const holdMs = opts.holdMs ?? HOLD_MS;
  let held = 0;
  const refuse = (next: (err: unknown) => void, err: TooManyRequestsError) => {
    const ms = Math.min(holdMs, err.retryAfterSeconds * 1000);
    if (ms <= 0 || held >= MAX_HELD) return next(err);
    held++;
    setTimeout(() => {
      held--;
      next(err);
    }, ms).unref();
  };
  return (req, res, next) => {
    const refresh = REFRESH_PATH.test(req.path);
    const device = refresh ? null : (opts.deviceOf?.(req) ?? null);
    const limiter = refresh ? refreshes : signIns;
    counted.add(req);
    void limiter.take(device ? `device:${device.id}` : clientKey(req.ip)).then((verdict) => {
      describeQuota(res, limiter.policy, verdict);
      if (verdict.allowed) return next();
      const detail = refresh
        ? 'Too many token refreshes from this address'
        : device
          ? 'Too many sign-in requests from this device'
          : 'Too many sign-in requests from this address';
      refuse(next, refusal(detail, limiter.policy, verdict));
    });
  };
}

export interface CallerRateLimits {
  /** Requests per authenticated principal (RATE_LIMIT_PER_CREDENTIAL). */
  perCredential: RatePolicy;
  /** Requests per client address without a credential (RATE_LIMIT_PER_ADDRESS). */
  perAddress: RatePolicy;
}

/**
 * The quota of every other request to an operation: its principal's once authenticated, else its client address's
 * (as TRUST_PROXY resolves it; IPv6 by its /64). Every answer says what is left (`RateLimit`, `RateLimit-Policy`);
 * beyond the quota, 429 with `Retry-After`.
 *
 * `perCaller` counts a request that reached it; `refused` counts one refused before its turn (a credential that does
 * not authenticate, a body that does not parse, a missing permission), so that each of those is counted too and its
 * answer carries the same fields, or becomes a 429 once the quota is spent.
 */
export function callerRateLimits(
  store: RateLimitStore,
  limits: CallerRateLimits,
): { perCaller: RequestHandler; refused: ErrorRequestHandler } {
  const credentials = store.limiter('credential', limits.perCredential);
  const addresses = store.limiter('address', limits.perAddress);
  async function count(req: Request, res: Response): Promise<TooManyRequestsError | null> {
    counted.add(req);
    const limiter = req.auth ? credentials : addresses;
    const verdict = await limiter.take(req.auth ? principalOf(req.auth) : clientKey(req.ip));
    describeQuota(res, limiter.policy, verdict);
    if (verdict.allowed) return null;
    const { limit, windowSeconds } = limiter.policy;
    const whose = !req.auth ? 'address' : req.auth.tokenId ? 'API token' : 'account';
    return refusal(
      `Too many requests from this ${whose} (at most ${limit} in ${windowSeconds} s)`,
      limiter.policy,
      verdict,
    );
  }
  return {
    perCaller(req, res, next) {
      if (counted.has(req)) return next();
      count(req, res).then((refused) => next(refused ?? undefined), next);
    },
    refused(err: unknown, req, res, next) {
      if (counted.has(req) || res.headersSent) return next(err);
      count(req, res).then(
        (refused) => next(refused ?? err),
        () => next(err),
      );
    },
  };
}
