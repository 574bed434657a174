import type { Request, RequestHandler } from 'express';
import { TooManyRequestsError, waitPhrase } from '../core/errors.js';

/** `limit` requests per `windowSeconds`: a bucket of `limit` tokens refilled evenly over the window. */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

export interface SignInRateLimits {
  /** Sign-in requests per client address (or per device, for a browser with a device cookie). */
  perClient: RatePolicy;
  /** Token refresh and sign-out per client address: a bucket of their own, so a sign-in flood never signs anyone out. */
  refresh: RatePolicy;
}

/** Many keys at once (a flood from many addresses) must not grow the memory without bound. */
const MAX_TRACKED_CLIENTS = 50_000;

/** A token bucket per key. `take` answers 0 when a request may pass, else the seconds until one may. */
export function tokenBuckets(policy: RatePolicy, maxKeys = MAX_TRACKED_CLIENTS) {
  const perSecond = policy.limit / policy.windowSeconds;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const level = (b: { tokens: number; at: number }, now: number) =>
    Math.min(policy.limit, b.tokens + ((now - b.at) / 1000) * perSecond);

  function forgetFull(now: number): void {
    // A full bucket says nothing a new one would not; when that frees nothing, the longest-known client goes.
    for (const [k, b] of buckets) if (level(b, now) >= policy.limit) buckets.delete(k);
    while (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!);
  }

  return {
    take(key: string, now = Date.now()): number {
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= maxKeys) forgetFull(now);
        buckets.set(key, (b = { tokens: policy.limit, at: now }));
      }
      b.tokens = level(b, now);
      b.at = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return (1 - b.tokens) / perSecond;
    },
    get size() {
      return buckets.size;
    },
  };
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

function refusal(detail: string, policy: RatePolicy, waitSeconds: number): TooManyRequestsError {
  const seconds = Math.max(1, Math.ceil(waitSeconds));
  return new TooManyRequestsError(`${detail}; try again in ${waitPhrase(seconds)}.`, seconds, {
    limit: policy.limit,
    windowSeconds: policy.windowSeconds,
  });
}

/** How long a refused request waits for its 429, and how many may wait at once (beyond, they are answered at once). */
const HOLD_MS = 1_000;
const MAX_HELD = 2_000;

/** Token refresh and sign-out: their own bucket, never the sign-in one. */
const REFRESH_PATH = /^\/(refresh-token|logout)\/?$/;

/**
 * Refuses traffic on /api/auth beyond a client's own rate with 429, before the body is parsed, a password hashed or
 * the database asked. In memory: each replica protects its own CPU. Every bucket is one client's: there is no shared
 * bucket, so no flood, from however many addresses, takes a turn from anyone else (the password-hash gate bounds the
 * CPU a flood can take, and gives sign-ins from clean clients the first turn).
 *
 * - Sign-in: per address; a browser with a valid device cookie counts on its own bucket instead (its address may be
 *   the attacker's too: a shared office or carrier address).
 * - Refresh and sign-out: per address, on buckets of their own.
 *
 * A refused request gets its answer after a second (never later than it may retry): a flood that waits for each
 * answer before sending the next, as scripts do, so slows itself down and costs the server almost nothing, while a
 * person who honours Retry-After loses no time.
 */
export function signInRateLimit(
  limits: SignInRateLimits,
  opts: { holdMs?: number; deviceOf?: (req: Request) => { id: string } | null } = {},
): RequestHandler {
  const signIns = tokenBuckets(limits.perClient);
  const refreshes = tokenBuckets(limits.refresh);
  const holdMs = opts.holdMs ?? HOLD_MS;
  let held = 0;
  const refuse = (next: (err: unknown) => void, err: TooManyRequestsError, waitSeconds: number) => {
    const ms = Math.min(holdMs, waitSeconds * 1000);
    if (ms <= 0 || held >= MAX_HELD) return next(err);
    held++;
    setTimeout(() => {
      held--;
      next(err);
    }, ms).unref();
  };
  return (req, _res, next) => {
    if (REFRESH_PATH.test(req.path)) {
      const wait = refreshes.take(clientKey(req.ip));
      if (wait > 0)
        return refuse(next, refusal('Too many token refreshes from this address', limits.refresh, wait), wait);
      return next();
    }
    const device = opts.deviceOf?.(req) ?? null;
    const wait = signIns.take(device ? `device:${device.id}` : clientKey(req.ip));
    if (wait > 0)
      return refuse(
        next,
        refusal(
          device ? 'Too many sign-in requests from this device' : 'Too many sign-in requests from this address',
          limits.perClient,
          wait,
        ),
        wait,
      );
    next();
  };
}
