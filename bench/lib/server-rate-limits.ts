// Child-process entry like server-process.ts, for bench/rate-limit-cost.ts: with BENCH_RATE_LIMITS=uncounted, the
// service answers with the same RateLimit fields but counts nothing (the baseline); otherwise as configured.
import { start } from '../../server/src/main.js';
import type { RateLimitStore } from '../../server/src/http/rate-limit-store.js';

/** A store whose every quota is whole: the pipeline as it is, less the counting. */
const uncounted: RateLimitStore = {
  kind: 'memory',
  shared: false,
  limiter: (_name, policy) => ({
    policy,
    take: () => Promise.resolve({ allowed: true, remaining: policy.limit - 1, resetSeconds: policy.windowSeconds }),
  }),
  close: () => Promise.resolve(),
};

const running = await start(
  process.env,
  process.env.BENCH_RATE_LIMITS === 'uncounted' ? { rateLimits: uncounted } : {},
);
process.stdout.write(`READY ${running.url}\n`);
const shutdown = () =>
  void running.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
