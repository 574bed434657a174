// Rate limits on every operation: a quota per credential once authenticated, per client address otherwise (sign-in
// keeps its own), the IETF RateLimit fields on every answer, and 429 problem+json with Retry-After beyond the quota.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitPhrase } from '../../server/src/core/errors.js';
import { operationsOf } from '../../server/src/http/operations.js';
import { createRateLimitStore } from '../../server/src/http/rate-limit-store.js';
import { loadApiSpec } from '../../server/src/http/spec.js';
import { aUser, aUserWith, FACTORY_PASSWORD } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const RATE_LIMIT = /^limit=(\d+), remaining=(\d+), reset=(\d+)$/;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

interface Problem {
  status: number;
  detail: string;
  retry_after?: number;
}

/** The RateLimit fields of an answer, read as numbers. */
function quotaOf(res: Response): { limit: number; remaining: number; reset: number; policy: string | null } {
  const m = RATE_LIMIT.exec(res.headers.get('ratelimit') ?? '');
  expect(m, `RateLimit on ${res.status} ${res.url}: ${res.headers.get('ratelimit')}`).not.toBeNull();
  return {
    limit: Number(m![1]),
    remaining: Number(m![2]),
    reset: Number(m![3]),
    policy: res.headers.get('ratelimit-policy'),
  };
}

/** A request to each operation of the contract: path parameters filled in with an id that names nothing, no body. */
const everyOperation = operationsOf(loadApiSpec()).map((op) => ({
  ...op,
  url: op.path.replace(/\{[^}]+\}/g, NO_SUCH_ID),
  public: op.access.kind === 'public',
}));

describe('rate limit counters', () => {
  it('when a window ends, then its quota is whole again; within it, each refusal says when', async () => {
    const store = createRateLimitStore({ redisUrl: null, redisPrefix: 'test' });
    const quota = store.limiter('unit', { limit: 2, windowSeconds: 1 });
    expect(await quota.take('a')).toEqual({ allowed: true, remaining: 1, resetSeconds: 1 });
    expect(await quota.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    expect(await quota.take('a')).toEqual({ allowed: false, remaining: 0, resetSeconds: 1 });
    // Another key, and the same key in another class, count apart.
    expect(await quota.take('b')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await store.limiter('other', { limit: 2, windowSeconds: 1 }).take('a')).toMatchObject({ allowed: true });
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await quota.take('a')).toEqual({ allowed: true, remaining: 1, resetSeconds: 1 });
    await store.close();
  });
});

