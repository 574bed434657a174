import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { signAccessToken } from '../../server/src/modules/auth/tokens.js';
import { aUser, FACTORY_PASSWORD } from '../support/factory.js';
import type { ClusterRecord, LoginAttemptRecord, UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const sidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

/**
 * A sign-in from the client address `from` (the server trusts the loopback proxy's X-Forwarded-For): failures delay
 * their client over every account it tried, so each test that fails on purpose does so from an address of its own.
 */
async function loginRaw(t: TestServer, body: unknown, from = '127.0.0.1') {
  return t.fetch('/api/auth/login', { method: 'POST', json: body, headers: { 'x-forwarded-for': from } });
}
let lastClient = 0;
const freshClient = () => `198.51.100.${++lastClient}`;

describe.each(engines())('auth on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, { env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t?.close());

  it('when the admin signs in with the configured password, then a bearer token pair is returned', async () => {
    const { data, response } = await t
      .client()
      .POST('/api/auth/login', { body: { username: 'admin', password: 'admin123' } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ token_type: 'Bearer', expires_in: 900, refresh_expires_in: 14 * 24 * 3600 });
    expect((data as { access_token: string }).access_token.split('.')).toHaveLength(3);
    expect((data as { refresh_token: string }).refresh_token.length).toBeGreaterThanOrEqual(32);
  });

  it('when a user signs in with the email in any case, then it works', async () => {
    const u = await aUser(t);
    const res = await loginRaw(t, { email: `${u.username.toUpperCase()}@EXAMPLE.COM`, password: FACTORY_PASSWORD });
    expect(res.status).toBe(200);
  });

  it('when the password is wrong or the user does not exist, then both get the same 401 problem', async () => {
    const from = freshClient();
    const u = await aUser(t);
    const wrong = await loginRaw(t, { username: u.username, password: 'nope-nope' }, from);
    const missing = await loginRaw(t, { username: `ghost-${randomUUID()}`, password: 'nope-nope' }, from);
    expect(wrong.status).toBe(401);
    expect(missing.status).toBe(401);
    expect(wrong.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const [a, b] = [(await wrong.json()) as { detail: string }, (await missing.json()) as { detail: string }];
    expect(a.detail).toBe(b.detail);
    expect(a.detail).not.toMatch(/exist|unknown|not found/i);
  });

  it('when the login body misses the password, then a 400 problem lists the field', async () => {
    const res = await loginRaw(t, { username: 'admin' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ path: string; message: string }> };
    expect(body.errors.some((e) => e.path.includes('password'))).toBe(true);
  });

  it('when the login body has neither username nor email, then a 400 problem says to send one', async () => {
    const res = await loginRaw(t, { password: 'admin123' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'Send a username or an email address with the password.',
    );
  });

  it('when the body is not valid JSON, then a 400 problem+json is returned', async () => {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username":',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, instance: '/api/auth/login' });
    expect(typeof body.detail).toBe('string');
    expect(res.headers.get('x-request-id')).toBe(body.request_id);
  });

  it('when a refresh token is used, then a new pair is issued and the old token stops working', async () => {
    const u = await aUser(t);
    const first = (await (await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD })).json()) as {
      refresh_token: string;
    };
    const { data: second, response } = await t
      .client()
      .POST('/api/auth/refresh-token', { body: { refresh_token: first.refresh_token } });
    expect(response.status).toBe(200);
    expect(second!.refresh_token).not.toBe(first.refresh_token);
    const again = await t.client().POST('/api/auth/refresh-token', { body: { refresh_token: first.refresh_token } });
    expect(again.response.status).toBe(401);
  });

  it('when a spent refresh token is presented again, then the whole sign-in family is revoked', async () => {
    const u = await aUser(t);
    const first = (await (await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD })).json()) as {
      refresh_token: string;
    };
    const { data: second } = await t
      .client()
      .POST('/api/auth/refresh-token', { body: { refresh_token: first.refresh_token } });
    // replaying the spent token (a thief) ...
    expect(
      (await t.client().POST('/api/auth/refresh-token', { body: { refresh_token: first.refresh_token } })).response
        .status,
    ).toBe(401);
    // ... also kills the legitimate newer token
    expect(
      (await t.client().POST('/api/auth/refresh-token', { body: { refresh_token: second!.refresh_token } })).response
        .status,
    ).toBe(401);
  });

  it('when a user logs out, then the refresh token is revoked and logout stays 204 when repeated', async () => {
    const u = await aUser(t);
    const pair = (await (await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD })).json()) as {
      refresh_token: string;
    };
    const out = await t.client().POST('/api/auth/logout', { body: { refresh_token: pair.refresh_token } });
    expect(out.response.status).toBe(204);
    expect(
      (await t.client().POST('/api/auth/logout', { body: { refresh_token: pair.refresh_token } })).response.status,
    ).toBe(204);
    expect(
      (await t.client().POST('/api/auth/refresh-token', { body: { refresh_token: pair.refresh_token } })).response
        .status,
    ).toBe(401);
  });

  it('when five sign-ins fail from one client, then that client is delayed with 429 and Retry-After, even with the right password', async () => {
    const from = freshClient();
    const u = await aUser(t);
    for (let i = 0; i < 4; i++)
      expect((await loginRaw(t, { username: u.username, password: 'wrong-pass' }, from)).status).toBe(401);
    const fifth = await loginRaw(t, { username: u.username, password: 'wrong-pass' }, from);
    expect(fifth.status).toBe(429);
    const delayed = await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD }, from);
    expect(delayed.status).toBe(429);
    const retry = Number(delayed.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(20);
    expect(retry).toBeLessThanOrEqual(30);
    expect(((await delayed.json()) as { retry_after: number }).retry_after).toBe(retry);
    // The delay lives in the database (shared by replicas), for this account and this client only.
    const row = (await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id }).first())!;
    expect(row).toMatchObject({ client: from, failed_count: 5 });
    expect(row.delayed_until).not.toBeNull();
  });

  it('when the delay has passed, then the right password signs in and resets the counter', async () => {
    const from = freshClient();
    const u = await aUser(t);
    for (let i = 0; i < 5; i++) await loginRaw(t, { username: u.username, password: 'wrong-pass' }, from);
    await t
      .knex<LoginAttemptRecord>('login_attempts')
      .where({ account_key: u.id })
      .update({ delayed_until: t.knex.raw("now() - interval '1 second'") });
    expect((await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD }, from)).status).toBe(200);
    expect(await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id }).first()).toBeUndefined();
    // a fresh failure after success is counted from one again
    expect((await loginRaw(t, { username: u.username, password: 'wrong-pass' }, from)).status).toBe(401);
  });

  it('when a sign-in succeeds after some failures, then the failure count starts over', async () => {
    const from = freshClient();
    const u = await aUser(t);
    for (let i = 0; i < 4; i++) await loginRaw(t, { username: u.username, password: 'wrong-pass' }, from);
    expect((await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD }, from)).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await loginRaw(t, { username: u.username, password: 'wrong-pass' }, from)).status).toBe(401);
  });

  it('when a deactivated user signs in, then 401', async () => {
    const from = freshClient();
    const u = await aUser(t);
    await t.knex<UserRecord>('users').where({ id: u.id }).update({ is_active: false });
    expect((await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD }, from)).status).toBe(401);
  });

  it('when a protected endpoint is called without a token, then a 401 problem with WWW-Authenticate is returned', async () => {
    const res = await t.fetch('/api/user/permission/platform');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when the token is tampered with or signed with another key, then 401 without saying why', async () => {
    const token = await t.login('admin');
    // Used once first, so the genuine token is among the verified ones: a near copy of it must still be refused.
    expect((await t.fetch('/api/user/permission/platform', { token })).status).toBe(200);
    const [h, p, s] = token.split('.') as [string, string, string];
    const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    const res = await t.fetch('/api/user/permission/platform', { token: tampered });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe('invalid or expired token');
    const adminId = (await t.knex<UserRecord>('users').where({ username: 'admin' }).first())!.id;
    const sid = sidOf(token);
    const foreign = await signAccessToken('another-secret-of-at-least-32-characters!', adminId, Date.now(), sid);
    expect((await t.fetch('/api/user/permission/platform', { token: foreign })).status).toBe(401);
    const valid = await signAccessToken(t.config.jwtSecret, adminId, Date.now(), sid);
    expect((await t.fetch('/api/user/permission/platform', { token: valid })).status).toBe(200);
  });

  it('when a token signed with the right secret names no session, or lives longer than an access token may, then 401', async () => {
    const token = await t.login('admin');
    const adminId = (await t.knex<UserRecord>('users').where({ username: 'admin' }).first())!.id;
    const mint = (claims: Record<string, unknown>, lifetimeSeconds: number) => {
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(adminId)
        .setIssuer('platform-admin')
        .setAudience('platform-admin-api')
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetimeSeconds)
        .sign(new TextEncoder().encode(t.config.jwtSecret));
    };
    const status = async (jwt: string) => (await t.fetch('/api/user/permission/platform', { token: jwt })).status;
    expect(await status(await mint({}, 600))).toBe(401);
    expect(await status(await mint({ sid: sidOf(token) }, 30 * 24 * 60 * 60))).toBe(401);
    expect(await status(await mint({ sid: sidOf(token) }, 600))).toBe(200);
  });

  it('when an account signs in with single sign-on only, then its right password and a wrong one get the same answer, as any wrong password does', async () => {
    const from = freshClient();
    const u = await aUser(t);
    await t.knex<UserRecord>('users').where({ id: u.id }).update({ sso_only: true });
    const right = await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD }, from);
    const wrong = await loginRaw(t, { username: u.username, password: 'not-the-password' }, from);
    const plain = await aUser(t);
    const other = await loginRaw(t, { username: plain.username, password: 'not-the-password' }, from);
    const answer = async (res: Response) => {
      const { request_id: _id, ...problem } = (await res.json()) as Record<string, unknown>;
      return { status: res.status, problem };
    };
    const [a, b, c] = [await answer(right), await answer(wrong), await answer(other)];
    expect(a.status).toBe(401);
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    // Both attempts count as failures, so the fifth is delayed whatever the password.
    expect(
      (await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id }).first())!.failed_count,
    ).toBe(2);
  });

  it('when the access token has expired, then 401', async () => {
    const adminId = (await t.knex<UserRecord>('users').where({ username: 'admin' }).first())!.id;
    const old = await signAccessToken(
      t.config.jwtSecret,
      adminId,
      Date.now() - 16 * 60 * 1000,
      sidOf(await t.login('admin')),
    );
    const res = await t.fetch('/api/user/permission/platform', { token: old });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe('invalid or expired token');
  });

  it('when the super admin asks for permissions, then is_super_admin is true', async () => {
    const { data, response } = await t.client(await t.login('admin')).GET('/api/user/permission/platform');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ is_super_admin: true, user: { username: 'admin' } });
  });

  it('when editor-a asks for permissions, then the four cluster keys hold on CL-A only', async () => {
    const { data } = await t.client(await t.login('editor-a')).GET('/api/user/permission/platform');
    const clA = (await t.knex<ClusterRecord>('clusters').where({ code: 'CL-A' }).first())!;
    expect(data!.is_super_admin).toBe(false);
    expect(data!.platform).toEqual([]);
    expect(Object.keys(data!.clusters)).toEqual([clA.id]);
    expect([...data!.clusters[clA.id]!].sort()).toEqual([
      'cluster.create',
      'cluster.delete',
      'cluster.read',
      'cluster.update',
    ]);
    expect(data!.user.display_name).toBe('Eddie Editor');
  });

  it('when viewer, mapper and operator ask, then they get their platform grants and nothing else', async () => {
    const viewer = (await t.client(await t.login('viewer')).GET('/api/user/permission/platform')).data!;
    const mapper = (await t.client(await t.login('mapper')).GET('/api/user/permission/platform')).data!;
    const operator = (await t.client(await t.login('operator')).GET('/api/user/permission/platform')).data!;
    expect(viewer.platform).toEqual(['cluster.read']);
    expect(mapper.platform).toEqual(['print_template_mapping.manage']);
    expect(operator).toMatchObject({ platform: [], clusters: {}, is_super_admin: false });
  });

  it('when a user is deactivated after signing in, then the access token stops working at once', async () => {
    const u = await aUser(t);
    const token = (
      (await (await loginRaw(t, { username: u.username, password: FACTORY_PASSWORD })).json()) as {
        access_token: string;
      }
    ).access_token;
    expect((await t.fetch('/api/user/permission/platform', { token })).status).toBe(200);
    await t.knex<UserRecord>('users').where({ id: u.id }).update({ is_active: false });
    expect((await t.fetch('/api/user/permission/platform', { token })).status).toBe(401);
  });

  it('when an unknown route under /api is called with a token, then a 404 problem is returned', async () => {
    const token = await t.login('admin');
    const res = await t.fetch('/api/no-such-thing', { token });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const sys = await t.fetch('/api-system/no-such-thing', { token });
    expect(sys.status).toBe(404);
  });

  it('when a known path is called with an undocumented method, then a 405 problem is returned', async () => {
    const res = await t.fetch('/api/auth/login', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });
});
