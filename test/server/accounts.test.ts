// Accounts and grants run by their operators: create, edit, deactivate and reactivate, reset a password, clear
// sign-in delays, demote a super admin, and grant or remove keys without ever granting more than one holds.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { USER_SORTABLE } from '../../server/src/modules/users/repository.js';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import {
  aCluster,
  aUser,
  aUserWith,
  FACTORY_PASSWORD,
  type Grant as HeldKey,
  type UserFields,
  unique,
} from '../support/factory.js';
import type {
  AuditEventRecord,
  ClusterMemberRecord,
  GrantRecord,
  LoginAttemptRecord,
  RefreshTokenRecord,
  SessionRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { anyString, stringMatching } from '../support/matchers.js';

type UserAccount = components['schemas']['UserAccount'];
type UserAccountPage = components['schemas']['UserAccountPage'];
type Grant = components['schemas']['Grant'];
type GrantList = components['schemas']['GrantList'];

describe('the account list sort', () => {
  it('when accounts are sorted, then the server sorts by exactly the fields the contract allows', () => {
    const op = operationsOf(loadBundledSpec()).find((o) => o.operationId === 'listUsers')!;
    const sort = (op.parameters as Array<{ name: string; schema: { pattern: string } }>).find(
      (p) => p.name === 'sort',
    )!;
    const fields = /^\^\(([^)]+)\)/.exec(sort.schema.pattern)![1]!.split('|').sort();
    expect(Object.keys(USER_SORTABLE).sort()).toEqual(fields);
  });
});