describe.each(engines())('rate limits on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, {
      env: { TRUST_PROXY: 'loopback', RATE_LIMIT_PER_CREDENTIAL: '3/60s', RATE_LIMIT_PER_ADDRESS: '3/60s' },
    });
  });
  afterAll(() => t?.close());

  const from = (ip: string, init: Parameters<TestServer['fetch']>[1] = {}) => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip },
  });

  it('when a credential sends more than its quota, then it gets 429 problem+json with Retry-After, and other credentials do not', async () => {
    const [a, b] = [await aUserWith(t, []), await aUserWith(t, [])];
    const me = '/api/user/permission/platform';
    for (const remaining of [2, 1, 0]) {
      const res = await t.fetch(me, { token: a.token });
      expect(res.status).toBe(200);
      expect(quotaOf(res)).toMatchObject({ limit: 3, remaining, policy: '3;w=60' });
      expect(quotaOf(res).reset).toBeLessThanOrEqual(60);
    }
    const refused = await t.fetch(me, { token: a.token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(55);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`limit=3, remaining=0, reset=${retry}`);
    expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60');
    const problem = (await refused.json()) as Problem;
    expect(problem).toMatchObject({ status: 429, retry_after: retry });
    expect(problem.detail).toBe(
      `Too many requests from this account (at most 3 in 60 s); try again in ${waitPhrase(retry)}.`,
    );
    // The quota is the account's: another of its sessions shares it; another account has its own.
    expect((await t.fetch(me, { token: await t.tokenFor(a.id) })).status).toBe(429);
    const other = await t.fetch(me, { token: b.token });
    expect(other.status).toBe(200);
    expect(quotaOf(other).remaining).toBe(2);
  });

  it('when a credential is refused for a missing permission, then the refusal counts on its quota too', async () => {
    const c = await aUserWith(t, []);
    const forbidden = await t.fetch('/api-system/clusters', { token: c.token });
    expect(forbidden.status).toBe(403);
    expect(quotaOf(forbidden)).toMatchObject({ limit: 3, remaining: 2 });
    await t.fetch('/api-system/clusters', { token: c.token });
    await t.fetch('/api-system/clusters', { token: c.token });
    expect((await t.fetch('/api-system/clusters', { token: c.token })).status).toBe(429);
  });

  it('when anonymous calls from one address exceed its quota, then that address gets 429 while another still passes', async () => {
    const ip = '192.0.2.30';
    for (const remaining of [2, 1, 0]) {
      const res = await t.fetch('/healthz', from(ip));
      expect(res.status).toBe(200);
      expect(quotaOf(res)).toMatchObject({ limit: 3, remaining, policy: '3;w=60' });
    }
    const refused = await t.fetch('/healthz', from(ip));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    expect(((await refused.json()) as Problem).detail).toMatch(
      /^Too many requests from this address \(at most 3 in 60 s\); try again in \d+ seconds\.$/,
    );
    // An IPv6 client is counted by its /64: another address of the same /64 is the same client.
    for (let i = 0; i < 3; i++) await t.fetch('/healthz', from(`2001:db8:7:7::${i + 1}`));
    expect((await t.fetch('/healthz', from('2001:db8:7:7::99'))).status).toBe(429);
    expect((await t.fetch('/healthz', from('192.0.2.31'))).status).toBe(200);
  });

  it('when a credential does not authenticate, then it counts on its address, and past the quota the answer is 429', async () => {
    const ip = '192.0.2.40';
    const bad = { token: 'not-a-valid-access-token' };
    const first = await t.fetch('/api-system/clusters', from(ip, bad));
    expect(first.status).toBe(401);
    expect(quotaOf(first)).toMatchObject({ limit: 3, remaining: 2 });
    await t.fetch('/api-system/clusters', from(ip, bad));
    await t.fetch('/api-system/clusters', from(ip));
    expect((await t.fetch('/api-system/clusters', from(ip, bad))).status).toBe(429);
  });

  it('when a client signs in, then sign-in counts on its own quota, not on the address quota of other calls', async () => {
    const ip = '192.0.2.50';
    const u = await aUser(t);
    for (let i = 0; i < 4; i++) {
      const res = await t.fetch(
        '/api/auth/login',
        from(ip, {
          method: 'POST',
          json: { username: u.username, password: i < 3 ? 'wrong-password' : FACTORY_PASSWORD },
        }),
      );
      // The sign-in quota (the harness's, far above these few) is the one the answer describes.
      expect(quotaOf(res).limit).toBe(t.config.signIn.perClient.limit);
    }
    expect(quotaOf(await t.fetch('/healthz', from(ip)))).toMatchObject({ limit: 3, remaining: 2 });
  });

  it('when any operation is called, then its answer carries the RateLimit fields, whatever its status', async () => {
    // From a fresh address each time, so that no quota runs out during the sweep: the public operations answer, the
    // others refuse the missing credential (test/contract checks every documented answer of each, success included).
    let n = 0;
    for (const op of everyOperation) {
      const res = await t.fetch(op.url, {
        ...from(`198.18.${n >> 8}.${n++ & 255}`),
        method: op.method,
        redirect: 'manual',
      });
      const quota = quotaOf(res);
      expect(quota.remaining, `${op.id} ${res.status}`).toBeLessThan(quota.limit);
      expect(res.headers.get('ratelimit-policy'), op.id).toMatch(/^\d+;w=\d+$/);
      await res.arrayBuffer();
    }
  });

  it('when a credential has spent its quota, then every operation answers it 429, and every anonymous one a spent address', async () => {
    const spent = await aUserWith(t, []);
    for (let i = 0; i < 3; i++) await t.fetch('/api/user/permission/platform', { token: spent.token });
    const ip = '198.19.0.1';
    for (let i = 0; i < 3; i++) await t.fetch('/healthz', from(ip));
    for (const op of everyOperation) {
      // Sign-in, token refresh and sign-out (/api/auth) count on quotas of their own (sign-in-protection.test.ts).
      if (op.path.startsWith('/api/auth/')) continue;
      const res = await t.fetch(op.url, {
        ...(op.public ? from(ip) : { token: spent.token }),
        method: op.method,
        redirect: 'manual',
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(quotaOf(res).remaining).toBe(0);
      await res.arrayBuffer();
    }
  });

  it('when an API path is unknown, then the request is counted once, and its 404 carries the fields', async () => {
    const d = await aUserWith(t, []);
    const res = await t.fetch(`/api-system/no-such-resource/${randomUUID()}`, { token: d.token });
    expect(res.status).toBe(404);
    expect(quotaOf(res)).toMatchObject({ remaining: 2 });
    expect(quotaOf(await t.fetch('/api/user/permission/platform', { token: d.token }))).toMatchObject({ remaining: 1 });
  });
});
