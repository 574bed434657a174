// Rate limits shared through Redis (RATE_LIMIT_REDIS_URL): two replicas hold one credential to one quota between
// them; with Redis out of reach, each replica counts in its own memory and no caller sees a 500.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.js';
import { createLogger } from '../../server/src/http/logging.js';
import { createRateLimitStore, type RateLimitStore } from '../../server/src/http/rate-limit-store.js';
import { aUserWith } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { eventually } from './support/replicas.js';

/** Redis of this machine and of CI. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ME = '/api/user/permission/platform';

/** A replica of the test server's app, on its database, with rate limits in a store of its own. */
async function replicaOf(
  t: TestServer,
  redisUrl = t.config.rateLimits.redisUrl,
): Promise<{ baseUrl: string; rateLimits: RateLimitStore; close(): Promise<void> }> {
  const rateLimits = createRateLimitStore({ ...t.config.rateLimits, redisUrl });
  const server = createServer(
    createApp({
      config: t.config,
      db: { knex: t.knex },
      storage: t.storage,
      logger: createLogger('silent'),
      changes: t.changes,
      rateLimits,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rateLimits,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await rateLimits.close();
    },
  };
}

describe.each(engines())('rate limits shared through Redis on %s', (engine) => {
  const prefix = `test-rate-limit-${randomBytes(6).toString('hex')}`;
  let t: TestServer;
  let one: Awaited<ReturnType<typeof replicaOf>>;
  let other: Awaited<ReturnType<typeof replicaOf>>;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    t = await startTestServer(engine, {
      env: { RATE_LIMIT_REDIS_URL: REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_PER_CREDENTIAL: '6/60s' },
    });
    // Two replicas besides the test server's own, each with its own connection to Redis: counted there once both
    // are connected (until then, each would count in its own memory).
    [one, other] = [await replicaOf(t), await replicaOf(t)];
    const shared = await eventually(
      async () => one.rateLimits.shared && other.rateLimits.shared,
      (both) => both,
      10_000,
    );
    expect(shared, 'both replicas reach Redis').toBe(true);
  });
  afterAll(async () => {
    await one?.close();
    await other?.close();
    await t?.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('when one credential calls both replicas in turn, then they hold it to one quota between them', async () => {
    const a = await aUserWith(t, []);
    const call = (base: string) => fetch(base + ME, { headers: { Authorization: `Bearer ${a.token}` } });
    const seen: Array<{ status: number; quota: string | null }> = [];
    for (let i = 0; i < 8; i++) {
      const res = await call(i % 2 === 0 ? one.baseUrl : other.baseUrl);
      seen.push({ status: res.status, quota: res.headers.get('ratelimit') });
      await res.arrayBuffer();
    }
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // Each answer counts down the one quota, whichever replica gave it.
    expect(seen.slice(0, 6).map((s) => /remaining=(\d+)/.exec(s.quota ?? '')?.[1])).toEqual([
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    // The count lives in Redis, under this deployment's prefix.
    expect(Number(await redis.get(`${prefix}:credential:account:${a.id}`))).toBeGreaterThanOrEqual(7);
    // Another credential has its own quota, on either replica.
    const b = await aUserWith(t, []);
    expect((await fetch(other.baseUrl + ME, { headers: { Authorization: `Bearer ${b.token}` } })).status).toBe(200);
  });

  it('when Redis does not answer, then the replica counts in its own memory: answers carry the fields, and the quota still holds', async () => {
    // Nothing listens on port 1: this replica's store never connects.
    const lost = await replicaOf(t, 'redis://127.0.0.1:1');
    try {
      const a = await aUserWith(t, []);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await fetch(lost.baseUrl + ME, { headers: { Authorization: `Bearer ${a.token}` } });
        statuses.push(res.status);
        expect(res.headers.get('ratelimit')).toMatch(/^limit=6, remaining=\d, reset=\d+$/);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      expect(lost.rateLimits.shared).toBe(false);
    } finally {
      await lost.close();
    }
  });
});
