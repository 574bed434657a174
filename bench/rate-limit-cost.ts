// `npx tsx bench/rate-limit-cost.ts [--scale 1] [--only clusters-page-1] [--rounds 8] [--seconds 5] [--connections 32]
//   [--redis-url redis://127.0.0.1:6379] [--store memory,redis]`
//
// What checking the rate limit costs: the same service on the same generated database, once counting nothing (the
// baseline: the same pipeline and RateLimit fields, a store whose every quota is whole) and once counting each
// request, in memory and then in Redis, each pair alternating round by round in one run (runScenario), so the shared
// machine's drift falls on both alike. Reports the median throughput of each and their ratio, counted ÷ uncounted.
//
// `--per-request` measures instead, in this process alone, the CPU one request's check costs (the middleware, the
// count and the two headers), in memory and in Redis, which the machine's load disturbs less.
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Request, RequestHandler, Response } from 'express';
import { callerRateLimits } from '../server/src/http/rate-limit.js';
import { createRateLimitStore, type RateLimitStore } from '../server/src/http/rate-limit-store.js';
import { parseArgs } from './lib/cli.js';
import { LIMITS_OUT_OF_REACH, prepareCostRun } from './lib/cost-run.js';
import { openDatabase } from './lib/db.js';
import { runScenario, type Target } from './lib/harness.js';
import { spawnReady, type Child } from './lib/processes.js';
import { buildScenarios, loadScenarioData, signInAll } from './lib/scenarios.js';

const log = (line: string) => process.stdout.write(`${line}\n`);
const args = parseArgs(process.argv.slice(2));
const redisUrl = args.get('redis-url') ?? 'redis://127.0.0.1:6379';
/** Far above what a round sends: the check runs in full on every request, and never refuses one. */
const NEVER_REACHED = '999999999/60s';

/** Median CPU and wall microseconds of `n` awaited calls of `work`, over 5 runs. */
async function micros(n: number, work: (i: number) => Promise<void>): Promise<{ cpu: number; wall: number }> {
  const runs: Array<{ cpu: number; wall: number }> = [];
  for (let r = 0; r < 5; r++) {
    const before = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await work(i);
    const used = process.cpuUsage(before);
    runs.push({ cpu: (used.user + used.system) / n, wall: Number(process.hrtime.bigint() - started) / 1000 / n });
  }
  const median = (k: 'cpu' | 'wall') => runs.map((x) => x[k]).sort((a, b) => a - b)[2]!;
  return { cpu: median('cpu'), wall: median('wall') };
}

async function perRequestCost(): Promise<void> {
  const policy = { limit: 999_999_999, windowSeconds: 60 };
  const checker = (store: RateLimitStore) => {
    const { perCaller } = callerRateLimits(store, { perCredential: policy, perAddress: policy });
    return (i: number) => check(perCaller, i);
  };
  const check = async (perCaller: RequestHandler, i: number) => {
    const res = Object.assign(new EventEmitter(), { setHeader: () => undefined, headersSent: false });
    const req = { auth: { userId: `bench-${i % 32}` }, ip: '127.0.0.1' };
    await new Promise<void>((resolve) =>
      perCaller(req as unknown as Request, res as unknown as Response, () => resolve()),
    );
  };
  const loop = await micros(20_000, () => Promise.resolve());
  const memory = createRateLimitStore({ redisUrl: null, redisPrefix: 'bench' });
  const inMemoryCheck = checker(memory);
  await micros(2_000, inMemoryCheck);
  const inMemory = await micros(20_000, inMemoryCheck);
  await memory.close();
  const redis = createRateLimitStore({ redisUrl, redisPrefix: `bench-${randomBytes(4).toString('hex')}` });
  await new Promise((r) => setTimeout(r, 500));
  const inRedisCheck = checker(redis);
  await micros(500, inRedisCheck);
  const inRedis = await micros(5_000, inRedisCheck);
  await redis.close();
  log(`loop alone: ${loop.cpu.toFixed(2)} µs CPU per call`);
  log(
    `memory: ${inMemory.cpu.toFixed(2)} µs CPU, ${inMemory.wall.toFixed(2)} µs wall per check (median of 5 × 20,000)`,
  );
  log(`redis:  ${inRedis.cpu.toFixed(2)} µs CPU, ${inRedis.wall.toFixed(2)} µs wall per check (median of 5 × 5,000)`);
}

if (args.has('per-request')) {
  await perRequestCost();
  process.exit(0);
}
const stores = (args.get('store') ?? 'memory,redis').split(',');
const { url, only, settings } = await prepareCostRun(args, log);

const env = {
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: url,
  JWT_SECRET: randomBytes(36).toString('base64url'),
  ADMIN_PASSWORD: 'admin123',
  DEMO_PASSWORD: 'demo1234',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DATA_DIR: path.join(os.tmpdir(), 'bench-rate-limit-cost'),
  ...LIMITS_OUT_OF_REACH,
  RATE_LIMIT_PER_CREDENTIAL: NEVER_REACHED,
  RATE_LIMIT_PER_ADDRESS: NEVER_REACHED,
};
const children: Child[] = [];
try {
  const uncounted = await spawnReady('bench/lib/server-rate-limits.ts', { ...env, BENCH_RATE_LIMITS: 'uncounted' });
  children.push(uncounted);
  const db = await openDatabase({ url });
  const data = await loadScenarioData(db.knex).finally(() => db.close());
  const tokens = await signInAll(uncounted.url);
  const loadAverage = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  for (const store of stores) {
    const counted = await spawnReady('bench/lib/server-rate-limits.ts', {
      ...env,
      ...(store === 'redis'
        ? { RATE_LIMIT_REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: `bench-${randomBytes(4).toString('hex')}` }
        : {}),
    });
    children.push(counted);
    // The harness's two names: "baseline" counts nothing, "server" counts in this store.
    const targets: Target[] = [
      { name: 'baseline', url: uncounted.url, tokens, pid: uncounted.process.pid },
      { name: 'server', url: counted.url, tokens, pid: counted.process.pid },
    ];
    log(`Store ${store}; load average at start: ${loadAverage()}`);
    for (const scenario of buildScenarios(data).filter((s) => only.includes(s.id))) {
      log(`  ${scenario.title}`);
      const r = await runScenario(scenario, targets, settings);
      const off = r.baseline!;
      const on = r.server;
      log(
        `${scenario.id} (${store}): uncounted ${off.rps.toFixed(0)} rps (p99 ${off.p99} ms, cpu ${off.cpuMsPerRequest?.toFixed(2)} ms/req), ` +
          `counted ${on.rps.toFixed(0)} rps (p99 ${on.p99} ms, cpu ${on.cpuMsPerRequest?.toFixed(2)} ms/req); ` +
          `throughput ratio ${(on.rps / off.rps).toFixed(3)}, cpu ratio ${((on.cpuMsPerRequest ?? NaN) / (off.cpuMsPerRequest ?? NaN)).toFixed(3)}; ` +
          `errors ${off.errors + on.errors}, non-2xx ${off.non2xx + on.non2xx}`,
      );
    }
    log(`Load average at end: ${loadAverage()}`);
    await counted.stop();
    children.pop();
  }
} finally {
  await Promise.all(children.map((c) => c.stop()));
}
