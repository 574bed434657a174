// Sign-in protection: failures delay the failing client (never the account for everyone), quotas per address
// (or per device) refuse floods before any password is hashed, with no bucket shared by every client, a device cookie
// lets the owner in whatever the address suffers, refresh has its own bucket, a cap bounds concurrent hashes and gives
// clean sign-ins the first turn, and what sign-in leaves behind is purged.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHashConcurrency, loadConfig } from '../../server/src/config.js';
import { startupWarnings } from '../../server/src/main.js';
import { TooManyRequestsError, waitPhrase } from '../../server/src/core/errors.js';
import { clientKey } from '../../server/src/http/rate-limit.js';
import { purgeAuthRecords } from '../../server/src/modules/auth/purge.js';
import { hashGate } from '../../server/src/modules/auth/throttle.js';
import { aUser, FACTORY_PASSWORD } from '../support/factory.js';
import type { AuditEventRecord, LoginAttemptRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const RATE_LIMIT = /^limit=\d+, remaining=\d+, reset=\d+$/;
const RATE_LIMIT_POLICY = /^\d+;w=\d+$/;

interface Problem {
  type: string;
  status: number;
  detail: string;
  retry_after?: number;
}

/** A sign-in from the client address `ip` (the test servers trust the loopback proxy's X-Forwarded-For). */
function signInFrom(t: TestServer, ip: string, body: unknown) {
  return t.fetch('/api/auth/login', { method: 'POST', json: body, headers: { 'x-forwarded-for': ip } });
}

describe('sign-in protection helpers', () => {
  it('when a wait is phrased, then it is rounded up and pluralised correctly', () => {
    expect(waitPhrase(0.2)).toBe('1 second');
    expect(waitPhrase(1)).toBe('1 second');
    expect(waitPhrase(30)).toBe('30 seconds');
    expect(waitPhrase(90)).toBe('90 seconds');
    expect(waitPhrase(120)).toBe('2 minutes');
    expect(waitPhrase(121)).toBe('3 minutes');
    expect(waitPhrase(900)).toBe('15 minutes');
  });

  it('when client addresses are keyed, then IPv4 stays whole and IPv6 is grouped by /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:1:2:3:4')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('when more hashes are asked for than may run, then the excess waits in the queue, and beyond it gets 429 at once', async () => {
    const gate = hashGate({ concurrency: 1, queueLimit: 1 });
    let release!: () => void;
    const first = gate.run(() => new Promise<string>((r) => (release = () => r('first'))));
    const second = gate.run(async () => 'second');
    expect(gate.running).toBe(1);
    expect(gate.waiting).toBe(1);
    const third = gate.run(async () => 'third');
    // Refused as too many requests (the web layer answers 429 with Retry-After and the RateLimit fields of the quota).
    await expect(third).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(third).rejects.toMatchObject({ retryAfterSeconds: 1, quota: { limit: 2, windowSeconds: 1 } });
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(gate.running).toBe(0);
  });

  it('when a flood of other hashes fills the single slot and its queue, then a sign-in still runs at once on a slot of its own', async () => {
    const gate = hashGate({ concurrency: 1, queueLimit: 2 });
    let release!: () => void;
    const first = gate.run(() => new Promise<void>((r) => (release = r)), 'other');
    const others = [gate.run(async () => 'other-1', 'other'), gate.run(async () => 'other-2', 'other')];
    // The other lane's queue is full: one more of them is refused at once ...
    await expect(gate.run(async () => undefined, 'other')).rejects.toBeInstanceOf(TooManyRequestsError);
    // ... while a sign-in runs without waiting for them.
    expect(await gate.run(async () => 'signed in', 'sign-in')).toBe('signed in');
    expect(gate.waiting).toBe(2);
    release();
    expect(await Promise.all(others)).toEqual(['other-1', 'other-2']);
    await first;
    expect(gate.running).toBe(0);
  });

  it("when strangers' first sign-ins fill their queue, then a known device's sign-in is neither refused nor queued behind them", async () => {
    const gate = hashGate({ concurrency: 1, queueLimit: 2 });
    const releases: Array<() => void> = [];
    const hold = () => new Promise<void>((r) => releases.push(r));
    // Clean sign-ins from a thousand new addresses: the slot, its queue, and one refused.
    const strangers = [gate.run(hold, 'sign-in'), gate.run(hold, 'sign-in'), gate.run(hold, 'sign-in')];
    await expect(gate.run(async () => undefined, 'sign-in')).rejects.toBeInstanceOf(TooManyRequestsError);
    // The owner's browser, with its device cookie, takes the slot the others may not hold ...
    expect(await gate.run(async () => 'owner', 'device')).toBe('owner');
    // ... and, with every slot taken, waits first in line.
    const other = gate.run(hold, 'other');
    const owner = gate.run(async () => 'owner again', 'device');
    expect(gate.waiting).toBe(3);
    releases.shift()!();
    expect(await owner).toBe('owner again');
    while (releases.length > 0 || gate.running > 0) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([...strangers, other]);
    expect(gate.running).toBe(0);
  });

  it('when sign-ins and others wait for the same slots, then the sign-ins go first, and the others never hold the last slot', async () => {
    const gate = hashGate({ concurrency: 2, queueLimit: 10 });
    const order: string[] = [];
    const releases: Array<() => void> = [];
    const hold = (name: string) => () => new Promise<void>((r) => releases.push(() => (order.push(name), r())));
    // The others may hold one of the two slots; the second waits although a slot is free.
    const a = gate.run(hold('other-a'), 'other');
    const b = gate.run(hold('other-b'), 'other');
    expect([gate.running, gate.waiting]).toEqual([1, 1]);
    // Sign-ins take the free slot, then queue ahead of the waiting other.
    const s1 = gate.run(hold('sign-in-1'), 'sign-in');
    const s2 = gate.run(hold('sign-in-2'), 'sign-in');
    expect([gate.running, gate.waiting]).toEqual([2, 2]);
    releases.shift()!(); // other-a ends: its slot goes to sign-in-2, not to other-b
    await a;
    expect([gate.running, gate.waiting]).toEqual([2, 1]);
    while (releases.length > 0 || gate.running > 0) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([b, s1, s2]);
    expect(order).toEqual(['other-a', 'sign-in-1', 'sign-in-2', 'other-b']);
  });

  it('when the sign-in limits are misconfigured, then the configuration says which and how to write them', () => {
    expect(() =>
      loadConfig({
        DATA_DIR: '/tmp/x',
        AUTH_RATE_PER_IP: 'lots',
        AUTH_RATE_REFRESH: '0/5s',
        AUTH_HASH_CONCURRENCY: '0',
      }),
    ).toThrow(
      /AUTH_RATE_PER_IP must be requests per window in seconds, like 20\/20s[\s\S]*AUTH_RATE_REFRESH must be[\s\S]*AUTH_HASH_CONCURRENCY must be an integer from 1 to 64/,
    );
    expect(
      loadConfig({
        DATA_DIR: '/tmp/x',
        JWT_SECRET: 'x'.repeat(32),
        AUTH_RATE_PER_IP: '5/60s',
        AUTH_RATE_REFRESH: '50/10',
      }).signIn,
    ).toMatchObject({
      perClient: { limit: 5, windowSeconds: 60 },
      refresh: { limit: 50, windowSeconds: 10 },
    });
    expect(loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32) }).signIn).toEqual({
      perClient: { limit: 20, windowSeconds: 20 },
      refresh: { limit: 60, windowSeconds: 60 },
      hashConcurrency: defaultHashConcurrency(),
      hashQueue: 32,
    });
  });

  it('when TRUST_PROXY=true in production, then the start is refused with one line saying what to write instead', () => {
    const production = {
      NODE_ENV: 'production',
      DATA_DIR: '/tmp/x',
      JWT_SECRET: 'x'.repeat(32),
      ADMIN_PASSWORD: 'a-real-password',
      SEED_DEMO: 'false',
    };
    let message = '';
    try {
      loadConfig({ ...production, TRUST_PROXY: 'true' });
    } catch (err) {
      message = (err as Error).message;
    }
    const line = message.split('\n').find((l) => l.includes('TRUST_PROXY'));
    expect(line).toMatch(
      /TRUST_PROXY=true trusts every X-Forwarded-For hop, so any client can choose its own address.*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.0\/8/,
    );
    // A hop count or the proxies' addresses are what production takes.
    expect(loadConfig({ ...production, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
    ]);
  });

  it('when TRUST_PROXY=true in development, then it stays but the start warns about it', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), TRUST_PROXY: 'true' });
    expect(config.trustProxy).toBe(true);
    expect(startupWarnings(config).join('\n')).toMatch(
      /TRUST_PROXY=true lets every client choose its own address.*refused in production/,
    );
    expect(startupWarnings({ ...config, trustProxy: 1 }).join('\n')).not.toMatch(/TRUST_PROXY/);
  });
});

