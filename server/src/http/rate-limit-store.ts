import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from 'pino';

/** `limit` requests per `windowSeconds`, counted in windows that start with a key's first request. */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/** What one request's turn found: whether it passes, what is left of the quota, and the seconds until it is whole. */
export interface RateVerdict {
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

/** One class of limit (per credential, per address, sign-in, …): a quota per key. */
export interface RateLimiter {
  readonly policy: RatePolicy;
  take(key: string): Promise<RateVerdict>;
}

export interface RateLimitStore {
  /** Where the counters live: this process's memory, or a Redis every replica shares. */
  readonly kind: 'memory' | 'redis';
  /** Whether the counts are shared with other replicas right now: Redis answers (never, in memory). */
  readonly shared: boolean;
  /** A limiter for one class; its keys are apart from every other class's. */
  limiter(name: string, policy: RatePolicy): RateLimiter;
  close(): Promise<void>;
}

export interface RateLimitStoreOptions {
  /** RATE_LIMIT_REDIS_URL; null = memory. */
  redisUrl: string | null;
  /** RATE_LIMIT_REDIS_PREFIX: every key in Redis starts with it. */
  redisPrefix: string;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * A Redis command that takes longer than this is given up, and the request is counted in memory instead: a slow
 * Redis must not slow every request down (it answers in well under a millisecond when healthy).
 */
const REDIS_COMMAND_TIMEOUT_MS = 250;

function verdictOf(res: RateLimiterRes, allowed: boolean): RateVerdict {
  return {
    allowed,
    remaining: Math.max(0, res.remainingPoints ?? 0),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/** The address of a Redis without its credentials, for the log. */
function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return 'redis';
  }
}

/**
 * The counters of every rate limit, by rate-limiter-flexible: in memory, or in Redis when RATE_LIMIT_REDIS_URL is set.
 *
 * With Redis, each limiter is insured by one in memory with the same quota: while Redis is unreachable (at start or
 * later), slow or refusing, requests are counted by this replica alone, so the limits still hold per replica and no
 * caller ever gets a 500 for it. The client reconnects by itself; the log says when the limits stop and start being
 * shared. A key refused in Redis is remembered in memory until its window ends, so a flood costs Redis nothing.
 */
export function createRateLimitStore(opts: RateLimitStoreOptions): RateLimitStore {
  const { logger } = opts;
  const fallback = (name: string, policy: RatePolicy) =>
    new RateLimiterMemory({ points: policy.limit, duration: policy.windowSeconds, keyPrefix: name });

  const limiterOf = (policy: RatePolicy, counter: RateLimiterMemory | RateLimiterRedis): RateLimiter => ({
    policy,
    async take(key) {
      try {
        return verdictOf(await counter.consume(key), true);
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return verdictOf(refusal, false);
        // Neither Redis nor the memory insurance counted (not expected): the request passes rather than fails.
        logger?.error({ err: refusal }, 'rate limit not counted');
        return { allowed: true, remaining: policy.limit, resetSeconds: policy.windowSeconds };
      }
    },
  });

  if (opts.redisUrl === null) {
    return {
      kind: 'memory',
      shared: false,
      limiter: (name, policy) => limiterOf(policy, fallback(name, policy)),
      close: () => Promise.resolve(),
    };
  }

  const where = redactedUrl(opts.redisUrl);
  const client = new Redis(opts.redisUrl, {
    // A command while disconnected fails at once (and is counted in memory), instead of waiting in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Reconnect for ever, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    // The counts of requests that arrive together go to Redis in one write: less CPU per request under load.
    enableAutoPipelining: true,
  });
  let state: 'starting' | 'up' | 'down' = 'starting';
  client.on('ready', () => {
    if (state !== 'up') logger?.info({ redis: where }, 'rate limits are shared through Redis');
    state = 'up';
  });
  const lost = (err?: Error) => {
    if (state !== 'down')
      logger?.warn(
        { redis: where, err: err?.message },
        "Redis does not answer: rate limits are counted in this replica's memory until it does",
      );
    state = 'down';
  };
  client.on('error', lost);
  client.on('close', () => state === 'up' && lost());

  return {
    kind: 'redis',
    get shared() {
      return state === 'up';
    },
    limiter(name, policy) {
      const counter = new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${opts.redisPrefix}:${name}`,
        points: policy.limit,
        duration: policy.windowSeconds,
        rejectIfRedisNotReady: true,
        inMemoryBlockOnConsumed: policy.limit + 1,
        insuranceLimiter: fallback(name, policy),
      });
      return limiterOf(policy, counter);
    },
    async close() {
      client.removeAllListeners('close');
      await client.quit().catch(() => client.disconnect());
    },
  };
}
