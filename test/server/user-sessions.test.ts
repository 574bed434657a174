// Sessions an administrator can end: a user.manage holder sees another person's signed-in devices and ends one or
// all of them, under the delegation rule; each ended device is refused at its next request, and each action is in the
// trail (without any token).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import {
  aCluster,
  aUser,
  aUserWith,
  adminToken,
  bodyOf,
  detailOf,
  FACTORY_PASSWORD,
  unique,
} from '../support/factory.js';
import type { AuditEventRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type Session = components['schemas']['Session'];
type SessionList = components['schemas']['SessionList'];
type Problem = components['schemas']['Problem'];

/** An event as stored, with the labels the trail keeps of what it touched (ADR 0022). */
type EventRow = AuditEventRecord & { labels: Record<string, unknown> | null };

interface Pair {
  access_token: string;
  refresh_token: string;
}

describe.each(engines())('sessions an administrator can end on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  /** A platform-wide user.manage holder who holds nothing else: it may act on accounts that hold nothing. */
  let manager: { id: string; username: string; token: string };

  beforeAll(async () => {
    t = await startTestServer(engine, { env: { TRUST_PROXY: 'loopback' } });
    admin = await adminToken(t);
    manager = await aUserWith(t, ['user.manage']);
  });
  afterAll(() => t?.close());

  /** Signs in by password from the address and browser given (the server trusts the loopback proxy). */
  async function signIn(username: string, device: { ua: string; ip: string }): Promise<Pair & { sid: string }> {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username, password: FACTORY_PASSWORD },
      headers: { 'user-agent': device.ua, 'x-forwarded-for': device.ip },
    });
    const pair = await bodyOf<Pair>(res, 200);
    const sid = (JSON.parse(Buffer.from(pair.access_token.split('.')[1]!, 'base64url').toString()) as { sid: string })
      .sid;
    return { ...pair, sid };
  }
  const LAPTOP = { ua: 'Mozilla/5.0 (Macintosh) Safari/18.1', ip: '203.0.113.7' };
  const PHONE = { ua: 'Mozilla/5.0 (iPhone) Mobile Safari/18.1', ip: '198.51.100.23' };

  const sessionsOf = (id: string, token = manager.token) => t.fetch(`/api-system/users/${id}/sessions`, { token });
  const endOne = (id: string, sid: string, token = manager.token) =>
    t.fetch(`/api-system/users/${id}/sessions/${sid}`, { method: 'DELETE', token });
  const endAll = (id: string, token = manager.token) =>
    t.fetch(`/api-system/users/${id}/sessions/revoke-all`, { method: 'POST', token });
  /** The next request of a device: 200 while its session lives. */
  const nextRequest = (token: string) => t.fetch('/api/user/permission/platform', { token });
  const refresh = (refresh_token: string) =>
    t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token } });
  async function expectSessionEnded(res: Response): Promise<void> {
    expect(res.status).toBe(401);
    expect((await bodyOf<Problem>(res)).type).toMatch(/\/problems\/session-ended$/);
  }
  const eventsOf = (requestId: string | null) =>
    t.knex<EventRow>('audit_events').where({ request_id: requestId! }) as Promise<EventRow[]>;

  it("when a user.manage holder lists another person's sessions, then each shows its device, address, last use and how it signed in, and none is the caller's", async () => {
    const nok = await aUser(t);
    const laptop = await signIn(nok.username, LAPTOP);
    const phone = await signIn(nok.username, PHONE);
    const list = await bodyOf<SessionList>(await sessionsOf(nok.id), 200);
    // Most recently used first: the phone signed in last.
    expect(list.data.map((s) => s.id)).toEqual([phone.sid, laptop.sid]);
    const [onPhone, onLaptop] = list.data as [Session, Session];
    expect(onPhone).toMatchObject({
      ip: PHONE.ip,
      user_agent: PHONE.ua,
      current: false,
      methods: ['password'],
      sso_provider: null,
      second_factor_at: null,
    });
    expect(onLaptop).toMatchObject({ ip: LAPTOP.ip, user_agent: LAPTOP.ua, current: false, methods: ['password'] });
    expect(Date.parse(onPhone.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
    // The person's own list says the same of each, and marks the session asking as its own.
    const own = await bodyOf<SessionList>(
      await t.fetch('/api-system/me/sessions', { token: laptop.access_token }),
      200,
    );
    const asShown = ({ current: _current, ...rest }: Session) => rest;
    expect(own.data.map(asShown)).toEqual(list.data.map(asShown));
    expect(own.data.map((s) => s.current)).toEqual([false, true]);
  });

  it("when one of a person's sessions is ended, then that device answers 401 session-ended at its next request and cannot refresh, the other goes on, and the trail says who ended whose", async () => {
    const nok = await aUser(t);
    const laptop = await signIn(nok.username, LAPTOP);
    const phone = await signIn(nok.username, PHONE);
    const res = await endOne(nok.id, phone.sid);
    expect(res.status, await res.clone().text()).toBe(204);
    await expectSessionEnded(await nextRequest(phone.access_token));
    expect((await refresh(phone.refresh_token)).status).toBe(401);
    expect((await nextRequest(laptop.access_token)).status).toBe(200);
    expect((await bodyOf<SessionList>(await sessionsOf(nok.id), 200)).data.map((s) => s.id)).toEqual([laptop.sid]);
    // Ended already, or not this account's: not there.
    expect((await endOne(nok.id, phone.sid)).status).toBe(404);
    const other = await aUser(t);
    const othersSession = await signIn(other.username, LAPTOP);
    expect((await endOne(nok.id, othersSession.sid)).status).toBe(404);
    expect((await nextRequest(othersSession.access_token)).status).toBe(200);
    expect((await endOne(nok.id, randomUUID())).status).toBe(404);

    const [event] = await eventsOf(res.headers.get('x-request-id'));
    expect(event).toMatchObject({
      action: 'revokeUserSession',
      actor_id: manager.id,
      target_type: 'session',
      target_id: phone.sid,
    });
    // Named for History: "Ended a session of nok".
    expect(event!.labels).toMatchObject({ user_id: nok.id, user: nok.username });
    const recorded = JSON.stringify(event);
    for (const secret of [phone.access_token, phone.refresh_token, laptop.access_token, manager.token])
      expect(recorded).not.toContain(secret);
  });

  it('when every session of a person is ended, then each device answers 401 session-ended, the count is answered and audited, and a second time ends none', async () => {
    const nok = await aUser(t);
    const devices = [await signIn(nok.username, LAPTOP), await signIn(nok.username, PHONE)];
    const res = await endAll(nok.id);
    expect(await bodyOf(res, 200)).toEqual({ revoked: 2 });
    for (const d of devices) {
      await expectSessionEnded(await nextRequest(d.access_token));
      expect((await refresh(d.refresh_token)).status).toBe(401);
    }
    expect((await bodyOf<SessionList>(await sessionsOf(nok.id), 200)).data).toEqual([]);
    const [event] = await eventsOf(res.headers.get('x-request-id'));
    expect(event).toMatchObject({ action: 'revokeUserSessions', target_type: 'user', target_id: nok.id });
    expect(event!.changes).toEqual({ revoked: { before: null, after: 2 } });
    expect(event!.labels).toMatchObject({ user: nok.username });
    const recorded = JSON.stringify(event);
    for (const d of devices) {
      expect(recorded).not.toContain(d.access_token);
      expect(recorded).not.toContain(d.refresh_token);
    }
    expect(await bodyOf(await endAll(nok.id), 200)).toEqual({ revoked: 0 });
  });

  it('when a help desk lacks a key the person holds, then listing, ending one and ending all are each refused 403 naming the key, and every device goes on', async () => {
    const cluster = await aCluster(t);
    const helpDesk = await aUserWith(t, ['user.read', 'user.manage', 'cluster.read']);
    const nok = await aUser(t, {}, [['cluster.update', cluster.id]]);
    const device = await signIn(nok.username, LAPTOP);
    for (const res of [
      await sessionsOf(nok.id, helpDesk.token),
      await endOne(nok.id, device.sid, helpDesk.token),
      await endAll(nok.id, helpDesk.token),
    ]) {
      expect(res.status).toBe(403);
      const detail = await detailOf(res);
      expect(detail).toContain('cluster.update');
      expect(detail).toContain(cluster.id);
    }
    expect((await nextRequest(device.access_token)).status).toBe(200);
    // Holding that key too, the help desk may.
    const wider = await aUserWith(t, ['user.manage', ['cluster.update', cluster.id]]);
    expect((await sessionsOf(nok.id, wider.token)).status).toBe(200);
  });

  it("when a caller who is not a super admin acts on a super admin's sessions, then it is refused; a super admin may", async () => {
    const boss = await aUser(t, { is_super_admin: true });
    const device = await signIn(boss.username, LAPTOP);
    const everything = await aUserWith(t, [
      'user.read',
      'user.manage',
      'grant.manage',
      'cluster.read',
      'cluster.update',
    ]);
    for (const res of [
      await sessionsOf(boss.id, everything.token),
      await endOne(boss.id, device.sid, everything.token),
      await endAll(boss.id, everything.token),
    ]) {
      expect(res.status).toBe(403);
      expect(await detailOf(res)).toContain('super admin');
    }
    expect((await nextRequest(device.access_token)).status).toBe(200);
    expect((await endOne(boss.id, device.sid, admin)).status).toBe(204);
    await expectSessionEnded(await nextRequest(device.access_token));
  });

  it('when an API token calls them, then each is refused 403 api-token-refused, whatever its account holds', async () => {
    const account = await bodyOf<{ id: string }>(
      await t.fetch('/api-system/service-accounts', {
        method: 'POST',
        token: admin,
        json: { name: unique('svc').toLowerCase() },
      }),
      201,
    );
    await bodyOf(
      await t.fetch(`/api-system/users/${account.id}/grants`, {
        method: 'POST',
        token: admin,
        json: { permission_key: 'user.manage', cluster_id: null },
      }),
      201,
    );
    const { token } = await bodyOf<{ token: string }>(
      await t.fetch(`/api-system/service-accounts/${account.id}/tokens`, {
        method: 'POST',
        token: admin,
        json: { name: 'sync', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      }),
      201,
    );
    const nok = await aUser(t);
    const device = await signIn(nok.username, LAPTOP);
    for (const res of [
      await sessionsOf(nok.id, token),
      await endOne(nok.id, device.sid, token),
      await endAll(nok.id, token),
    ]) {
      expect(res.status).toBe(403);
      expect((await bodyOf<Problem>(res)).type).toMatch(/\/problems\/api-token-refused$/);
    }
    expect((await nextRequest(device.access_token)).status).toBe(200);
  });

  it('when the account is a service account, or the caller lacks user.manage, then it is refused (404 pointing at Service accounts, 403)', async () => {
    const account = await bodyOf<{ id: string; name: string }>(
      await t.fetch('/api-system/service-accounts', {
        method: 'POST',
        token: admin,
        json: { name: unique('svc').toLowerCase() },
      }),
      201,
    );
    for (const res of [
      await sessionsOf(account.id, admin),
      await endOne(account.id, randomUUID(), admin),
      await endAll(account.id, admin),
    ]) {
      expect(res.status).toBe(404);
      expect(await detailOf(res)).toContain(`/api-system/service-accounts/${account.id}`);
    }
    const reader = await aUserWith(t, ['user.read']);
    const nok = await aUser(t);
    expect((await sessionsOf(nok.id, reader.token)).status).toBe(403);
    expect((await endAll(nok.id, reader.token)).status).toBe(403);
    expect((await sessionsOf(randomUUID())).status).toBe(404);
  });

  it('when a user.manage holder lists its own account this way, then its own session is current, and ending it signs the caller out', async () => {
    const me = await aUser(t, {}, ['user.manage']);
    const here = await signIn(me.username, LAPTOP);
    const there = await signIn(me.username, PHONE);
    const list = await bodyOf<SessionList>(await sessionsOf(me.id, here.access_token), 200);
    expect(list.data.map((s) => [s.id, s.current])).toEqual([
      [there.sid, false],
      [here.sid, true],
    ]);
    expect((await endOne(me.id, here.sid, here.access_token)).status).toBe(204);
    await expectSessionEnded(await nextRequest(here.access_token));
    expect(await bodyOf(await endAll(me.id, there.access_token), 200)).toEqual({ revoked: 1 });
    await expectSessionEnded(await nextRequest(there.access_token));
  });
});