describe.each(engines())('accounts on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let adminId: string;
  let clusterA: string;
  let clusterB: string;
  const uniq = () => randomUUID().slice(0, 8);

  const call = (method: string, path: string, json?: unknown, token = admin, headers: Record<string, string> = {}) =>
    t.fetch(path, { method, token, json, headers });
  async function ok<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
    const r = await res;
    expect(r.status, await r.clone().text()).toBe(status);
    return (await r.json()) as T;
  }
  const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    adminId = (
      (await t.knex<UserRecord>('users').select('id').where({ username: t.config.admin.username }).first()) as {
        id: string;
      }
    ).id;
    clusterA = (await aCluster(t, { code: unique('AC'), name: 'Accounts' })).id;
    clusterB = (await aCluster(t, { code: unique('AC'), name: 'Accounts' })).id;
  });
  afterAll(() => t?.close());

  describe('creating and editing', () => {
    it('when an account is created, then it is active, has no grants, must change its password, and can sign in with it', async () => {
      const username = `new-${uniq()}`;
      const res = await call('POST', '/api-system/users', {
        username,
        email: `${username}@Example.com`,
        firstname: 'Somchai',
        middlename: null,
        lastname: 'Jaidee',
        password: FACTORY_PASSWORD,
      });
      const created = await ok<UserAccount>(res, 201);
      expect(res.headers.get('location')).toBe(`/api-system/users/${created.id}`);
      expect(res.headers.get('etag')).toMatch(/^W\//);
      expect(created).toMatchObject({
        username,
        is_active: true,
        is_super_admin: false,
        must_change_password: true,
        sign_in_delayed: false,
        grant_count: 0,
        display_name: 'Somchai Jaidee',
        last_sign_in_at: null,
      });
      const row = (await t.knex<UserRecord>('users').where({ id: created.id }).first())!;
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(FACTORY_PASSWORD);
      const got = await call('GET', `/api-system/users/${created.id}`);
      expect(await ok<UserAccount>(got.clone())).toEqual(created);
      expect(got.headers.get('etag')).toBe(res.headers.get('etag'));
      const login = await t.fetch('/api/auth/login', {
        method: 'POST',
        json: { username, password: FACTORY_PASSWORD },
      });
      expect(login.status).toBe(200);
    });

    it('when a username or email is already taken (in any case), then 409 names which', async () => {
      const taken = await aUserWith(t, []);
      const dupUser = await call('POST', '/api-system/users', {
        username: taken.username.toUpperCase(),
        email: `other-${uniq()}@example.com`,
        password: FACTORY_PASSWORD,
      });
      expect(dupUser.status).toBe(409);
      expect(await detail(dupUser)).toMatch(/username/);
      const dupEmail = await call('POST', '/api-system/users', {
        username: `other-${uniq()}`,
        email: `${taken.username}@EXAMPLE.com`,
        password: FACTORY_PASSWORD,
      });
      expect(dupEmail.status).toBe(409);
      expect(await detail(dupEmail)).toMatch(/email/);
      const other = await aUserWith(t, []);
      const edit = await call('PUT', `/api-system/users/${other.id}`, {
        username: taken.username,
        email: `${other.username}@example.com`,
        firstname: null,
        middlename: null,
        lastname: null,
      });
      expect(edit.status).toBe(409);
      expect(await detail(edit)).toMatch(/username/);
    });

    it('when the password breaks a rule, then 400 names the rule', async () => {
      const username = `weak-${uniq()}`;
      const short = await call('POST', '/api-system/users', {
        username,
        email: `${username}@example.com`,
        password: 'short',
      });
      expect(short.status).toBe(400);
      expect(await detail(short)).toMatch(/at least 12 characters/);
      const own = await call('POST', '/api-system/users', {
        username,
        email: `${username}@example.com`,
        password: `${username}-2026-x`,
      });
      expect(own.status).toBe(400);
      expect(await detail(own)).toMatch(/username or the email/);
      const common = await call('POST', '/api-system/users', {
        username,
        email: `${username}@example.com`,
        password: 'password1234',
      });
      expect(common.status).toBe(400);
      expect(await detail(common)).toMatch(/common passwords/);
      expect(await t.knex<UserRecord>('users').where({ username }).first()).toBeUndefined();
    });

    it('when an account is edited with a stale ETag, then 412; with the current one, then the identity is replaced', async () => {
      const a = await aUserWith(t, [], { firstname: 'Old' });
      const got = await call('GET', `/api-system/users/${a.id}`);
      const etag = got.headers.get('etag')!;
      const body = {
        username: a.username,
        email: `${a.username}@example.com`,
        firstname: 'New',
        middlename: null,
        lastname: 'Name',
      };
      const first = await ok<UserAccount>(call('PUT', `/api-system/users/${a.id}`, body, admin, { 'If-Match': etag }));
      expect(first).toMatchObject({ firstname: 'New', lastname: 'Name', display_name: 'New Name' });
      const stale = await call('PUT', `/api-system/users/${a.id}`, { ...body, firstname: 'Again' }, admin, {
        'If-Match': etag,
      });
      expect(stale.status).toBe(412);
      expect(await call('GET', `/api-system/users/${randomUUID()}`).then((r) => r.status)).toBe(404);
    });

    it('when the super admin flag is sent, then the contract refuses it (it can never be granted through the API)', async () => {
      const a = await aUserWith(t, []);
      const res = await call('PUT', `/api-system/users/${a.id}`, {
        username: a.username,
        email: `${a.username}@example.com`,
        firstname: null,
        middlename: null,
        lastname: null,
        is_super_admin: true,
      });
      expect(res.status).toBe(400);
      expect((await t.knex<UserRecord>('users').where({ id: a.id }).first())!.is_super_admin).toBe(false);
      const grant = await call('POST', `/api-system/users/${a.id}/grants`, {
        permission_key: 'super_admin',
        cluster_id: null,
      });
      expect(grant.status).toBe(400);
    });
  });

  describe('deactivating, reactivating, resetting, unlocking', () => {
    it('when an account is deactivated, then its next request is 401 and its refresh token no longer works; reactivated, it signs in again', async () => {
      const a = await aUserWith(t, [['cluster.read', null]]);
      const login = await ok<{ access_token: string; refresh_token: string }>(
        t.fetch('/api/auth/login', { method: 'POST', json: { username: a.username, password: FACTORY_PASSWORD } }),
      );
      expect((await t.fetch('/api-system/clusters', { token: login.access_token })).status).toBe(200);
      const off = await ok<UserAccount>(call('POST', `/api-system/users/${a.id}/deactivate`));
      expect(off.is_active).toBe(false);
      expect((await t.fetch('/api-system/clusters', { token: login.access_token })).status).toBe(401);
      expect(
        (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: login.refresh_token } }))
          .status,
      ).toBe(401);
      expect(await t.knex<SessionRecord>('sessions').where({ user_id: a.id }).whereNull('revoked_at')).toHaveLength(0);
      expect(
        await t.knex<RefreshTokenRecord>('refresh_tokens').where({ user_id: a.id }).whereNull('revoked_at'),
      ).toHaveLength(0);
      // Deactivating an inactive account changes nothing.
      const again = await call('POST', `/api-system/users/${a.id}/deactivate`);
      expect(again.status).toBe(200);
      const on = await ok<UserAccount>(call('POST', `/api-system/users/${a.id}/reactivate`));
      expect(on).toMatchObject({ is_active: true, grant_count: 1 });
      expect(
        (
          await t.fetch('/api/auth/login', {
            method: 'POST',
            json: { username: a.username, password: FACTORY_PASSWORD },
          })
        ).status,
      ).toBe(200);
    });

    it('when a caller deactivates their own account, then 409; a super admin, unless a super admin itself, then 403', async () => {
      const manager = await aUserWith(t, [['user.manage', null]]);
      const self = await call('POST', `/api-system/users/${manager.id}/deactivate`, undefined, manager.token);
      expect(self.status).toBe(409);
      expect(await detail(self)).toMatch(/your own account/);
      // Only a super admin acts on a super admin; a super admin caller is itself an active one, so the last active
      // super admin is never deactivated (the race of two super admins is below).
      const last = await call('POST', `/api-system/users/${adminId}/deactivate`, undefined, manager.token);
      expect(last.status).toBe(403);
      expect(await detail(last)).toBe('Only a super admin may deactivate a super admin');
      expect((await t.knex<UserRecord>('users').where({ id: adminId }).first())!.is_active).toBe(true);
    });

    it('when a password is reset, then the user must change it, every session ends, and the new one signs in', async () => {
      const a = await aUserWith(t, []);
      const login = await ok<{ access_token: string; refresh_token: string }>(
        t.fetch('/api/auth/login', { method: 'POST', json: { username: a.username, password: FACTORY_PASSWORD } }),
      );
      const weak = await call('POST', `/api-system/users/${a.id}/password-reset`, { password: 'tiny' });
      expect(weak.status).toBe(400);
      expect(await detail(weak)).toMatch(/at least 12 characters/);
      const reset = await ok<UserAccount>(
        call('POST', `/api-system/users/${a.id}/password-reset`, { password: 'Reset-Andaman-2026' }),
      );
      expect(reset.must_change_password).toBe(true);
      expect(
        (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: login.refresh_token } }))
          .status,
      ).toBe(401);
      expect(
        (
          await t.fetch('/api/auth/login', {
            method: 'POST',
            json: { username: a.username, password: FACTORY_PASSWORD },
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await t.fetch('/api/auth/login', {
            method: 'POST',
            json: { username: a.username, password: 'Reset-Andaman-2026' },
          })
        ).status,
      ).toBe(200);
      const [event] = await t
        .knex<AuditEventRecord>('audit_events')
        .where({ action: 'resetUserPassword', target_id: a.id });
      expect(JSON.stringify(event)).not.toMatch(/Reset-Andaman|scrypt|password_hash/);
    });

    it('when an account is unlocked, then no client of it waits any longer', async () => {
      const a = await aUserWith(t, []);
      await t.knex<LoginAttemptRecord>('login_attempts').insert([
        {
          account_key: a.id,
          client: '203.0.113.7',
          failed_count: 6,
          delayed_until: t.knex.raw("now() + interval '10 minutes'"),
        },
        { account_key: a.id, client: '198.51.100.2', failed_count: 2, delayed_until: null },
      ]);
      expect((await ok<UserAccount>(call('GET', `/api-system/users/${a.id}`))).sign_in_delayed).toBe(true);
      const unlocked = await ok<UserAccount>(call('POST', `/api-system/users/${a.id}/unlock`));
      expect(unlocked.sign_in_delayed).toBe(false);
      expect(await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: a.id })).toHaveLength(0);
    });
  });

  describe('listing', () => {
    it('when accounts are searched, filtered, sorted and paged, then the page holds exactly the matching accounts', async () => {
      const tag = uniq();
      const make = async (suffix: string, grants: HeldKey[] = [], fields: UserFields = {}) =>
        (await aUser(t, { ...fields, username: `lst-${tag}-${suffix}` }, grants)).id;
      const plain = await make('a');
      const granted = await make('b', [
        ['cluster.read', clusterA],
        ['cluster.update', clusterA],
      ]);
      const boss = await make('c', [], { is_super_admin: true });
      const member = await make('d');
      await t
        .knex<ClusterMemberRecord>('cluster_users')
        .insert({ user_id: member, cluster_id: clusterA, role: 'user' });
      const inactive = await make('e');
      await t.knex<UserRecord>('users').where({ id: inactive }).update({ is_active: false });
      try {
        const list = async (q: string) =>
          await ok<UserAccountPage>(call('GET', `/api-system/users?search=lst-${tag}&${q}`));
        const ids = async (q: string) => (await list(q)).data.map((u) => u.id);
        expect(await ids('')).toEqual([plain, granted, boss, member, inactive]);
        expect(await ids('sort=username:desc')).toEqual([inactive, member, boss, granted, plain]);
        expect(await ids('is_active=false')).toEqual([inactive]);
        expect(await ids('has_grants=true')).toEqual([granted, boss]);
        expect(await ids('has_grants=false')).toEqual([plain, member, inactive]);
        expect(await ids(`cluster_id=${clusterA}`)).toEqual([granted, member]);
        expect(await ids(`cluster_id=${clusterB}`)).toEqual([]);
        const page2 = await list('perpage=2&page=2');
        expect(page2.data.map((u) => u.id)).toEqual([boss, member]);
        expect(page2.paginate).toEqual({ total: 5, page: 2, perpage: 2, pages: 3, next_cursor: anyString() });
        expect(page2.data.find((u) => u.id === boss)).toMatchObject({ is_super_admin: true, grant_count: 0 });
        expect((await list('has_grants=true')).data.find((u) => u.id === granted)!.grant_count).toBe(2);
        expect((await call('GET', '/api-system/users?sort=password_hash:asc')).status).toBe(400);
        // Wildcards are searched as text.
        expect((await list('perpage=1')).paginate.total).toBe(5);
        expect((await ok<UserAccountPage>(call('GET', `/api-system/users?search=lst-${tag}%25`))).paginate.total).toBe(
          0,
        );
      } finally {
        await t.knex<UserRecord>('users').where({ id: boss }).update({ is_super_admin: false });
      }
    });

    it('when a caller without user.read lists accounts, then 403', async () => {
      const reader = await aUserWith(t, [['cluster.read', null]]);
      expect((await call('GET', '/api-system/users', undefined, reader.token)).status).toBe(403);
      const userReader = await aUserWith(t, [['user.read', null]]);
      expect((await call('GET', '/api-system/users', undefined, userReader.token)).status).toBe(200);
      expect(
        (
          await call(
            'POST',
            '/api-system/users',
            { username: `x-${uniq()}`, email: `x-${uniq()}@example.com`, password: FACTORY_PASSWORD },
            userReader.token,
          )
        ).status,
      ).toBe(403);
    });
  });

  describe('grants', () => {
    it('when a key is granted and removed, then the list shows it oldest first with its cluster and who granted it, and every change is audited', async () => {
      const a = await aUserWith(t, []);
      const first = await ok<Grant>(
        call('POST', `/api-system/users/${a.id}/grants`, { permission_key: 'cluster.read', cluster_id: clusterA }),
        201,
      );
      const second = await ok<Grant>(
        call('POST', `/api-system/users/${a.id}/grants`, { permission_key: 'user.read', cluster_id: null }),
        201,
      );
      expect(first).toMatchObject({
        permission_key: 'cluster.read',
        cluster_id: clusterA,
        cluster_code: stringMatching(/^AC-/),
        cluster_name: 'Accounts',
        granted_by_name: anyString(),
      });
      expect(second).toMatchObject({ cluster_id: null, cluster_code: null, cluster_name: null });
      const list = await ok<GrantList>(call('GET', `/api-system/users/${a.id}/grants`));
      expect(list).toEqual({ data: [first, second], is_super_admin: false });
      const dup = await call('POST', `/api-system/users/${a.id}/grants`, {
        permission_key: 'cluster.read',
        cluster_id: clusterA,
      });
      expect(dup.status).toBe(409);
      const removed = await call('DELETE', `/api-system/users/${a.id}/grants/${first.id}`);
      expect(removed.status).toBe(204);
      expect((await ok<GrantList>(call('GET', `/api-system/users/${a.id}/grants`))).data).toEqual([second]);
      const other = await aUserWith(t, []);
      expect((await call('DELETE', `/api-system/users/${other.id}/grants/${second.id}`)).status).toBe(404);
      expect((await call('DELETE', `/api-system/users/${a.id}/grants/${first.id}`)).status).toBe(404);
      // The account itself was written straight to the database by this test: only the API's own events count here.
      const events = await t
        .knex<AuditEventRecord>('audit_events')
        .where({ target_type: 'user', target_id: a.id })
        .whereNot({ action: 'unattributedChange' })
        .orderBy('at');
      expect(events.map((e) => e.action)).toEqual(['addUserGrant', 'addUserGrant', 'removeUserGrant']);
      expect(events.every((e) => e.cluster_id === null)).toBe(true);
      expect(events[0]!.changes).toMatchObject({
        permission_key: { before: null, after: 'cluster.read' },
        cluster_id: { before: null, after: clusterA },
      });
    });

    it('when a caller grants or removes a key it does not hold on that scope, then 403 names the key and scope and nothing changes', async () => {
      const granter = await aUserWith(t, [
        ['grant.manage', null],
        ['cluster.update', clusterA],
      ]);
      const a = await aUserWith(t, []);
      const onA = await call(
        'POST',
        `/api-system/users/${a.id}/grants`,
        { permission_key: 'cluster.update', cluster_id: clusterA },
        granter.token,
      );
      expect(onA.status).toBe(201);
      const onB = await call(
        'POST',
        `/api-system/users/${a.id}/grants`,
        { permission_key: 'cluster.update', cluster_id: clusterB },
        granter.token,
      );
      expect(onB.status).toBe(403);
      expect(await detail(onB)).toBe(
        'You can grant cluster.update on this cluster only if you hold it there; ask someone who holds it to do it',
      );
      const everywhere = await call(
        'POST',
        `/api-system/users/${a.id}/grants`,
        { permission_key: 'cluster.update', cluster_id: null },
        granter.token,
      );
      expect(everywhere.status).toBe(403);
      expect(await detail(everywhere)).toMatch(/cluster\.update on all clusters/);
      const platform = await call(
        'POST',
        `/api-system/users/${a.id}/grants`,
        { permission_key: 'user.manage', cluster_id: null },
        granter.token,
      );
      expect(platform.status).toBe(403);
      // Removing follows the same rule.
      const theirs = await ok<Grant>(
        call('POST', `/api-system/users/${a.id}/grants`, { permission_key: 'cluster.update', cluster_id: clusterB }),
        201,
      );
      const remove = await call('DELETE', `/api-system/users/${a.id}/grants/${theirs.id}`, undefined, granter.token);
      expect(remove.status).toBe(403);
      expect(await detail(remove)).toMatch(/remove cluster\.update on this cluster/);
      expect(
        (await t.knex<GrantRecord>('permission_grants').where({ user_id: a.id })).map((g) => g.cluster_id).sort(),
      ).toEqual([clusterA, clusterB].sort());
    });

    it('when a platform key is granted on a cluster, then 400; an unknown key, 400; an unknown cluster, 404; an unknown account, 404', async () => {
      const a = await aUserWith(t, []);
      const onCluster = await call('POST', `/api-system/users/${a.id}/grants`, {
        permission_key: 'grant.manage',
        cluster_id: clusterA,
      });
      expect(onCluster.status).toBe(400);
      expect(await detail(onCluster)).toMatch(/platform key/);
      expect(
        (
          await call('POST', `/api-system/users/${a.id}/grants`, {
            permission_key: 'cluster.launch',
            cluster_id: clusterA,
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await call('POST', `/api-system/users/${a.id}/grants`, {
            permission_key: 'cluster.read',
            cluster_id: randomUUID(),
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await call('POST', `/api-system/users/${randomUUID()}/grants`, {
            permission_key: 'cluster.read',
            cluster_id: null,
          })
        ).status,
      ).toBe(404);
      expect(await t.knex<GrantRecord>('permission_grants').where({ user_id: a.id })).toHaveLength(0);
    });

    it("when a caller's own grant is removed while it grants that key, then the grant never outlives the removal", async () => {
      for (let round = 0; round < 5; round++) {
        const granter = await aUserWith(t, [
          ['grant.manage', null],
          ['cluster.delete', clusterA],
        ]);
        const a = await aUserWith(t, []);
        const own = (await t
          .knex<GrantRecord>('permission_grants')
          .where({ user_id: granter.id, permission_key: 'cluster.delete' })
          .first())!;
        const [add, remove] = await Promise.all([
          call(
            'POST',
            `/api-system/users/${a.id}/grants`,
            { permission_key: 'cluster.delete', cluster_id: clusterA },
            granter.token,
          ),
          call('DELETE', `/api-system/users/${granter.id}/grants/${own.id}`),
        ]);
        expect(remove.status).toBe(204);
        expect([201, 403]).toContain(add.status);
        const given = await t.knex<GrantRecord>('permission_grants').where({ user_id: a.id });
        if (add.status === 201) {
          // It was granted before the removal: the removal's event comes after the grant's.
          const events = await t
            .knex<AuditEventRecord>('audit_events')
            .whereIn('target_id', [a.id, granter.id])
            .whereIn('action', ['addUserGrant', 'removeUserGrant'])
            .orderBy('at');
          expect(events.map((e) => e.action)).toEqual(['addUserGrant', 'removeUserGrant']);
          expect(given).toHaveLength(1);
        } else {
          expect(given).toHaveLength(0);
        }
        // Afterwards it can no longer grant it.
        const later = await call(
          'POST',
          `/api-system/users/${a.id}/grants`,
          { permission_key: 'cluster.delete', cluster_id: clusterA },
          granter.token,
        );
        expect([403, 409]).toContain(later.status);
        expect(await t.knex<GrantRecord>('permission_grants').where({ user_id: a.id })).toHaveLength(given.length);
      }
    });
  });

  describe('super admins', () => {
    it('when a caller who is not a super admin demotes one, then 403; a target who is not one, 409; the last one, 409', async () => {
      const other = await aUserWith(t, [], { is_super_admin: true });
      try {
        const manager = await aUserWith(t, [['grant.manage', null]]);
        const res = await call('DELETE', `/api-system/users/${other.id}/super-admin`, undefined, manager.token);
        expect(res.status).toBe(403);
        expect(await detail(res)).toMatch(/Only a super admin/);
        const plain = await aUserWith(t, []);
        const notOne = await call('DELETE', `/api-system/users/${plain.id}/super-admin`);
        expect(notOne.status).toBe(409);
        expect(await detail(notOne)).toMatch(/is not a super admin/);
        const demoted = await ok<UserAccount>(call('DELETE', `/api-system/users/${other.id}/super-admin`));
        expect(demoted.is_super_admin).toBe(false);
        const last = await call('DELETE', `/api-system/users/${adminId}/super-admin`);
        expect(last.status).toBe(409);
        expect(await detail(last)).toMatch(/last active super admin/);
      } finally {
        await t.knex<UserRecord>('users').where({ id: other.id }).update({ is_super_admin: false });
      }
    });

    it('when two super admins demote each other at the same moment, then exactly one super admin is left', async () => {
      // Only these two are active super admins during the race.
      await t.knex<UserRecord>('users').where({ id: adminId }).update({ is_active: false });
      try {
        for (let round = 0; round < 3; round++) {
          const x = await aUserWith(t, [], { is_super_admin: true });
          const y = await aUserWith(t, [], { is_super_admin: true });
          const [a, b] = await Promise.all([
            call('DELETE', `/api-system/users/${y.id}/super-admin`, undefined, x.token),
            call('DELETE', `/api-system/users/${x.id}/super-admin`, undefined, y.token),
          ]);
          expect([a.status, b.status].sort()).toEqual([200, expect.any(Number)]);
          expect([403, 409]).toContain([a.status, b.status].find((s) => s !== 200));
          const left = await t.knex<UserRecord>('users').whereIn('id', [x.id, y.id]).where({ is_super_admin: true });
          expect(left).toHaveLength(1);
          await t.knex<UserRecord>('users').whereIn('id', [x.id, y.id]).update({ is_super_admin: false });
        }
        // Nor can a deactivation and a demotion together leave none.
        const x = await aUserWith(t, [], { is_super_admin: true });
        const y = await aUserWith(t, [], { is_super_admin: true });
        await Promise.all([
          call('POST', `/api-system/users/${y.id}/deactivate`, undefined, x.token),
          call('DELETE', `/api-system/users/${x.id}/super-admin`, undefined, y.token),
        ]);
        expect(
          await t
            .knex<UserRecord>('users')
            .whereIn('id', [x.id, y.id])
            .where({ is_super_admin: true, is_active: true }),
        ).toHaveLength(1);
        await t.knex<UserRecord>('users').whereIn('id', [x.id, y.id]).update({ is_super_admin: false });
      } finally {
        await t.knex<UserRecord>('users').where({ id: adminId }).update({ is_active: true });
      }
    });
  });
});
