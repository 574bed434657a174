// The caller's own account: sessions (one per sign-in, named by the access token's `sid`) that end at the next
// request once revoked, the password change and its rules, the forced change of an initial password, and why a
// refused token is refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { MAX_SESSION_AGE_SECONDS } from '../../server/src/modules/auth/tokens.js';
import { aUser, FACTORY_PASSWORD } from '../support/factory.js';
import type {
  AuditEventRecord,
  LoginAttemptRecord,
  RefreshTokenRecord,
  SessionRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

interface Pair {
  access_token: string;
  refresh_token: string;
}
interface Problem {
  type: string;
  status: number;
  detail: string;
}
interface SessionRow {
  id: string;
  created_at: string;
  last_used_at: string;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}

describe.each(engines())('sessions and the password on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, { env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t?.close());

  async function signIn(username: string, password = FACTORY_PASSWORD, userAgent = 'vitest'): Promise<Pair> {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username, password },
      headers: { 'user-agent': userAgent },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Pair;
  }

  const sidOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid?: string }).sid;
  const sessions = async (token: string) => {
    const res = await t.fetch('/api-system/me/sessions', { token });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: SessionRow[] }).data;
  };
  const permissions = (token: string) => t.fetch('/api/user/permission/platform', { token });
  /** From the client address `from` (the server trusts the loopback proxy): a failure delays its client only. */
  const changePassword = (token: string, current_password: string, new_password: string, from = '127.0.0.1') =>
    t.fetch('/api-system/me/password', {
      method: 'PUT',
      token,
      json: { current_password, new_password },
      headers: { 'x-forwarded-for': from },
    });

  it('when a user signs in, then a session row with the address and user agent exists, the token names it and the sign-in time is kept', async () => {
    const u = await aUser(t);
    const pair = await signIn(u.username, FACTORY_PASSWORD, 'Mozilla/5.0 (Test)');
    const sid = sidOf(pair.access_token);
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    const row = (await t.knex<SessionRecord>('sessions').where({ id: sid }).first())!;
    expect(row).toMatchObject({ user_id: u.id, user_agent: 'Mozilla/5.0 (Test)', revoked_at: null });
    expect(row.ip).toMatch(/127\.0\.0\.1/);
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
    const tokens = await t.knex<RefreshTokenRecord>('refresh_tokens').where({ family_id: sid });
    expect(tokens).toHaveLength(1);
    expect((await t.knex<UserRecord>('users').where({ id: u.id }).first())!.last_sign_in_at).not.toBeNull();

    const list = await sessions(pair.access_token);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: sid, current: true, user_agent: 'Mozilla/5.0 (Test)' });
  });

  it('when one session is revoked, then its access token gets 401 session-ended, its refresh fails, and the other session goes on', async () => {
    const u = await aUser(t);
    const laptop = await signIn(u.username, FACTORY_PASSWORD, 'laptop');
    const phone = await signIn(u.username, FACTORY_PASSWORD, 'phone');
    // Most recently used first: the phone signed in last.
    const listed = await sessions(laptop.access_token);
    expect(listed.map((s) => s.user_agent)).toEqual(['phone', 'laptop']);
    expect(listed.find((s) => s.user_agent === 'laptop')!.current).toBe(true);

    const phoneSid = sidOf(phone.access_token)!;
    expect(
      (await t.fetch(`/api-system/me/sessions/${phoneSid}`, { method: 'DELETE', token: laptop.access_token })).status,
    ).toBe(204);
    const refused = await permissions(phone.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    const problem = (await refused.json()) as Problem;
    expect(problem.type).toMatch(/\/problems\/session-ended$/);
    expect(problem.detail).toBe(
      "This session was signed out (from your account's sessions, a password change or reset).",
    );
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: phone.refresh_token } }))
        .status,
    ).toBe(401);

    expect((await permissions(laptop.access_token)).status).toBe(200);
    expect((await sessions(laptop.access_token)).map((s) => s.id)).toEqual([sidOf(laptop.access_token)]);
    // Revoking it again, or a session that is not there → 404.
    expect(
      (await t.fetch(`/api-system/me/sessions/${phoneSid}`, { method: 'DELETE', token: laptop.access_token })).status,
    ).toBe(404);
    expect(
      (await t.fetch(`/api-system/me/sessions/${randomUUID()}`, { method: 'DELETE', token: laptop.access_token }))
        .status,
    ).toBe(404);

    const event = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ action: 'revokeMySession', target_id: phoneSid })
      .first();
    expect(event).toMatchObject({ actor_id: u.id, target_type: 'session' });
  });

  it("when a user tries to revoke another user's session, then 404 and that session goes on", async () => {
    const [a, b] = [await aUser(t), await aUser(t)];
    const pa = await signIn(a.username);
    const pb = await signIn(b.username);
    const res = await t.fetch(`/api-system/me/sessions/${sidOf(pb.access_token)}`, {
      method: 'DELETE',
      token: pa.access_token,
    });
    expect(res.status).toBe(404);
    expect((await permissions(pb.access_token)).status).toBe(200);
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: pb.refresh_token } })).status,
    ).toBe(200);
  });

  it('when the other sessions are revoked, then they all end, the count is returned and audited, and this one goes on', async () => {
    const u = await aUser(t);
    const others = [await signIn(u.username), await signIn(u.username), await signIn(u.username)];
    const me = await signIn(u.username);
    const res = await t.fetch('/api-system/me/sessions/revoke-others', { method: 'POST', token: me.access_token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: 3 });
    for (const o of others) {
      expect((await permissions(o.access_token)).status).toBe(401);
      expect(
        (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: o.refresh_token } })).status,
      ).toBe(401);
    }
    expect((await permissions(me.access_token)).status).toBe(200);
    expect(
      await (await t.fetch('/api-system/me/sessions/revoke-others', { method: 'POST', token: me.access_token })).json(),
    ).toEqual({ revoked: 0 });
    const events = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ action: 'revokeMyOtherSessions', actor_id: u.id })
      .orderBy('at');
    expect(events[0]).toMatchObject({ target_type: 'user', target_id: u.id });
    // jsonb comes back parsed from both engines; a driver that hands back its text is read the same.
    const stored: unknown = events[0]!.changes;
    const changes: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
    expect(changes).toEqual({ revoked: { before: null, after: 3 } });
  });

  it('when a token is refreshed, then it stays in its session, which is marked used; after logout the session has ended', async () => {
    const u = await aUser(t);
    const first = await signIn(u.username);
    const sid = sidOf(first.access_token)!;
    await t
      .knex<SessionRecord>('sessions')
      .where({ id: sid })
      .update({ last_used_at: t.knex.raw("now() - interval '1 hour'") });
    const res = await t.fetch('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: first.refresh_token },
    });
    expect(res.status).toBe(200);
    const second = (await res.json()) as Pair;
    expect(sidOf(second.access_token)).toBe(sid);
    const row = (await t.knex<SessionRecord>('sessions').where({ id: sid }).first())!;
    expect(Date.now() - new Date(row.last_used_at).getTime()).toBeLessThan(60_000);
    expect(await t.knex<RefreshTokenRecord>('refresh_tokens').where({ family_id: sid })).toHaveLength(2);

    expect(
      (await t.fetch('/api/auth/logout', { method: 'POST', json: { refresh_token: second.refresh_token } })).status,
    ).toBe(204);
    expect((await t.knex<SessionRecord>('sessions').where({ id: sid }).first())!.revoked_at).not.toBeNull();
    expect((await permissions(second.access_token)).status).toBe(401);
  });

  it('when a session was revoked in the database, then its refresh token is refused', async () => {
    const u = await aUser(t);
    const pair = await signIn(u.username);
    await t
      .knex<SessionRecord>('sessions')
      .where({ id: sidOf(pair.access_token) })
      .update({ revoked_at: t.knex.fn.now() });
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: pair.refresh_token } }))
        .status,
    ).toBe(401);
  });

  it('when a token carries no session (minted with the signing secret), then it is refused: it could never be revoked', async () => {
    const u = await aUser(t);
    await signIn(u.username);
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(u.id)
      .setIssuer('platform-admin')
      .setAudience('platform-admin-api')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await permissions(token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'about:blank', detail: 'invalid or expired token' });
  });

  it('when a session is older than the maximum session age, then its refresh is refused however recently it was used', async () => {
    const u = await aUser(t);
    const pair = await signIn(u.username);
    const sid = sidOf(pair.access_token)!;
    await t
      .knex<SessionRecord>('sessions')
      .where({ id: sid })
      .update({ created_at: t.knex.raw('now() - make_interval(secs => ?)', [MAX_SESSION_AGE_SECONDS + 60]) });
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: pair.refresh_token } }))
        .status,
    ).toBe(401);
    // A young session refreshes, and its new expiry never passes its maximum age.
    const young = await signIn(u.username);
    const youngSid = sidOf(young.access_token)!;
    await t
      .knex<SessionRecord>('sessions')
      .where({ id: youngSid })
      .update({ created_at: t.knex.raw("now() - interval '29 days'") });
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: young.refresh_token } }))
        .status,
    ).toBe(200);
    const row = (await t.knex<SessionRecord>('sessions').where({ id: youngSid }).first())!;
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeLessThanOrEqual(
      MAX_SESSION_AGE_SECONDS * 1000,
    );
  });

  it('when a signed-in user guesses the current password, then the fifth wrong one delays that client, and each failure is audited without a secret', async () => {
    const u = await aUser(t);
    const { access_token: token } = await signIn(u.username);
    const next = 'Phuket-Lagoon-Morning-7';
    const guesses: number[] = [];
    const from = '198.51.100.77';
    for (let i = 0; i < 5; i++) guesses.push((await changePassword(token, `guess-number-${i}`, next, from)).status);
    expect(guesses).toEqual([400, 400, 400, 400, 429]);
    // Delayed: even the right current password waits now, and no hash is spent on it.
    const delayed = await changePassword(token, FACTORY_PASSWORD, next, from);
    expect(delayed.status).toBe(429);
    expect(Number(delayed.headers.get('retry-after'))).toBeGreaterThan(20);
    expect(await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: u.id }).first()).toMatchObject({
      client: from,
      failed_count: 5,
    });

    const events = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ action: 'changeMyPassword', actor_id: u.id })
      .orderBy('at');
    expect(events.map((e) => e.changes.outcome?.after)).toEqual([
      'wrong-current-password',
      'wrong-current-password',
      'wrong-current-password',
      'wrong-current-password',
      'delayed',
      'delayed',
    ]);
    const text = JSON.stringify(events);
    expect(text).not.toMatch(/guess-number|Phuket|Andaman/);
  });

  it('when the password change breaks a rule, then 400 names the rule, and nothing changes', async () => {
    const u = await aUser(t);
    const { access_token: token } = await signIn(u.username);
    const detail = async (res: Response) => {
      expect(res.status).toBe(400);
      return ((await res.json()) as Problem).detail;
    };
    expect(await detail(await changePassword(token, 'not-the-password', 'Phuket-Lagoon-Morning-7'))).toBe(
      'The current password is wrong.',
    );
    expect(await detail(await changePassword(token, FACTORY_PASSWORD, 'short'))).toBe(
      'The password must have at least 12 characters.',
    );
    expect(await detail(await changePassword(token, FACTORY_PASSWORD, `${u.username}-is-me!`))).toBe(
      'The password must not be or contain the username or the email address.',
    );
    expect(await detail(await changePassword(token, FACTORY_PASSWORD, 'Password1234'))).toBe(
      'The password is on the list of common passwords; choose a less predictable one.',
    );
    expect(await detail(await changePassword(token, FACTORY_PASSWORD, FACTORY_PASSWORD))).toBe(
      'The new password must differ from the current one.',
    );
    await signIn(u.username);
    // Only the wrong current password is recorded (as a failed attempt, without any secret); the broken rules are not.
    const events = await t.knex<AuditEventRecord>('audit_events').where({ action: 'changeMyPassword', actor_id: u.id });
    expect(events.map((e: { changes: unknown }) => e.changes)).toEqual([
      { outcome: { before: null, after: 'wrong-current-password' } },
    ]);
  });

  it('when the password is changed, then the new one signs in, the old one not, the other sessions end and the audit holds no secret', async () => {
    const u = await aUser(t);
    const other = await signIn(u.username);
    const me = await signIn(u.username);
    const next = 'Phuket-Lagoon-Morning-7';
    expect((await changePassword(me.access_token, FACTORY_PASSWORD, next)).status).toBe(204);

    expect((await permissions(me.access_token)).status).toBe(200);
    const refused = await permissions(other.access_token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as Problem).type).toMatch(/\/problems\/session-ended$/);
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: other.refresh_token } }))
        .status,
    ).toBe(401);

    expect(
      (await t.fetch('/api/auth/login', { method: 'POST', json: { username: u.username, password: FACTORY_PASSWORD } }))
        .status,
    ).toBe(401);
    await signIn(u.username, next);
    const user = (await t.knex<UserRecord>('users').where({ id: u.id }).first())!;
    expect(user.password_changed_at).not.toBeNull();
    expect(user.must_change_password).toBe(false);

    const event = (await t
      .knex<AuditEventRecord>('audit_events')
      .where({ action: 'changeMyPassword', actor_id: u.id })
      .first())!;
    expect(event).toMatchObject({ target_type: 'user', target_id: u.id });
    const text = JSON.stringify(event.changes);
    expect(text).not.toContain(next);
    expect(text).not.toContain(FACTORY_PASSWORD);
    expect(text).not.toMatch(/scrypt|password/i);
  });

  it('when a password change is required, then every other operation answers 403 password-change-required until it is changed', async () => {
    const u = await aUser(t, { must_change_password: true });
    const { access_token: token } = await signIn(u.username);

    const perms = await permissions(token);
    expect(perms.status).toBe(200);
    expect(((await perms.json()) as { must_change_password: boolean }).must_change_password).toBe(true);
    for (const [method, path] of [
      ['GET', '/api-system/clusters'],
      ['GET', '/api-system/me/sessions'],
      ['POST', '/api-system/me/sessions/revoke-others'],
    ] as const) {
      const res = await t.fetch(path, { method, token });
      expect(res.status, path).toBe(403);
      const problem = (await res.json()) as Problem;
      expect(problem.type).toMatch(/\/problems\/password-change-required$/);
      expect(problem.detail).toBe('Change your password before anything else: PUT /api-system/me/password.');
    }
    // Public operations are unaffected.
    expect((await t.fetch('/healthz')).status).toBe(200);

    expect((await changePassword(token, FACTORY_PASSWORD, 'Phuket-Lagoon-Morning-7')).status).toBe(204);
    expect(((await (await permissions(token)).json()) as { must_change_password: boolean }).must_change_password).toBe(
      false,
    );
    expect((await t.fetch('/api-system/me/sessions', { token })).status).toBe(200);
  });

  it('when the account is deactivated while signed in, then 401 account-deactivated says so', async () => {
    const u = await aUser(t);
    const { access_token: token } = await signIn(u.username);
    await t.knex<UserRecord>('users').where({ id: u.id }).update({ is_active: false });
    const res = await permissions(token);
    expect(res.status).toBe(401);
    const problem = (await res.json()) as Problem;
    expect(problem.type).toMatch(/\/problems\/account-deactivated$/);
    expect(problem.detail).toBe('Your account has been deactivated. Ask an administrator to reactivate it.');
  });

  it('when the token is not valid, then the generic 401 stays about:blank', async () => {
    const res = await permissions('not.a.token');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'about:blank', detail: 'invalid or expired token' });
  });
});

describe.each(engines())('a production first start on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, {
      env: { SEED_DEMO: 'false', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'from-the-environment-1' },
    });
  });
  afterAll(() => t?.close());

  it('when the admin created from ADMIN_PASSWORD signs in, then the password must be changed before anything else', async () => {
    const token = await t.login('root', 'from-the-environment-1');
    const perms = (await (await t.fetch('/api/user/permission/platform', { token })).json()) as {
      must_change_password: boolean;
      is_super_admin: boolean;
    };
    expect(perms).toMatchObject({ must_change_password: true, is_super_admin: true });
    const refused = await t.fetch('/api-system/clusters', { token });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Problem).type).toMatch(/\/problems\/password-change-required$/);
    const changed = await t.fetch('/api-system/me/password', {
      method: 'PUT',
      token,
      json: { current_password: 'from-the-environment-1', new_password: 'Phuket-Lagoon-Morning-7' },
    });
    expect(changed.status).toBe(204);
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(200);
  });
});
