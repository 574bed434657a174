import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { aBusinessUnit, aCluster, aUser, aUserWith, clusterIdByCode, membersOf } from '../support/factory.js';
import type { BusinessUnitRecord, UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type ClusterUser = components['schemas']['ClusterUser'];
type BusinessUnitUser = components['schemas']['BusinessUnitUser'];
type Problem = components['schemas']['Problem'];

const tag = () => randomUUID().slice(0, 6).toUpperCase();

describe.each(engines())('memberships on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  const addClusterUser = (token: string, body: Record<string, unknown>) =>
    t.fetch('/api-system/user/clusters', { method: 'POST', token, json: body });
  const addBuUser = (token: string, body: Record<string, unknown>) =>
    t.fetch('/api-system/user/business-units', { method: 'POST', token, json: body });

  async function clusterUsers(clusterId: string, token = admin): Promise<ClusterUser[]> {
    const res = await t.fetch(`/api-system/user/clusters/${clusterId}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { data: ClusterUser[] }).data;
  }

  async function buUsers(buId: string, token = admin): Promise<BusinessUnitUser[]> {
    const res = await t.fetch(`/api-system/user/business-units/${buId}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { data: BusinessUnitUser[] }).data;
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  describe('cluster users', () => {
    it('when a user is attached, then 201 returns the membership, active, role user by default, with display data', async () => {
      const c = (await aCluster(t)).id;
      const u = await aUser(t, { firstname: 'Ada', middlename: 'M', lastname: 'Lovelace' });
      const res = await addClusterUser(admin, { user_id: u.id, cluster_id: c });
      expect(res.status, await res.clone().text()).toBe(201);
      const m = (await res.json()) as ClusterUser;
      expect(m).toMatchObject({
        user_id: u.id,
        cluster_id: c,
        role: 'user',
        is_active: true,
        parent_bu_id: null,
        parent_bu_name: null,
        username: u.username,
        email: `${u.username}@example.com`,
        userInfo: { firstname: 'Ada', middlename: 'M', lastname: 'Lovelace' },
      });
      expect(m.id).not.toBe(u.id);
      expect((await clusterUsers(c)).map((x) => x.id)).toEqual([m.id]);
    });

    it('when the user is already attached, then 409 problem', async () => {
      const c = (await aCluster(t)).id;
      const u = await aUser(t);
      expect((await addClusterUser(admin, { user_id: u.id, cluster_id: c, role: 'admin' })).status).toBe(201);
      const dup = await addClusterUser(admin, { user_id: u.id, cluster_id: c });
      expect(dup.status).toBe(409);
      expect(dup.headers.get('content-type')).toMatch(/application\/problem\+json/);
    });

    it('when the list is read, then rows are sorted by display name then email and carry the parent BU name', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c, max_license_users: null, name: 'Parent Hotel' })).id;
      const zed = await aUser(t, { firstname: 'Zed' });
      const amy = await aUser(t, { firstname: 'Amy', lastname: 'Zulu' });
      const bare = await aUser(t, { username: `aaa-${tag().toLowerCase()}` });
      for (const u of [zed, amy])
        expect((await addClusterUser(admin, { user_id: u.id, cluster_id: c })).status).toBe(201);
      expect((await addClusterUser(admin, { user_id: bare.id, cluster_id: c, parent_bu_id: bu })).status).toBe(201);
      const rows = await clusterUsers(c);
      expect(rows.map((r) => r.user_id)).toEqual([bare.id, amy.id, zed.id]);
      expect(rows[0]).toMatchObject({
        parent_bu_id: bu,
        parent_bu_name: 'Parent Hotel',
        userInfo: { firstname: null, middlename: null, lastname: null },
      });
    });

    it('when a parent BU is given, then the user also becomes its member; a BU of another cluster is a 409', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c })).id;
      const foreign = (await aBusinessUnit(t)).id;
      const u = await aUser(t);
      const wrong = await addClusterUser(admin, { user_id: u.id, cluster_id: c, parent_bu_id: foreign });
      expect(wrong.status).toBe(409);
      expect(await clusterUsers(c)).toEqual([]);
      expect(await buUsers(foreign)).toEqual([]);
      const ok = await addClusterUser(admin, { user_id: u.id, cluster_id: c, parent_bu_id: bu });
      expect(ok.status).toBe(201);
      expect((await buUsers(bu)).map((m) => [m.user_id, m.role])).toEqual([[u.id, 'user']]);
    });

    it('when the parent BU is at max_license_users, then 409 and nothing is saved; a user already in that BU is allowed', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c, max_license_users: 2 })).id;
      await membersOf(t, bu, 2);
      const newcomer = await aUser(t);
      const full = await addClusterUser(admin, { user_id: newcomer.id, cluster_id: c, parent_bu_id: bu });
      expect(full.status).toBe(409);
      expect(((await full.json()) as Problem).detail).toBe(
        'Cannot add user: business unit has reached its license limit (2/2)',
      );
      expect(await clusterUsers(c)).toEqual([]);
      const member = (await buUsers(bu))[0]!;
      expect((await addClusterUser(admin, { user_id: member.user_id, cluster_id: c, parent_bu_id: bu })).status).toBe(
        201,
      );
      expect(await buUsers(bu)).toHaveLength(2);
    });

    it('when role and parent BU change, then they are saved; a full BU is 409 but the current BU stays allowed; null clears it', async () => {
      const c = (await aCluster(t)).id;
      const home = (await aBusinessUnit(t, { cluster_id: c, max_license_users: 1 })).id;
      const full = (await aBusinessUnit(t, { cluster_id: c, max_license_users: 1 })).id;
      const roomy = (await aBusinessUnit(t, { cluster_id: c, max_license_users: 5, name: 'Roomy' })).id;
      await membersOf(t, full, 1);
      const u = await aUser(t);
      const m = (await (
        await addClusterUser(admin, { user_id: u.id, cluster_id: c, parent_bu_id: home })
      ).json()) as ClusterUser;
      const put = (body: unknown) =>
        t.fetch(`/api-system/user/clusters/${m.id}`, { method: 'PUT', token: admin, json: body });

      // home is now at its limit (1/1) because of this very user: keeping it is always allowed.
      const keep = await put({ role: 'admin', parent_bu_id: home });
      expect(keep.status).toBe(200);
      expect((await keep.json()) as ClusterUser).toMatchObject({ role: 'admin', parent_bu_id: home });

      const denied = await put({ parent_bu_id: full });
      expect(denied.status).toBe(409);
      expect(((await denied.json()) as Problem).detail).toBe(
        'Cannot add user: business unit has reached its license limit (1/1)',
      );

      const moved = await put({ parent_bu_id: roomy });
      expect(moved.status).toBe(200);
      expect((await moved.json()) as ClusterUser).toMatchObject({
        role: 'admin',
        parent_bu_id: roomy,
        parent_bu_name: 'Roomy',
      });
      expect((await buUsers(roomy)).map((x) => x.user_id)).toEqual([u.id]);

      const cleared = await put({ parent_bu_id: null });
      expect(((await cleared.json()) as ClusterUser).parent_bu_id).toBeNull();
      expect((await put({})).status).toBe(400);
      expect((await put({ role: 'owner' })).status).toBe(400);
    });

    it("when a cluster user is removed, then the row and the user's memberships of that cluster's BUs go, other clusters untouched", async () => {
      const c = (await aCluster(t)).id;
      const other = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c })).id;
      const otherBu = (await aBusinessUnit(t, { cluster_id: other })).id;
      const u = await aUser(t);
      const m = (await (
        await addClusterUser(admin, { user_id: u.id, cluster_id: c, parent_bu_id: bu })
      ).json()) as ClusterUser;
      await addClusterUser(admin, { user_id: u.id, cluster_id: other, parent_bu_id: otherBu });
      expect((await t.fetch(`/api-system/user/clusters/${m.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
      expect(await clusterUsers(c)).toEqual([]);
      expect(await buUsers(bu)).toEqual([]);
      expect((await clusterUsers(other)).map((x) => x.user_id)).toEqual([u.id]);
      expect((await buUsers(otherBu)).map((x) => x.user_id)).toEqual([u.id]);
      expect((await t.fetch(`/api-system/user/clusters/${m.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
    });

    it('when ids are malformed, unknown or the user does not exist, then 400 or 404', async () => {
      const c = (await aCluster(t)).id;
      expect((await t.fetch('/api-system/user/clusters/xyz', { token: admin })).status).toBe(400);
      expect((await t.fetch(`/api-system/user/clusters/${randomUUID()}`, { token: admin })).status).toBe(404);
      expect((await addClusterUser(admin, { user_id: randomUUID(), cluster_id: c })).status).toBe(404);
      expect((await addClusterUser(admin, { user_id: (await aUser(t)).id, cluster_id: randomUUID() })).status).toBe(
        404,
      );
      expect((await addClusterUser(admin, { user_id: 'nope', cluster_id: c })).status).toBe(400);
      expect(
        (
          await t.fetch(`/api-system/user/clusters/${randomUUID()}`, {
            method: 'PUT',
            token: admin,
            json: { role: 'user' },
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('business unit users', () => {
    it('when a user is added, then 201 returns the membership; the list and the BU detail show it; a second add is 409', async () => {
      const bu = (await aBusinessUnit(t)).id;
      const u = await aUser(t, { firstname: 'Bo', lastname: 'Member' });
      const res = await addBuUser(admin, { user_id: u.id, business_unit_id: bu, role: 'admin' });
      expect(res.status, await res.clone().text()).toBe(201);
      const m = (await res.json()) as BusinessUnitUser;
      expect(m).toMatchObject({
        user_id: u.id,
        business_unit_id: bu,
        role: 'admin',
        is_active: true,
        username: u.username,
        userInfo: { firstname: 'Bo', middlename: null, lastname: 'Member' },
      });
      expect(m).not.toHaveProperty('is_default');
      expect((await buUsers(bu)).map((x) => x.id)).toEqual([m.id]);
      const detail = (await (
        await t.fetch(`/api-system/business-units/${bu}`, { token: admin })
      ).json()) as components['schemas']['BusinessUnit'];
      expect(detail.users!.map((x) => x.id)).toEqual([m.id]);
      const dup = await addBuUser(admin, { user_id: u.id, business_unit_id: bu });
      expect(dup.status).toBe(409);
    });

    it('when the BU is at max_license_users, then adding is 409 with the licence message', async () => {
      const bu = (await aBusinessUnit(t, { max_license_users: 1 })).id;
      await membersOf(t, bu, 1);
      const res = await addBuUser(admin, { user_id: (await aUser(t)).id, business_unit_id: bu });
      expect(res.status).toBe(409);
      expect(((await res.json()) as Problem).detail).toBe(
        'Cannot add user: business unit has reached its license limit (1/1)',
      );
      expect(await buUsers(bu)).toHaveLength(1);
    });

    it('when 10 users race to join a BU with max_license_users 3, then exactly 3 join', async () => {
      const bu = (await aBusinessUnit(t, { max_license_users: 3 })).id;
      const people = await Promise.all(Array.from({ length: 10 }, () => aUser(t)));
      const results = await Promise.all(people.map((p) => addBuUser(admin, { user_id: p.id, business_unit_id: bu })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status === 409)).toHaveLength(7);
      expect(await buUsers(bu)).toHaveLength(3);
    });

    it('when role and is_active are patched, then the membership changes, not the account', async () => {
      const bu = (await aBusinessUnit(t)).id;
      const u = await aUser(t);
      const m = (await (await addBuUser(admin, { user_id: u.id, business_unit_id: bu })).json()) as BusinessUnitUser;
      const res = await t.fetch(`/api-system/user/business-units/${m.id}`, {
        method: 'PATCH',
        token: admin,
        json: { role: 'admin', is_active: false },
      });
      expect(res.status).toBe(200);
      expect((await res.json()) as BusinessUnitUser).toMatchObject({ id: m.id, role: 'admin', is_active: false });
      const account = (await t.knex<UserRecord>('users').select('is_active').where({ id: u.id }).first()) as {
        is_active: boolean;
      };
      expect(account.is_active).toBe(true);
      const onlyRole = await t.fetch(`/api-system/user/business-units/${m.id}`, {
        method: 'PATCH',
        token: admin,
        json: { role: 'user' },
      });
      expect((await onlyRole.json()) as BusinessUnitUser).toMatchObject({ role: 'user', is_active: false });
      expect(
        (await t.fetch(`/api-system/user/business-units/${m.id}`, { method: 'PATCH', token: admin, json: {} })).status,
      ).toBe(400);
      expect(
        (
          await t.fetch(`/api-system/user/business-units/${randomUUID()}`, {
            method: 'PATCH',
            token: admin,
            json: { role: 'user' },
          })
        ).status,
      ).toBe(404);
    });

    it('when an edit names the version its list row showed (etag as If-Match), then it saves; a row changed since is 412', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c })).id;
      const u = await aUser(t);
      expect((await addClusterUser(admin, { user_id: u.id, cluster_id: c })).status).toBe(201);
      expect((await addBuUser(admin, { user_id: u.id, business_unit_id: bu })).status).toBe(201);
      const cases = [
        { list: () => clusterUsers(c), path: 'clusters', method: 'PUT' },
        { list: () => buUsers(bu), path: 'business-units', method: 'PATCH' },
      ];
      for (const { list, path, method } of cases) {
        const [shown] = await list();
        expect(shown!.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
        const first = await t.fetch(`/api-system/user/${path}/${shown!.id}`, {
          method,
          token: admin,
          headers: { 'If-Match': shown!.etag! },
          json: { role: 'admin' },
        });
        expect(first.status, await first.clone().text()).toBe(200);
        const saved = (await first.json()) as { etag: string };
        expect(first.headers.get('ETag')).toBe(saved.etag);
        expect((await list())[0]!.etag).toBe(saved.etag);
        // The same old version again: someone else's change came in between.
        const stale = await t.fetch(`/api-system/user/${path}/${shown!.id}`, {
          method,
          token: admin,
          headers: { 'If-Match': shown!.etag! },
          json: { role: 'user' },
        });
        expect(stale.status).toBe(412);
        expect((await list())[0]!.role).toBe('admin');
      }
    });

    it('when a member is removed by membership id, then it leaves the BU and no longer names it as parent BU', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c })).id;
      const u = await aUser(t);
      await addClusterUser(admin, { user_id: u.id, cluster_id: c, parent_bu_id: bu });
      const m = (await buUsers(bu))[0]!;
      expect(
        (await t.fetch(`/api-system/user/business-units/${m.id}`, { method: 'DELETE', token: admin })).status,
      ).toBe(204);
      expect(await buUsers(bu)).toEqual([]);
      expect((await clusterUsers(c))[0]!.parent_bu_id).toBeNull();
      expect(
        (await t.fetch(`/api-system/user/business-units/${m.id}`, { method: 'DELETE', token: admin })).status,
      ).toBe(404);
      // The user id is not a membership id.
      expect(
        (await t.fetch(`/api-system/user/business-units/${u.id}`, { method: 'DELETE', token: admin })).status,
      ).toBe(404);
    });

    it('when the BU is unknown or deleted, then adding is 404; a malformed id is 400', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c })).id;
      await t.knex<BusinessUnitRecord>('business_units').where({ id: bu }).update({ deleted_at: t.knex.fn.now() });
      expect((await addBuUser(admin, { user_id: (await aUser(t)).id, business_unit_id: bu })).status).toBe(404);
      expect((await addBuUser(admin, { user_id: (await aUser(t)).id, business_unit_id: randomUUID() })).status).toBe(
        404,
      );
      expect((await t.fetch('/api-system/user/business-units/12', { token: admin })).status).toBe(400);
      expect((await t.fetch(`/api-system/user/business-units/${randomUUID()}`, { token: admin })).status).toBe(404);
    });
  });

  describe('permissions', () => {
    it("when a caller has cluster.update on the cluster, then it manages cluster users; on another cluster it is refused, and that cluster's memberships are not there for it (404)", async () => {
      const mine = (await aCluster(t)).id;
      const theirs = (await aCluster(t)).id;
      const manager = await aUserWith(t, [['cluster.update', mine]]);
      const u = await aUser(t);
      const added = await addClusterUser(manager.token, { user_id: u.id, cluster_id: mine });
      expect(added.status).toBe(201);
      const m = (await added.json()) as ClusterUser;
      expect((await addClusterUser(manager.token, { user_id: u.id, cluster_id: theirs })).status).toBe(403);
      expect(
        (
          await t.fetch(`/api-system/user/clusters/${m.id}`, {
            method: 'PUT',
            token: manager.token,
            json: { role: 'admin' },
          })
        ).status,
      ).toBe(200);
      const theirMembership = (await (
        await addClusterUser(admin, { user_id: u.id, cluster_id: theirs })
      ).json()) as ClusterUser;
      expect(
        (
          await t.fetch(`/api-system/user/clusters/${theirMembership.id}`, {
            method: 'PUT',
            token: manager.token,
            json: { role: 'admin' },
          })
        ).status,
      ).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
      expect(
        (await t.fetch(`/api-system/user/clusters/${theirMembership.id}`, { method: 'DELETE', token: manager.token }))
          .status,
      ).toBe(404);
      expect(
        (await t.fetch(`/api-system/user/clusters/${m.id}`, { method: 'DELETE', token: manager.token })).status,
      ).toBe(204);
    });

    it('when a caller only reads, then it lists members but cannot change them (403)', async () => {
      const c = (await aCluster(t)).id;
      const bu = (await aBusinessUnit(t, { cluster_id: c })).id;
      const reader = await aUserWith(t, [['cluster.read', c]]);
      expect(await clusterUsers(c, reader.token)).toEqual([]);
      expect(await buUsers(bu, reader.token)).toEqual([]);
      expect((await addClusterUser(reader.token, { user_id: (await aUser(t)).id, cluster_id: c })).status).toBe(403);
      expect((await addBuUser(reader.token, { user_id: (await aUser(t)).id, business_unit_id: bu })).status).toBe(403);
      const outsider = await aUserWith(t, [['cluster.read', (await aCluster(t)).id]]);
      expect((await t.fetch(`/api-system/user/clusters/${c}`, { token: outsider.token })).status).toBe(403);
      expect((await t.fetch(`/api-system/user/business-units/${bu}`, { token: outsider.token })).status).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
    });

    it("when a caller has cluster.update on the BU's cluster, then it manages BU members; another cluster's BU is not there for it (404)", async () => {
      const mine = (await aBusinessUnit(t)).id;
      const manager = await aUserWith(t, [
        [
          'cluster.update',
          (await t.knex<BusinessUnitRecord>('business_units').select('cluster_id').where({ id: mine }).first())!
            .cluster_id,
        ],
      ]);
      const theirs = (await aBusinessUnit(t)).id;
      const u = await aUser(t);
      const res = await addBuUser(manager.token, { user_id: u.id, business_unit_id: mine });
      expect(res.status).toBe(201);
      const m = (await res.json()) as BusinessUnitUser;
      expect((await addBuUser(manager.token, { user_id: u.id, business_unit_id: theirs })).status).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
      const theirM = (await (
        await addBuUser(admin, { user_id: u.id, business_unit_id: theirs })
      ).json()) as BusinessUnitUser;
      expect(
        (
          await t.fetch(`/api-system/user/business-units/${theirM.id}`, {
            method: 'PATCH',
            token: manager.token,
            json: { is_active: false },
          })
        ).status,
      ).toBe(404);
      expect(
        (await t.fetch(`/api-system/user/business-units/${theirM.id}`, { method: 'DELETE', token: manager.token }))
          .status,
      ).toBe(404);
      expect(
        (
          await t.fetch(`/api-system/user/business-units/${m.id}`, {
            method: 'PATCH',
            token: manager.token,
            json: { is_active: false },
          })
        ).status,
      ).toBe(200);
      expect(
        (await t.fetch(`/api-system/user/business-units/${m.id}`, { method: 'DELETE', token: manager.token })).status,
      ).toBe(204);
    });

    it('when editor-a lists users, then CL-A is allowed and CL-B is 403', async () => {
      const editor = await t.login('editor-a');
      const a = await clusterUsers(await clusterIdByCode(t, 'CL-A'), editor);
      expect(a.map((r) => r.username)).toContain('editor-a');
      expect(
        (await t.fetch(`/api-system/user/clusters/${await clusterIdByCode(t, 'CL-B')}`, { token: editor })).status,
      ).toBe(403);
    });
  });
});