describe.each(engines())('failed sign-ins on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, { env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t?.close());

  it('when a client fails with the username and the email of one account, then both count on one counter and the fifth delays that client', async () => {
    const u = await aUser(t);
    const ip = '198.51.100.10';
    for (let i = 0; i < 2; i++)
      expect((await signInFrom(t, ip, { username: u.username, password: 'wrong-password' })).status).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await signInFrom(t, ip, { email: u.email.toUpperCase(), password: 'wrong-password' })).status).toBe(401);
    const fifth = await signInFrom(t, ip, { username: u.username.toUpperCase(), password: 'wrong-password' });
    expect(fifth.status).toBe(429);
    const rows = await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ client: ip, failed_count: 5 });
    expect(rows[0]!.delayed_until).not.toBeNull();
  });

  it('when a client is delayed, then it gets 429 with the wait even with the right password, while another client still signs in', async () => {
    const u = await aUser(t);
    const attacker = '198.51.100.20';
    for (let i = 0; i < 5; i++) await signInFrom(t, attacker, { username: u.username, password: 'wrong-password' });
    const refused = await signInFrom(t, attacker, { username: u.username, password: FACTORY_PASSWORD });
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(25);
    expect(retry).toBeLessThanOrEqual(30);
    expect(refused.headers.get('ratelimit')).toMatch(RATE_LIMIT);
    expect(refused.headers.get('ratelimit')).toBe(`limit=5, remaining=0, reset=${retry}`);
    expect(refused.headers.get('ratelimit-policy')).toMatch(RATE_LIMIT_POLICY);
    const problem = (await refused.json()) as Problem;
    expect(problem.retry_after).toBe(retry);
    expect(problem.detail).toBe(`Too many failed sign-ins from this device; try again in ${retry} seconds.`);

    // The owner, on another device, is not locked out.
    expect((await signInFrom(t, '203.0.113.5', { username: u.username, password: FACTORY_PASSWORD })).status).toBe(200);
    expect(
      await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id, client: attacker }).first(),
    ).toBeDefined();

    const delayed = await t.knex<AuditEventRecord>('audit_events').where({ action: 'login.delayed', actor_id: u.id });
    expect(delayed.length).toBeGreaterThanOrEqual(2);
    expect(
      await t.knex<AuditEventRecord>('audit_events').where({ action: 'login.failed', actor_id: u.id }),
    ).toHaveLength(4);
  });

  it('when the delay has passed, then each further failure doubles it, and a success clears that client only', async () => {
    const u = await aUser(t);
    const [ip, other] = ['198.51.100.30', '198.51.100.31'];
    for (let i = 0; i < 5; i++) await signInFrom(t, ip, { username: u.username, password: 'wrong-password' });
    await signInFrom(t, other, { username: u.username, password: 'wrong-password' });
    const expire = () =>
      t
        .knex<LoginAttemptRecord>('login_attempts')
        .where({ account_key: u.id, client: ip })
        .update({ delayed_until: t.knex.raw("now() - interval '1 second'") });

    await expire();
    const sixth = await signInFrom(t, ip, { username: u.username, password: 'wrong-password' });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(55);
    expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    await expire();
    const seventh = await signInFrom(t, ip, { username: u.username, password: 'wrong-password' });
    expect(Number(seventh.headers.get('retry-after'))).toBeGreaterThan(115);
    expect(((await seventh.json()) as Problem).detail).toMatch(/try again in 2 minutes\.$/);
    // Capped at 15 minutes.
    await t
      .knex<LoginAttemptRecord>('login_attempts')
      .where({ account_key: u.id, client: ip })
      .update({ failed_count: 20, delayed_until: t.knex.raw("now() - interval '1 second'") });
    const capped = await signInFrom(t, ip, { username: u.username, password: 'wrong-password' });
    expect(Number(capped.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(890);

    await expire();
    expect((await signInFrom(t, ip, { username: u.username, password: FACTORY_PASSWORD })).status).toBe(200);
    expect(
      await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id, client: ip }).first(),
    ).toBeUndefined();
    expect(
      await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id, client: other }).first(),
    ).toMatchObject({
      failed_count: 1,
    });
  });

  it("when a client fails four times on a username, then its fifth failure is answered alike whether the next login is that account's email or names no account", async () => {
    const u = await aUser(t);
    const fifth = async (ip: string, login: string) => {
      for (let i = 0; i < 4; i++)
        expect((await signInFrom(t, ip, { username: u.username, password: 'wrong-password' })).status).toBe(401);
      const res = await signInFrom(t, ip, { username: login, password: 'wrong-password' });
      const problem = (await res.json()) as Problem;
      return { status: res.status, retryAfter: res.headers.get('retry-after'), detail: problem.detail };
    };
    const sameAccount = await fifth('198.51.100.60', u.email);
    const noAccount = await fifth('198.51.100.61', `nobody-${randomUUID().slice(0, 8)}@example.com`);
    expect(sameAccount.status).toBe(429);
    expect(noAccount).toEqual(sameAccount);
  });

  it('when a sign-in fails, then the trail keeps the login only when it names an account: a password typed as the login is never stored', async () => {
    const u = await aUser(t);
    const typedPassword = `Secret-${randomUUID()}`;
    expect((await signInFrom(t, '198.51.100.70', { username: typedPassword, password: 'wrong-password' })).status).toBe(
      401,
    );
    const leaked = await t
      .knex<AuditEventRecord>('audit_events')
      .whereRaw('changes::text ilike ?', [`%${typedPassword.slice(7)}%`]);
    expect(leaked).toHaveLength(0);
    const anonymous = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ action: 'login.failed', actor_id: null, ip: '198.51.100.70' });
    expect(anonymous).toHaveLength(1);

    expect((await signInFrom(t, '198.51.100.71', { email: u.email, password: 'wrong-password' })).status).toBe(401);
    const known = (await t
      .knex<AuditEventRecord>('audit_events')
      .where({ action: 'login.failed', actor_id: u.id })
      .first())!;
    expect(known.changes).toEqual({ login: { before: null, after: u.email } });
  });

  it('when a login names no account, then its failures count under the login as typed, lowercased', async () => {
    const ghost = `Ghost-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 5; i++) await signInFrom(t, '198.51.100.40', { username: ghost, password: 'wrong-password' });
    expect(
      await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: ghost.toLowerCase() }).first(),
    ).toMatchObject({
      failed_count: 5,
      client: '198.51.100.40',
    });
    expect((await signInFrom(t, '198.51.100.40', { username: ghost, password: 'wrong-password' })).status).toBe(429);
    expect((await signInFrom(t, '198.51.100.41', { username: ghost, password: 'wrong-password' })).status).toBe(401);
  });

  it('when an administrator clears the account, then the delayed client may try again at once', async () => {
    const u = await aUser(t);
    for (let i = 0; i < 5; i++)
      await signInFrom(t, '198.51.100.50', { username: u.username, password: 'wrong-password' });
    await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id }).delete();
    expect((await signInFrom(t, '198.51.100.50', { username: u.username, password: FACTORY_PASSWORD })).status).toBe(
      200,
    );
  });

  it('when the purge runs, then day-old failures and sessions and tokens ended more than a day ago are gone, and live ones stay', async () => {
    const u = await aUser(t);
    const k = t.knex;
    const ago = (interval: string) => k.raw(`now() - interval '${interval}'`);
    const ahead = (interval: string) => k.raw(`now() + interval '${interval}'`);
    await k('login_attempts').insert([
      { account_key: u.id, client: 'old', failed_count: 3, last_failed_at: ago('25 hours') },
      { account_key: u.id, client: 'recent', failed_count: 3, last_failed_at: ago('23 hours') },
    ]);
    const [live, revokedLong, revokedRecently, expiredLong] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await k('sessions').insert([
      { id: live, user_id: u.id, expires_at: ahead('1 day') },
      { id: revokedLong, user_id: u.id, expires_at: ahead('1 day'), revoked_at: ago('2 days') },
      { id: revokedRecently, user_id: u.id, expires_at: ahead('1 day'), revoked_at: ago('1 hour') },
      { id: expiredLong, user_id: u.id, expires_at: ago('2 days') },
    ]);
    const token = (family: string, extra: object) => ({
      user_id: u.id,
      family_id: family,
      token_hash: randomUUID(),
      ...extra,
    });
    await k('refresh_tokens').insert([
      token(live, { expires_at: ahead('1 day') }),
      token(live, { expires_at: ahead('1 day'), revoked_at: ago('3 days') }),
      token(live, { expires_at: ago('2 days') }),
      token(revokedLong, { expires_at: ahead('1 day') }),
      token(revokedRecently, { expires_at: ahead('1 day'), revoked_at: ago('1 hour') }),
    ]);

    const purged = await purgeAuthRecords(k);
    expect(purged.loginAttempts).toBeGreaterThanOrEqual(1);
    expect(purged.sessions).toBeGreaterThanOrEqual(2);
    expect(purged.refreshTokens).toBeGreaterThanOrEqual(2);
    expect((await k('login_attempts').where({ account_key: u.id })).map((r: { client: string }) => r.client)).toEqual([
      'recent',
    ]);
    expect((await k('sessions').where({ user_id: u.id })).map((r: { id: string }) => r.id).sort()).toEqual(
      [live, revokedRecently].sort(),
    );
    const tokens = await k('refresh_tokens').where({ user_id: u.id });
    expect(tokens).toHaveLength(2);
    expect(tokens.map((r: { family_id: string }) => r.family_id).sort()).toEqual([live, revokedRecently].sort());
  });
});

describe.each(engines())('sign-in rate limits on %s', (engine) => {
  let perIp: TestServer;
  let flood: TestServer;
  beforeAll(async () => {
    perIp = await startTestServer(engine, {
      env: { TRUST_PROXY: 'loopback', AUTH_RATE_PER_IP: '3/60s', AUTH_RATE_REFRESH: '2/60s' },
    });
    // The production rates, and the overall bucket a flood used to empty for everyone (now no such bucket exists);
    // one proxy hop in front, as behind a load balancer.
    flood = await startTestServer(engine, { env: { TRUST_PROXY: '1', AUTH_RATE_PER_IP: '20/20s' } });
  });
  afterAll(async () => {
    await perIp?.close();
    await flood?.close();
  });

  const junkFrom = (t: TestServer, ip: string) =>
    t.fetch('/api/auth/login', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    });
  /** Many requests, `width` at a time. */
  async function inBatches<T>(count: number, width: number, one: (i: number) => Promise<T>): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < count; i += width)
      out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => one(i + j)))));
    return out;
  }

  it('when one address sends more sign-ins than its bucket holds, then 429 with the RateLimit fields, before any body is read or password hashed', async () => {
    const ip = '192.0.2.10';
    const ghost = `flood-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 3; i++)
      expect((await signInFrom(perIp, ip, { username: ghost, password: 'wrong-password' })).status).toBe(401);
    const refused = await signInFrom(perIp, ip, { username: ghost, password: 'wrong-password' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const retry = Number(refused.headers.get('retry-after'));
    // The quota is whole again when the window (60 s, from the first of the three) ends.
    expect(retry).toBeGreaterThanOrEqual(55);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`limit=3, remaining=0, reset=${retry}`);
    expect(refused.headers.get('ratelimit')).toMatch(RATE_LIMIT);
    expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60');
    const problem = (await refused.json()) as Problem;
    expect(problem).toMatchObject({ status: 429, retry_after: retry });
    expect(problem.detail).toBe(`Too many sign-in requests from this address; try again in ${waitPhrase(retry)}.`);
    // Refused before the password was checked: the fourth attempt left no failure behind.
    expect(
      (await perIp.knex<LoginAttemptRecord>('login_attempts').where({ account_key: ghost }).first())!.failed_count,
    ).toBe(3);
    // ... and before the body was parsed.
    expect((await junkFrom(perIp, ip)).status).toBe(429);
    // Another address is not affected.
    expect((await signInFrom(perIp, '192.0.2.11', { username: 'admin', password: 'admin123' })).status).toBe(200);
  });

  it('when an address has used up its sign-in bucket, then its token refresh and sign-out still work, on a bucket of their own', async () => {
    const ip = '192.0.2.20';
    const pair = (await (await signInFrom(perIp, ip, { username: 'admin', password: 'admin123' })).json()) as {
      refresh_token: string;
    };
    for (let i = 0; i < 3; i++) await junkFrom(perIp, ip);
    expect((await junkFrom(perIp, ip)).status).toBe(429);
    const refreshed = await perIp.fetch('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: pair.refresh_token },
      headers: { 'x-forwarded-for': ip },
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { refresh_token: string };
    expect(
      (
        await perIp.fetch('/api/auth/logout', {
          method: 'POST',
          json: { refresh_token: next.refresh_token },
          headers: { 'x-forwarded-for': ip },
        })
      ).status,
    ).toBe(204);
    // The refresh bucket (2 a minute here) is the address's own, and says so.
    const third = await perIp.fetch('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: 'x'.repeat(43) },
      headers: { 'x-forwarded-for': ip },
    });
    expect(third.status).toBe(429);
    expect(third.headers.get('ratelimit-policy')).toBe('2;w=60');
    expect(((await third.json()) as Problem).detail).toMatch(
      /^Too many token refreshes from this address; try again in/,
    );
  });

  it('when junk bodies arrive from 150 addresses at once, then each is a cheap 400 and the admin, from another address, still signs in at once', async () => {
    const statuses = await inBatches(150, 30, async (i) => (await junkFrom(flood, `10.1.${i >> 8}.${i & 255}`)).status);
    expect(statuses.every((s) => s === 400)).toBe(true);
    const admin = await signInFrom(flood, '203.0.113.200', { username: 'admin', password: 'admin123' });
    expect(admin.status).toBe(200);
    // Sign-ins with wrong passwords from as many addresses are each refused on their own, without a shared refusal.
    const wrong = await inBatches(
      60,
      30,
      async (i) =>
        (await signInFrom(flood, `10.2.0.${i}`, { username: `nobody-${i}`, password: 'wrong-password' })).status,
    );
    expect(wrong.every((s) => s === 401)).toBe(true);
    expect((await signInFrom(flood, '203.0.113.201', { username: 'admin', password: 'admin123' })).status).toBe(200);
  });

  it('when the browser presents the device cookie of its account, then its sign-in is judged by that device alone, whatever its address has done', async () => {
    const u = await aUser(flood);
    const office = '198.18.0.7';
    const first = await signInFrom(flood, office, { username: u.username, password: FACTORY_PASSWORD });
    expect(first.status).toBe(200);
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^pa_device=[^;]+; Path=\/api\/auth; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;
    const withCookie = (body: unknown, c = cookie) =>
      flood.fetch('/api/auth/login', { method: 'POST', json: body, headers: { 'x-forwarded-for': office, cookie: c } });

    // An attacker behind the same address fails five times: the address is delayed ...
    for (let i = 0; i < 5; i++) await signInFrom(flood, office, { username: u.username, password: 'wrong-password' });
    expect((await signInFrom(flood, office, { username: u.username, password: FACTORY_PASSWORD })).status).toBe(429);
    // ... and junk empties the address's bucket ...
    let emptied = false;
    for (let i = 0; i < 100 && !emptied; i++) emptied = (await junkFrom(flood, office)).status === 429;
    expect(emptied).toBe(true);
    // ... but the owner's browser is judged by its own record, and keeps its device id.
    const again = await withCookie({ username: u.username, password: FACTORY_PASSWORD });
    expect(again.status).toBe(200);
    expect(again.headers.get('set-cookie')!.split('.')[0]).toBe(cookie.split('.')[0]);
    // An altered cookie counts for nothing: the address's record applies.
    const altered = cookie.slice(0, -2) + (cookie.endsWith('AA') ? 'BB' : 'AA');
    expect((await withCookie({ username: u.username, password: FACTORY_PASSWORD }, altered)).status).toBe(429);
    // The device's own failures delay that device only.
    for (let i = 0; i < 5; i++) await withCookie({ username: u.username, password: 'wrong-password' });
    expect((await withCookie({ username: u.username, password: FACTORY_PASSWORD })).status).toBe(429);
    expect((await signInFrom(flood, '198.18.0.8', { username: u.username, password: FACTORY_PASSWORD })).status).toBe(
      200,
    );
  });
});
