import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { auditTrail } from '../../server/src/modules/audit/service.js';
import { clusterRepository } from '../../server/src/modules/clusters/repository.js';
import { aCluster, aUserWith, clusterIdByCode } from '../support/factory.js';
import {
  rawRows,
  type AuditEventRecord,
  type BusinessUnitRecord,
  type ClusterMemberRecord,
  type ClusterRecord,
  type UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { anyString } from '../support/matchers.js';

type Cluster = components['schemas']['Cluster'];
type ClusterPage = components['schemas']['ClusterPage'];
type Problem = components['schemas']['Problem'];

const encodeQuery = (query: string) =>
  new URLSearchParams(
    query
      .split('&')
      .filter(Boolean)
      .map((p) => p.split('=') as [string, string]),
  ).toString();

describe.each(engines())('clusters on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  const tag = () => randomUUID().slice(0, 6).toUpperCase();

  /** The query is written `a=b&c=d:e` and sent form-encoded (the validator wants `:` encoded). */
  async function list(token: string, query: string): Promise<ClusterPage> {
    const res = await t.fetch(`/api-system/clusters?${encodeQuery(query)}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ClusterPage;
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when the admin creates a cluster, then 201 returns it with Location, ETag and nested and flat audit', async () => {
    const code = `C-${tag()}`;
    const res = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token: admin,
      json: { code, alias_name: 'ABC', name: 'Created Group', max_license_bu: 4, is_active: true },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Cluster;
    expect(res.headers.get('location')).toBe(`/api-system/clusters/${body.id}`);
    expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
    expect(body).toMatchObject({
      code,
      alias_name: 'ABC',
      name: 'Created Group',
      max_license_bu: 4,
      is_active: true,
      bu_count: 0,
      users_count: 0,
      total_max_license_users: null,
    });
    expect(body.logo).toBeUndefined();
    expect(body.avatar).toBeUndefined();
    expect(body.created_by_name).toBe('Platform Admin');
    expect(body.audit.created).toEqual({
      at: body.created_at,
      id: anyString(),
      name: 'Platform Admin',
      avatar: null,
    });
    expect(body.audit.updated.at).toBe(body.updated_at);
    expect(body.audit.updated.name).toBe(body.updated_by_name);
    expect(body.audit.deleted).toEqual({ at: null, id: null, name: null, avatar: null });
    expect(body.deleted_at).toBeNull();
    expect(body.deleted_by_name).toBeNull();
  });

  it('when an actor has no first or last name, then the audit name falls back to the username', async () => {
    const actor = await aUserWith(t, [['cluster.create', null]]);
    const created = await aCluster(t, { code: `N-${tag()}` }, { as: actor.token });
    expect(created.created_by_name).toBe(actor.username);
    expect(created.audit.created.name).toBe(actor.username);
    expect(created.audit.created.id).toBe(actor.id);
  });

  it('when the body misses the name or the alias is longer than 3, then a 400 problem names the field', async () => {
    const missing = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token: admin,
      json: { code: `X-${tag()}` },
    });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await missing.json()) as Problem).errors?.some((e) => e.path.includes('name'))).toBe(true);
    const long = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token: admin,
      json: { code: `X-${tag()}`, name: 'n', alias_name: 'ABCD' },
    });
    expect(long.status).toBe(400);
  });

  it('when a cluster is soft-deleted, then the default list hides it and deleted=include|only show it', async () => {
    const prefix = `SD${tag()}`;
    const live = await aCluster(t, { code: `${prefix}-LIVE` });
    const gone = await aCluster(t, { code: `${prefix}-GONE` });
    expect((await t.fetch(`/api-system/clusters/${gone.id}`, { method: 'DELETE', token: admin })).status).toBe(204);

    const byDefault = await list(admin, `search=${prefix}`);
    expect(byDefault.data.map((c) => c.id)).toEqual([live.id]);
    const exclude = await list(admin, `search=${prefix}&deleted=exclude`);
    expect(exclude.data.map((c) => c.id)).toEqual([live.id]);
    const include = await list(admin, `search=${prefix}&deleted=include&sort=code:asc`);
    expect(include.data.map((c) => c.id)).toEqual([gone.id, live.id]);
    const only = await list(admin, `search=${prefix}&deleted=only`);
    expect(only.data.map((c) => c.id)).toEqual([gone.id]);
    expect(only.data[0]!.deleted_at).not.toBeNull();
    expect(only.data[0]!.deleted_by_name).toBe('Platform Admin');
    expect(only.data[0]!.audit.deleted.name).toBe('Platform Admin');

    // Still readable by id, with deleted_at set; deleting it again is a 404.
    const read = await t.fetch(`/api-system/clusters/${gone.id}`, { token: admin });
    expect(((await read.json()) as Cluster).deleted_at).not.toBeNull();
    expect((await t.fetch(`/api-system/clusters/${gone.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('when is_active is true or false, then only that status is listed, and without it both are', async () => {
    const prefix = `ST${tag()}`;
    const on = await aCluster(t, { code: `${prefix}-ON`, is_active: true });
    const off = await aCluster(t, { code: `${prefix}-OFF`, is_active: false });
    expect((await list(admin, `search=${prefix}&is_active=true`)).data.map((c) => c.id)).toEqual([on.id]);
    expect((await list(admin, `search=${prefix}&is_active=false`)).data.map((c) => c.id)).toEqual([off.id]);
    expect((await list(admin, `search=${prefix}&sort=code:asc`)).data.map((c) => c.id)).toEqual([off.id, on.id]);
    expect((await t.fetch(`/api-system/clusters?is_active=maybe`, { token: admin })).status).toBe(400);
  });

  it('when perpage is -1, then every matching row comes back on one page', async () => {
    const prefix = `PP${tag()}`;
    for (let i = 0; i < 12; i++) await aCluster(t, { code: `${prefix}-${String(i).padStart(2, '0')}` });
    const paged = await list(admin, `search=${prefix}&perpage=5&page=3&sort=code:asc`);
    expect(paged.paginate).toEqual({ total: 12, page: 3, perpage: 5, pages: 3, next_cursor: null });
    expect(paged.data.map((c) => c.code)).toEqual([`${prefix}-10`, `${prefix}-11`]);
    const all = await list(admin, `search=${prefix}&perpage=-1`);
    expect(all.data).toHaveLength(12);
    expect(all.paginate).toEqual({ total: 12, page: 1, perpage: -1, pages: 1, next_cursor: null });
    const none = await list(admin, `search=nothing-${prefix}`);
    expect(none).toEqual({ data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 1, next_cursor: null } });
  });

  it('when searching, then code, name and alias match case-insensitively as contains', async () => {
    const word = `srch${tag().toLowerCase()}`;
    const byCode = await aCluster(t, { code: `${word.toUpperCase()}-1`, name: 'Plain name' });
    const byName = await aCluster(t, { code: `Z-${tag()}`, name: `The ${word} hotels` });
    const found = await list(admin, `search=${word.toUpperCase()}&sort=code:asc`);
    expect(found.data.map((c) => c.id).sort()).toEqual([byCode.id, byName.id].sort());
    const wildcard = await list(admin, `search=${encodeURIComponent('%_')}`);
    expect(wildcard.data).toEqual([]);
  });

  it('when the sort names an unknown field or direction, then 400, and known fields sort', async () => {
    for (const sort of ['password:asc', 'code:up', 'code', 'bu_count:desc']) {
      const res = await t.fetch(`/api-system/clusters?sort=${encodeURIComponent(sort)}`, { token: admin });
      expect(res.status, sort).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    const prefix = `SO${tag()}`;
    await aCluster(t, { code: `${prefix}-B`, name: 'b', max_license_bu: 1 });
    await aCluster(t, { code: `${prefix}-A`, name: 'c', max_license_bu: 3 });
    await aCluster(t, { code: `${prefix}-C`, name: 'a', max_license_bu: 2 });
    expect((await list(admin, `search=${prefix}&sort=code:asc`)).data.map((c) => c.code)).toEqual([
      `${prefix}-A`,
      `${prefix}-B`,
      `${prefix}-C`,
    ]);
    expect((await list(admin, `search=${prefix}&sort=name:desc`)).data.map((c) => c.name)).toEqual(['c', 'b', 'a']);
    expect(
      (await list(admin, `search=${prefix}&sort=max_license_bu:desc,code:asc`)).data.map((c) => c.max_license_bu),
    ).toEqual([3, 2, 1]);
    // Default: newest first.
    expect((await list(admin, `search=${prefix}`)).data.map((c) => c.code)).toEqual([
      `${prefix}-C`,
      `${prefix}-A`,
      `${prefix}-B`,
    ]);
  });

  it('when a live cluster holds the code and name, then create and update get a 409 problem, never a 500', async () => {
    const code = `U-${tag()}`;
    await aCluster(t, { code, name: 'Same' });
    const dup = await t.fetch('/api-system/clusters', { method: 'POST', token: admin, json: { code, name: 'Same' } });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await dup.json()) as Problem).detail).toContain(code);
    // The same code with another name is a different cluster.
    const other = await aCluster(t, { code, name: 'Other' });
    const clash = await t.fetch(`/api-system/clusters/${other.id}`, {
      method: 'PUT',
      token: admin,
      json: { code, name: 'Same' },
    });
    expect(clash.status).toBe(409);
  });

  it('when a cluster is soft-deleted, then its code and name can be created again, and restoring the old one is a 409', async () => {
    const code = `R-${tag()}`;
    const first = await aCluster(t, { code, name: 'Again' });
    expect((await t.fetch(`/api-system/clusters/${first.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const second = await aCluster(t, { code, name: 'Again' });
    expect(second.id).not.toBe(first.id);
    const restore = await t.fetch(`/api-system/clusters/${first.id}/restore`, { method: 'POST', token: admin });
    expect(restore.status).toBe(409);
    expect(((await restore.json()) as Problem).status).toBe(409);
    // Once the new one is deleted, the old one restores.
    expect((await t.fetch(`/api-system/clusters/${second.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const ok = await t.fetch(`/api-system/clusters/${first.id}/restore`, { method: 'POST', token: admin });
    expect(ok.status).toBe(200);
    const restored = (await ok.json()) as Cluster;
    expect(restored.deleted_at).toBeNull();
    expect(restored.audit.deleted).toEqual({ at: null, id: null, name: null, avatar: null });
    // Restoring a live cluster changes nothing.
    const again = await t.fetch(`/api-system/clusters/${first.id}/restore`, { method: 'POST', token: admin });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Cluster).updated_at).toBe(restored.updated_at);
  });

  it('when a cluster is updated, then every writable field is replaced and absent optionals become null', async () => {
    const c = await aCluster(t, { code: `UP-${tag()}`, alias_name: 'OLD', max_license_bu: 3 });
    const res = await t.fetch(`/api-system/clusters/${c.id}`, {
      method: 'PUT',
      token: admin,
      json: { code: c.code, name: 'Renamed', is_active: false },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Cluster;
    expect(body).toMatchObject({ id: c.id, name: 'Renamed', alias_name: null, max_license_bu: null, is_active: false });
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(c.updated_at));
    expect(body.created_at).toBe(c.created_at);
  });

  it('when If-Match carries a stale ETag, then the update is refused with 412 and nothing changes', async () => {
    const c = await aCluster(t, { code: `E-${tag()}` });
    const read = await t.fetch(`/api-system/clusters/${c.id}`, { token: admin });
    const etag = read.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const first = await t.fetch(`/api-system/clusters/${c.id}`, {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': etag },
      json: { code: c.code, name: 'First' },
    });
    expect(first.status).toBe(200);
    const fresh = first.headers.get('etag')!;
    expect(fresh).not.toBe(etag);
    const stale = await t.fetch(`/api-system/clusters/${c.id}`, {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': etag },
      json: { code: c.code, name: 'Second' },
    });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const after = (await (await t.fetch(`/api-system/clusters/${c.id}`, { token: admin })).json()) as Cluster;
    expect(after.name).toBe('First');
    const ok = await t.fetch(`/api-system/clusters/${c.id}`, {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': fresh },
      json: { code: c.code, name: 'Third' },
    });
    expect(ok.status).toBe(200);
  });

  /** The cluster's update events, oldest first, as the trail stores them. */
  async function updateEvents(
    id: string,
  ): Promise<Array<{ changes: Record<string, { before: unknown; after: unknown }> }>> {
    const rows = await t
      .knex<AuditEventRecord>('audit_events')
      .select('changes')
      .where({ target_id: id, action: 'updateCluster' })
      .orderBy([{ column: 'at' }, { column: 'id' }]);
    return rows.map((r: { changes: unknown }) => ({
      changes: (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as Record<
        string,
        { before: unknown; after: unknown }
      >,
    }));
  }

  it('when many edits of one cluster arrive at once without If-Match, then each is applied in turn and the trail chains them', async () => {
    const c = await aCluster(t, { code: `RACE-${tag()}`, alias_name: 'STA' });
    const aliases = Array.from({ length: 12 }, (_, i) => `A${i}`);
    const answers = await Promise.all(
      aliases.map((alias_name) =>
        t.fetch(`/api-system/clusters/${c.id}`, {
          method: 'PUT',
          token: admin,
          json: { code: c.code, name: c.name, alias_name },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(aliases.map(() => 200));
    // Each recorded "before" is the state the edit replaced: no edit was lost and none recorded a stale state.
    const events = await updateEvents(c.id);
    expect(events).toHaveLength(aliases.length);
    expect(events.map((e) => e.changes.alias_name!.before)).toEqual([
      'STA',
      ...events.slice(0, -1).map((e) => e.changes.alias_name!.after),
    ]);
    expect(new Set(events.map((e) => e.changes.alias_name!.after))).toEqual(new Set(aliases));
    const final = (await (await t.fetch(`/api-system/clusters/${c.id}`, { token: admin })).json()) as Cluster;
    expect(final.alias_name).toBe(events.at(-1)!.changes.alias_name!.after);
  });

  it('when many edits send the same current ETag at once, then exactly one is applied and the others get 412', async () => {
    const c = await aCluster(t, { code: `ONE-${tag()}` });
    const etag = (await t.fetch(`/api-system/clusters/${c.id}`, { token: admin })).headers.get('etag')!;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.fetch(`/api-system/clusters/${c.id}`, {
          method: 'PUT',
          token: admin,
          headers: { 'If-Match': etag },
          json: { code: c.code, name: c.name, alias_name: `W${i}` },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const events = await updateEvents(c.id);
    expect(events).toHaveLength(1);
    const winner = (await answers.find((r) => r.status === 200)!.json()) as Cluster;
    expect(events[0]!.changes.alias_name).toEqual({ before: null, after: winner.alias_name });
  });

  it("when a cluster changed after an edit read it, then the edit's one statement writes nothing and records nothing", async () => {
    const c = await aCluster(t, { code: `GAP-${tag()}`, alias_name: 'RDX' });
    const repo = clusterRepository({ knex: t.knex });
    const read = (await repo.findForWrite(t.knex, c.id, { lock: false }))!;
    await t.knex<ClusterRecord>('clusters').where({ id: c.id }).update({ alias_name: 'OTH' });
    const before = await updateEvents(c.id);
    const values = { code: c.code, name: c.name, alias_name: 'EDT', max_license_bu: null, is_active: true };
    const change = {
      action: 'updateCluster' as const,
      target: { type: 'cluster' as const, id: c.id },
      clusterId: c.id,
      before: { alias_name: 'RDX' },
      after: { alias_name: 'EDT' },
    };
    const written = await repo.updateIfUnchanged(t.knex, c.id, read.row_version, values, read.created_by_id!, (rowOf) =>
      auditTrail({ knex: t.knex }).recordPerRow(t.knex, { userId: read.created_by_id }, change, rowOf),
    );
    expect(written).toBeUndefined();
    expect((await t.knex<ClusterRecord>('clusters').select('alias_name').where({ id: c.id }).first())!.alias_name).toBe(
      'OTH',
    );
    expect(await updateEvents(c.id)).toEqual(before);
    // At the row's current version the same statement writes, records, and answers the row with its counts.
    const fresh = (await repo.findForWrite(t.knex, c.id, { lock: false }))!;
    const now = await repo.updateIfUnchanged(t.knex, c.id, fresh.row_version, values, read.created_by_id!, (rowOf) =>
      auditTrail({ knex: t.knex }).recordPerRow(t.knex, { userId: read.created_by_id }, change, rowOf),
    );
    expect(now).toMatchObject({ id: c.id, alias_name: 'EDT', updated_by_name: anyString() });
    expect(Number(now!.bu_count)).toBe(0);
    expect(await updateEvents(c.id)).toHaveLength(before.length + 1);
  });

  it('when listing, then bu_count, users_count and total_max_license_users are right for each row of the page', async () => {
    const prefix = `CN${tag()}`;
    const full = await aCluster(t, { code: `${prefix}-1`, max_license_bu: 10 });
    const unlimited = await aCluster(t, { code: `${prefix}-2` });
    const empty = await aCluster(t, { code: `${prefix}-3` });
    const bu = (clusterId: string, code: string, max: number | null, deleted = false) => ({
      cluster_id: clusterId,
      code,
      name: code,
      max_license_users: max,
      deleted_at: deleted ? t.knex.fn.now() : null,
    });
    await t
      .knex<BusinessUnitRecord>('business_units')
      .insert([
        bu(full.id, `${prefix}-B1`, 5),
        bu(full.id, `${prefix}-B2`, 7),
        bu(full.id, `${prefix}-B3`, 100, true),
        bu(unlimited.id, `${prefix}-B4`, 5),
        bu(unlimited.id, `${prefix}-B5`, null),
      ]);
    const users = (await t.knex<UserRecord>('users').select('id').orderBy('username').limit(3)) as Array<{
      id: string;
    }>;
    await t
      .knex<ClusterMemberRecord>('cluster_users')
      .insert(users.map((u) => ({ user_id: u.id, cluster_id: full.id })));
    await t.knex<ClusterMemberRecord>('cluster_users').insert({ user_id: users[0]!.id, cluster_id: unlimited.id });

    const page = await list(admin, `search=${prefix}&sort=code:asc`);
    const byId = new Map(page.data.map((c) => [c.id, c]));
    expect(byId.get(full.id)).toMatchObject({ bu_count: 2, users_count: 3, total_max_license_users: 12 });
    expect(byId.get(unlimited.id)).toMatchObject({ bu_count: 2, users_count: 1, total_max_license_users: null });
    expect(byId.get(empty.id)).toMatchObject({ bu_count: 0, users_count: 0, total_max_license_users: null });
    const single = (await (await t.fetch(`/api-system/clusters/${full.id}`, { token: admin })).json()) as Cluster;
    expect(single).toMatchObject({ bu_count: 2, users_count: 3, total_max_license_users: 12 });
  });

  it("when a page is listed, then the counts come with the rows in the list's one statement (no N+1)", async () => {
    const prefix = `NQ${tag()}`;
    for (let i = 0; i < 7; i++) await aCluster(t, { code: `${prefix}-${i}` });
    const seen: string[] = [];
    const onQuery = (q: { sql: string }) => seen.push(q.sql);
    t.knex.on('query', onQuery);
    try {
      const page = await list(admin, `search=${prefix}&perpage=5&sort=code:asc`);
      expect(page.data).toHaveLength(5);
      // One statement reads the clusters, their units and their members; nothing else touches those tables.
      expect(seen.filter((sql) => /business_units|cluster_users/.test(sql))).toHaveLength(1);
    } finally {
      t.knex.off('query', onQuery);
    }
  });

  it('when the id is malformed, then 400; when it is unknown, then 404; without a token, then 401', async () => {
    expect((await t.fetch('/api-system/clusters/not-a-uuid', { token: admin })).status).toBe(400);
    const missing = await t.fetch(`/api-system/clusters/${randomUUID()}`, { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(
      (
        await t.fetch(`/api-system/clusters/${randomUUID()}`, {
          method: 'PUT',
          token: admin,
          json: { code: 'x', name: 'y' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.fetch(`/api-system/clusters/${randomUUID()}/restore`, { method: 'POST', token: admin })).status,
    ).toBe(404);
    expect((await t.fetch('/api-system/clusters')).status).toBe(401);
  });

  it('when the schema is migrated, then every list sort and search path of clusters and business units has an index, and search uses trigram', async () => {
    const rows = (await t
      .knex('pg_indexes')
      .select('tablename', 'indexdef')
      .whereIn('tablename', ['clusters', 'business_units', 'cluster_users', 'bu_users'])) as Array<{
      tablename: string;
      indexdef: string;
    }>;
    // varchar columns show up cast, e.g. lower((alias_name)::text).
    const has = (table: string, fragment: string) =>
      rows.some((r) => r.tablename === table && r.indexdef.replace(/\((\w+)\)::text/g, '$1').includes(fragment));
    for (const col of ['created_at', 'updated_at', 'deleted_at', 'code', 'name', 'alias_name', 'max_license_bu'])
      expect(has('clusters', `(${col})`), `clusters.${col}`).toBe(true);
    for (const col of ['created_at', 'updated_at', 'deleted_at', 'code', 'name', 'alias_name'])
      expect(has('business_units', `(${col})`), `business_units.${col}`).toBe(true);
    for (const col of ['code', 'name', 'alias_name']) {
      expect(has('clusters', `lower(${col}) gin_trgm_ops`), `clusters trigram ${col}`).toBe(true);
      expect(has('business_units', `lower(${col}) gin_trgm_ops`), `business_units trigram ${col}`).toBe(true);
    }
    expect(has('clusters', 'WHERE (deleted_at IS NULL)')).toBe(true);
    expect(has('business_units', 'WHERE (deleted_at IS NULL)')).toBe(true);
    expect(has('business_units', '(cluster_id, deleted_at)')).toBe(true);
    expect(has('cluster_users', '(cluster_id)')).toBe(true);
    expect(has('bu_users', '(business_unit_id)')).toBe(true);
    const plan = await t.knex.transaction(async (trx) => {
      await trx.raw('set local enable_seqscan = off');
      const rows = await rawRows<Record<string, string>>(
        trx.raw("explain select id from clusters where lower(code) like '%ab%' or lower(name) like '%ab%'"),
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toMatch(/clusters_code_trgm/);
    expect(plan).toMatch(/clusters_name_trgm/);
  });

  describe('permissions', () => {
    it('when a caller has platform-wide cluster.read, then it lists and reads every cluster; without any read grant, then 403', async () => {
      const viewer = await t.login('viewer');
      const all = await list(viewer, 'perpage=-1');
      expect(all.data.map((c) => c.code)).toEqual(expect.arrayContaining(['CL-A', 'CL-B', 'CL-C']));
      expect(
        (await t.fetch(`/api-system/clusters/${await clusterIdByCode(t, 'CL-B')}`, { token: viewer })).status,
      ).toBe(200);
      const nobody = await aUserWith(t, []);
      expect((await t.fetch('/api-system/clusters', { token: nobody.token })).status).toBe(403);
      expect(
        (await t.fetch(`/api-system/clusters/${await clusterIdByCode(t, 'CL-A')}`, { token: nobody.token })).status,
      ).toBe(403);
    });

    it('when cluster.read is scoped to CL-A, then the list shows only CL-A and reading CL-B is 403', async () => {
      const editor = await t.login('editor-a');
      const seen = await list(editor, 'perpage=-1&deleted=include');
      expect(seen.data.map((c) => c.code)).toEqual(['CL-A']);
      expect(seen.paginate.total).toBe(1);
      expect(
        (await t.fetch(`/api-system/clusters/${await clusterIdByCode(t, 'CL-A')}`, { token: editor })).status,
      ).toBe(200);
      const denied = await t.fetch(`/api-system/clusters/${await clusterIdByCode(t, 'CL-B')}`, { token: editor });
      expect(denied.status).toBe(403);
      expect(denied.headers.get('content-type')).toMatch(/application\/problem\+json/);
    });

    it('when creating, then platform-wide cluster.create is allowed and a cluster-scoped create or a read-only caller is 403', async () => {
      const creator = await aUserWith(t, [['cluster.create', null]]);
      await aCluster(t, { code: `PC-${tag()}` }, { as: creator.token });
      const editor = await t.login('editor-a');
      expect(
        (
          await t.fetch('/api-system/clusters', {
            method: 'POST',
            token: editor,
            json: { code: `PC-${tag()}`, name: 'n' },
          })
        ).status,
      ).toBe(403);
      const viewer = await t.login('viewer');
      expect(
        (
          await t.fetch('/api-system/clusters', {
            method: 'POST',
            token: viewer,
            json: { code: `PC-${tag()}`, name: 'n' },
          })
        ).status,
      ).toBe(403);
    });

    it('when editor-a updates, then CL-A is allowed and CL-B is 403 and unchanged', async () => {
      const editor = await t.login('editor-a');
      const a = (await (
        await t.fetch(`/api-system/clusters/${await clusterIdByCode(t, 'CL-A')}`, { token: admin })
      ).json()) as Cluster;
      const same = {
        code: a.code,
        name: a.name,
        alias_name: a.alias_name,
        max_license_bu: a.max_license_bu,
        is_active: a.is_active,
      };
      const ok = await t.fetch(`/api-system/clusters/${a.id}`, { method: 'PUT', token: editor, json: same });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as Cluster).updated_by_name).toBe('Eddie Editor');
      const bId = await clusterIdByCode(t, 'CL-B');
      const denied = await t.fetch(`/api-system/clusters/${bId}`, {
        method: 'PUT',
        token: editor,
        json: { code: 'CL-B', name: 'Taken over' },
      });
      expect(denied.status).toBe(403);
      const b = (await (await t.fetch(`/api-system/clusters/${bId}`, { token: admin })).json()) as Cluster;
      expect(b.name).not.toBe('Taken over');
    });

    it('when deleting or restoring, then cluster.delete on that cluster is allowed and on another cluster is 403', async () => {
      const mine = await aCluster(t, { code: `PD-${tag()}` });
      const theirs = await aCluster(t, { code: `PD-${tag()}` });
      const deleter = await aUserWith(t, [
        ['cluster.delete', mine.id],
        ['cluster.read', mine.id],
      ]);
      expect(
        (await t.fetch(`/api-system/clusters/${theirs.id}`, { method: 'DELETE', token: deleter.token })).status,
      ).toBe(403);
      expect(
        (await t.fetch(`/api-system/clusters/${mine.id}`, { method: 'DELETE', token: deleter.token })).status,
      ).toBe(204);
      expect(
        (await t.fetch(`/api-system/clusters/${mine.id}/restore`, { method: 'POST', token: deleter.token })).status,
      ).toBe(200);
      await t.fetch(`/api-system/clusters/${theirs.id}`, { method: 'DELETE', token: admin });
      expect(
        (await t.fetch(`/api-system/clusters/${theirs.id}/restore`, { method: 'POST', token: deleter.token })).status,
      ).toBe(403);
      // cluster.update alone does not delete.
      const updater = await aUserWith(t, [['cluster.update', mine.id]]);
      expect(
        (await t.fetch(`/api-system/clusters/${mine.id}`, { method: 'DELETE', token: updater.token })).status,
      ).toBe(403);
    });

    it('when a super admin without grants acts, then everything is allowed', async () => {
      const { token } = await aUserWith(t, [], { is_super_admin: true });
      const c = await aCluster(t, { code: `SA-${tag()}` }, { as: token });
      expect(
        (await t.fetch(`/api-system/clusters/${c.id}`, { method: 'PUT', token, json: { code: c.code, name: 'x' } }))
          .status,
      ).toBe(200);
      expect((await t.fetch(`/api-system/clusters/${c.id}`, { method: 'DELETE', token })).status).toBe(204);
    });
  });
});
