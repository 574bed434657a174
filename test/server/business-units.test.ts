import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { aBusinessUnit, aCluster, aUserWith, businessUnitByCode, clusterIdByCode } from '../support/factory.js';
import type {
  BusinessUnitMemberRecord,
  BusinessUnitRecord,
  ClusterMemberRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { anyObject, anyString } from '../support/matchers.js';

type BusinessUnit = components['schemas']['BusinessUnit'];
type BusinessUnitInput = components['schemas']['BusinessUnitInput'];
type BusinessUnitPage = components['schemas']['BusinessUnitPage'];
type Cluster = components['schemas']['Cluster'];
type Problem = components['schemas']['Problem'];

const encodeQuery = (query: string) =>
  new URLSearchParams(
    query
      .split('&')
      .filter(Boolean)
      .map((p) => p.split('=') as [string, string]),
  ).toString();
const tag = () => randomUUID().slice(0, 6).toUpperCase();

describe.each(engines())('business units on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  async function list(token: string, query: string): Promise<BusinessUnitPage> {
    const res = await t.fetch(`/api-system/business-units?${encodeQuery(query)}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as BusinessUnitPage;
  }

  async function read(id: string, token = admin): Promise<BusinessUnit> {
    const res = await t.fetch(`/api-system/business-units/${id}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as BusinessUnit;
  }

  const put = (id: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
    t.fetch(`/api-system/business-units/${id}`, { method: 'PUT', token, json: body, headers });

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when a business unit is created with all 34 form fields, then the detail returns each under its wire name', async () => {
    const cluster = await aCluster(t, { name: 'Wire Group' });
    const thb = ((await t.knex('currencies').select('id').where({ code: 'THB' }).first()) as { id: string }).id;
    const input: BusinessUnitInput = {
      cluster_id: cluster.id,
      code: `W-${tag()}`,
      name: 'Wire Hotel',
      alias_name: 'WH',
      description: 'Line one\nLine two',
      max_license_users: 25,
      is_hq: true,
      is_active: false,
      hotel_name: 'Wire Hotel Ltd',
      hotel_tel: '+66 1',
      hotel_email: 'h@example.com',
      hotel_address: '1 Road',
      hotel_zip_code: '10110',
      company_name: 'Wire Co',
      company_tel: '+66 2',
      company_email: 'c@example.com',
      company_address: '2 Road',
      company_zip_code: '10120',
      tax_no: 'T-1',
      branch_no: '00001',
      date_format: 'YYYY-MM-DD',
      date_time_format: 'YYYY-MM-DD HH:mm:ss',
      time_format: 'HH:mm',
      long_time_format: 'HH:mm:ss.SSS',
      short_time_format: 'HH:mm',
      timezone: 'Asia/Bangkok',
      perpage_format: { default: 10 },
      amount_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
      quantity_format: { locales: 'en-US', minimumFractionDigits: 3 },
      recipe_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
      calculation_method: 'fifo',
      default_currency_id: thb,
      config: [{ key: 'neg', label: 'Allow negative', datatype: 'boolean', value: false }],
      db_connection: '{"host":"db.internal","port":5432}',
    };
    expect(Object.keys(input)).toHaveLength(34);
    const res = await t.fetch('/api-system/business-units', { method: 'POST', token: admin, json: input });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as BusinessUnit;
    expect(res.headers.get('location')).toBe(`/api-system/business-units/${created.id}`);
    expect(res.headers.get('etag')).toMatch(/^W\//);

    const detail = await read(created.id);
    for (const [field, value] of Object.entries(input))
      expect(detail[field as keyof BusinessUnit], field).toEqual(value);
    expect(detail.cluster_name).toBe('Wire Group');
    expect(detail.defaultCurrency).toMatchObject({
      id: thb,
      code: 'THB',
      name: 'Thai Baht',
      symbol: '฿',
      decimal_places: 2,
      is_active: true,
    });
    expect(detail.users).toEqual([]);
    expect(detail.users_count).toBe(0);
    expect(detail.created_by_name).toBe('Platform Admin');
    expect(detail.audit.created.name).toBe('Platform Admin');

    // Lists carry the record without the detail-only parts.
    const row = (await list(admin, `cluster_id=${cluster.id}`)).data[0]!;
    expect(row.id).toBe(created.id);
    expect(row.defaultCurrency).toBeUndefined();
    expect(row.users).toBeUndefined();
    expect(row.hotel_zip_code).toBe('10110');
  });

  it('when number formats arrive as objects, parseable text or unparseable text, then objects are stored as JSON and bad text is kept as sent', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, {
      cluster_id: cluster.id,
      perpage_format: '{"default": 20}',
      amount_format: '{locales: th-TH',
      quantity_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
    });
    expect(bu.perpage_format).toEqual({ default: 20 });
    expect(bu.amount_format).toBe('{locales: th-TH');
    expect(bu.quantity_format).toEqual({ locales: 'th-TH', minimumIntegerDigits: 2 });
    expect(bu.recipe_format).toBeNull();
    const stored = (await t
      .knex<BusinessUnitRecord>('business_units')
      .select('amount_format', 'perpage_format')
      .where({ id: bu.id })
      .first()) as Record<string, unknown>;
    expect(stored.amount_format).toBe('{locales: th-TH');
    expect(stored.perpage_format).toEqual({ default: 20 });
  });

  it('when config entries lack a key or a label, then they are dropped on save', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, {
      cluster_id: cluster.id,
      config: [
        { key: 'keep', label: 'Kept', datatype: 'number', value: 7 },
        { label: 'No key', datatype: 'string', value: 'x' },
        { key: 'nolabel', datatype: 'string', value: 'x' },
        { key: '  ', label: 'Blank key', value: 1 },
        { key: 'blanklabel', label: '', value: 1 },
        { key: null, label: 'Null key' },
        { key: 'minimal', label: 'Minimal' },
      ],
    });
    expect(bu.config).toEqual([
      { key: 'keep', label: 'Kept', datatype: 'number', value: 7 },
      { key: 'minimal', label: 'Minimal', datatype: 'string', value: null },
    ]);
    const res = await put(bu.id, admin, {
      cluster_id: cluster.id,
      code: bu.code,
      name: bu.name,
      config: [{ key: '', label: 'x' }],
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as BusinessUnit).config).toEqual([]);
  });

  it('when db_connection is sent, then it comes back exactly as sent, on create, read and update', async () => {
    const cluster = await aCluster(t);
    const odd = '{ "host" : "db.internal",\n  "port":5432, "opts": {"ssl": true} }  ';
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id, db_connection: odd });
    expect(bu.db_connection).toBe(odd);
    expect((await read(bu.id)).db_connection).toBe(odd);
    const notJson = 'host=db.internal port=5432';
    const res = await put(bu.id, admin, {
      cluster_id: cluster.id,
      code: bu.code,
      name: bu.name,
      db_connection: notJson,
    });
    expect(((await res.json()) as BusinessUnit).db_connection).toBe(notJson);
    expect((await read(bu.id)).db_connection).toBe(notJson);
  });

  it('when a name would be a formula after a ";" or ",", then the export quotes and neutralises the cell', async () => {
    const cluster = await aCluster(t);
    await aBusinessUnit(t, { cluster_id: cluster.id, name: 'Hotel;=1+1;x' });
    await aBusinessUnit(t, { cluster_id: cluster.id, name: 'Hotel,@SUM(A1)' });
    const res = await t.fetch(
      `/api-system/business-units/export?${encodeQuery(`cluster_id=${cluster.id}&sort=name:desc`)}`,
      { token: admin },
    );
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\r\n');
    expect(lines[1]).toContain(`,"'Hotel;=1+1;x",`);
    expect(lines[2]).toContain(`,"'Hotel,@SUM(A1)",`);
  });

  it('when perpage is -1, then the list answers at most 1,000 rows with the whole total; the export streams every row', async () => {
    const cluster = await aCluster(t);
    const prefix = `ALL-${tag()}`;
    await t.knex<BusinessUnitRecord>('business_units').insert(
      Array.from({ length: 1005 }, (_, i) => ({
        cluster_id: cluster.id,
        code: `${prefix}-${String(i).padStart(4, '0')}`,
        name: `All ${i}`,
      })),
    );
    const all = await list(admin, `cluster_id=${cluster.id}&perpage=-1&sort=code:asc`);
    expect(all.data).toHaveLength(1000);
    expect(all.paginate).toEqual({ total: 1005, page: 1, perpage: -1, pages: 1, next_cursor: null });
    expect(all.data[999]!.code).toBe(`${prefix}-0999`);
    const res = await t.fetch(`/api-system/business-units/export?${encodeQuery(`cluster_id=${cluster.id}`)}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect((await res.text()).split('\r\n').filter((l) => l.includes(prefix))).toHaveLength(1005);
    // The other "every row" lists of this file expect to see every unit.
    await t.knex<BusinessUnitRecord>('business_units').where('cluster_id', cluster.id).delete();
  });

  it('when a business unit is updated without optional fields, then they become null (a full replace)', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, {
      cluster_id: cluster.id,
      hotel_name: 'H',
      is_hq: true,
      max_license_users: 3,
      calculation_method: 'average',
    });
    const res = await put(bu.id, admin, { cluster_id: cluster.id, code: bu.code, name: 'New name' });
    expect(res.status).toBe(200);
    const after = (await res.json()) as BusinessUnit;
    expect(after).toMatchObject({
      name: 'New name',
      hotel_name: null,
      is_hq: false,
      is_active: true,
      max_license_users: null,
      calculation_method: null,
      config: [],
    });
  });

  it('when a business unit is soft-deleted, then the default list hides it and deleted=include|only show it', async () => {
    const cluster = await aCluster(t);
    const live = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'A-LIVE' });
    const gone = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'B-GONE' });
    expect((await t.fetch(`/api-system/business-units/${gone.id}`, { method: 'DELETE', token: admin })).status).toBe(
      204,
    );
    expect((await list(admin, `cluster_id=${cluster.id}`)).data.map((b) => b.id)).toEqual([live.id]);
    expect((await list(admin, `cluster_id=${cluster.id}&deleted=include&sort=code:asc`)).data.map((b) => b.id)).toEqual(
      [live.id, gone.id],
    );
    const only = await list(admin, `cluster_id=${cluster.id}&deleted=only`);
    expect(only.data.map((b) => b.id)).toEqual([gone.id]);
    expect(only.data[0]!.deleted_by_name).toBe('Platform Admin');
    expect((await read(gone.id)).deleted_at).not.toBeNull();
    expect((await t.fetch(`/api-system/business-units/${gone.id}`, { method: 'DELETE', token: admin })).status).toBe(
      404,
    );
    expect((await put(gone.id, admin, { cluster_id: cluster.id, code: 'B-GONE', name: 'x' })).status).toBe(404);
  });

  it('when is_active is true or false, then only that status is listed, and without it both are', async () => {
    const cluster = await aCluster(t);
    const on = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'ON', is_active: true });
    const off = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'OFF', is_active: false });
    expect((await list(admin, `cluster_id=${cluster.id}&is_active=true`)).data.map((b) => b.id)).toEqual([on.id]);
    expect((await list(admin, `cluster_id=${cluster.id}&is_active=false`)).data.map((b) => b.id)).toEqual([off.id]);
    expect((await list(admin, `cluster_id=${cluster.id}&sort=code:asc`)).data.map((b) => b.id)).toEqual([
      off.id,
      on.id,
    ]);
  });

  it('when perpage is -1 with a cluster_id filter, then all business units of that cluster come back on one page', async () => {
    const cluster = await aCluster(t);
    const other = await aCluster(t);
    for (let i = 0; i < 12; i++)
      await aBusinessUnit(t, { cluster_id: cluster.id, code: `P-${String(i).padStart(2, '0')}` });
    await aBusinessUnit(t, { cluster_id: other.id, code: 'Q-00' });
    const all = await list(admin, `cluster_id=${cluster.id}&perpage=-1&sort=name:asc`);
    expect(all.data).toHaveLength(12);
    expect(all.data.every((b) => b.cluster_id === cluster.id)).toBe(true);
    expect(all.paginate).toEqual({ total: 12, page: 1, perpage: -1, pages: 1, next_cursor: null });
    expect((await list(admin, `cluster_id=${cluster.id}`)).paginate).toEqual({
      total: 12,
      page: 1,
      perpage: 10,
      pages: 2,
      next_cursor: anyString(),
    });
  });

  it('when sorting by cluster_name or searching a cluster name, then the parent cluster decides; an unknown sort is 400', async () => {
    const word = `srt${tag().toLowerCase()}`;
    const zulu = await aCluster(t, { name: `Zulu ${word}` });
    const alpha = await aCluster(t, { name: `Alpha ${word}` });
    const z = await aBusinessUnit(t, { cluster_id: zulu.id, code: 'S-1' });
    const a = await aBusinessUnit(t, { cluster_id: alpha.id, code: 'S-2' });
    const asc = await list(admin, `search=${word}&sort=cluster_name:asc`);
    expect(asc.data.map((b) => b.id)).toEqual([a.id, z.id]);
    expect(asc.data.map((b) => b.cluster_name)).toEqual([`Alpha ${word}`, `Zulu ${word}`]);
    expect((await list(admin, `search=${word}&sort=cluster_name:desc`)).data.map((b) => b.id)).toEqual([z.id, a.id]);
    for (const sort of ['cluster:asc', 'db_connection:asc', 'name:sideways']) {
      const res = await t.fetch(`/api-system/business-units?sort=${encodeURIComponent(sort)}`, { token: admin });
      expect(res.status, sort).toBe(400);
    }
  });

  it('when a live business unit holds the code, in this cluster or another, then 409; after a soft delete it can be re-created and restoring the old one is 409', async () => {
    const cluster = await aCluster(t);
    const other = await aCluster(t);
    const first = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'DUP' });
    const dup = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: { cluster_id: cluster.id, code: 'DUP', name: 'x' },
    });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await dup.json()) as Problem).detail).toContain('DUP');
    // Codes are unique across clusters: print mappings and resolve select a unit by its code alone.
    const elsewhere = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: { cluster_id: other.id, code: 'DUP', name: 'x' },
    });
    expect(elsewhere.status).toBe(409);
    expect(((await elsewhere.json()) as Problem).detail).toMatch(/unique across all clusters/);

    const sibling = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'SIB' });
    expect((await put(sibling.id, admin, { cluster_id: cluster.id, code: 'DUP', name: 'x' })).status).toBe(409);

    expect((await t.fetch(`/api-system/business-units/${first.id}`, { method: 'DELETE', token: admin })).status).toBe(
      204,
    );
    const again = await aBusinessUnit(t, { cluster_id: cluster.id, code: 'DUP' });
    expect(again.id).not.toBe(first.id);
    const restore = await t.fetch(`/api-system/business-units/${first.id}/restore`, { method: 'POST', token: admin });
    expect(restore.status).toBe(409);
    await t.fetch(`/api-system/business-units/${again.id}`, { method: 'DELETE', token: admin });
    const ok = await t.fetch(`/api-system/business-units/${first.id}/restore`, { method: 'POST', token: admin });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as BusinessUnit).deleted_at).toBeNull();
  });

  it('when the cluster is at max_license_bu, then create is a 409 with the licence message; a soft-deleted unit frees a licence', async () => {
    const cluster = await aCluster(t, { max_license_bu: 2 });
    const one = await aBusinessUnit(t, { cluster_id: cluster.id });
    await aBusinessUnit(t, { cluster_id: cluster.id });
    const full = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: { cluster_id: cluster.id, code: 'THIRD', name: 'x' },
    });
    expect(full.status).toBe(409);
    expect(((await full.json()) as Problem).detail).toBe(
      'Cannot create business unit: cluster has reached its license limit (2/2)',
    );
    await t.fetch(`/api-system/business-units/${one.id}`, { method: 'DELETE', token: admin });
    await aBusinessUnit(t, { cluster_id: cluster.id, code: 'THIRD' });
    // Restoring the deleted one would exceed the licence.
    const restore = await t.fetch(`/api-system/business-units/${one.id}/restore`, { method: 'POST', token: admin });
    expect(restore.status).toBe(409);
    expect(((await restore.json()) as Problem).detail).toBe(
      'Cannot create business unit: cluster has reached its license limit (2/2)',
    );
  });

  it('when 20 creates race into a cluster with max_license_bu 5, then exactly 5 succeed and the rest get the licence 409', async () => {
    const cluster = await aCluster(t, { max_license_bu: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.fetch('/api-system/business-units', {
          method: 'POST',
          token: admin,
          json: { cluster_id: cluster.id, code: `RACE-${i}`, name: `Race ${i}` },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(((await r.json()) as Problem).detail).toBe(
        'Cannot create business unit: cluster has reached its license limit (5/5)',
      );
    }
    const [count] = await t
      .knex<BusinessUnitRecord>('business_units')
      .count({ n: '*' })
      .where({ cluster_id: cluster.id })
      .whereNull('deleted_at');
    expect(Number((count as { n: unknown }).n)).toBe(5);
    const c = (await (await t.fetch(`/api-system/clusters/${cluster.id}`, { token: admin })).json()) as Cluster;
    expect(c.bu_count).toBe(5);
  });

  it('when a business unit moves into a cluster at its licence limit, then 409 with the licence message; with room, it moves', async () => {
    const from = await aCluster(t);
    const fullCluster = await aCluster(t, { max_license_bu: 1 });
    const roomy = await aCluster(t, { max_license_bu: 3, name: 'Roomy' });
    await aBusinessUnit(t, { cluster_id: fullCluster.id });
    const bu = await aBusinessUnit(t, { cluster_id: from.id, code: 'MOVER' });
    const denied = await put(bu.id, admin, { cluster_id: fullCluster.id, code: 'MOVER', name: bu.name });
    expect(denied.status).toBe(409);
    expect(((await denied.json()) as Problem).detail).toBe(
      'Cannot create business unit: cluster has reached its license limit (1/1)',
    );
    expect((await read(bu.id)).cluster_id).toBe(from.id);
    const member = (
      (await t.knex<UserRecord>('users').select('id').where({ username: 'somchai' }).first()) as { id: string }
    ).id;
    await t
      .knex<ClusterMemberRecord>('cluster_users')
      .insert({ user_id: member, cluster_id: from.id, parent_bu_id: bu.id });
    const moved = await put(bu.id, admin, { cluster_id: roomy.id, code: 'MOVER', name: bu.name });
    expect(moved.status).toBe(200);
    expect((await moved.json()) as BusinessUnit).toMatchObject({ cluster_id: roomy.id, cluster_name: 'Roomy' });
    // The old cluster's members no longer point at a unit of another cluster.
    const parent = (await t
      .knex<ClusterMemberRecord>('cluster_users')
      .select('parent_bu_id')
      .where({ user_id: member, cluster_id: from.id })
      .first()) as { parent_bu_id: string | null };
    expect(parent.parent_bu_id).toBeNull();
    // Staying in a full cluster is not a move: edits still save.
    const fullBu = (await list(admin, `cluster_id=${fullCluster.id}`)).data[0]!;
    expect(
      (await put(fullBu.id, admin, { cluster_id: fullCluster.id, code: fullBu.code, name: 'Edited' })).status,
    ).toBe(200);
  });

  it('when members exist, then users_count counts them on the list and the detail embeds them', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const users = (await t.knex<UserRecord>('users').select('id', 'username').orderBy('username').limit(2)) as Array<{
      id: string;
      username: string;
    }>;
    await t
      .knex<BusinessUnitMemberRecord>('bu_users')
      .insert(users.map((u) => ({ user_id: u.id, business_unit_id: bu.id, role: 'user' })));
    expect((await list(admin, `cluster_id=${cluster.id}`)).data[0]!.users_count).toBe(2);
    const detail = await read(bu.id);
    expect(detail.users_count).toBe(2);
    expect(detail.users!.map((u) => u.user_id).sort()).toEqual(users.map((u) => u.id).sort());
    expect(detail.users![0]).toEqual(
      expect.objectContaining({ business_unit_id: bu.id, role: 'user', is_active: true, userInfo: anyObject() }),
    );
  });

  it('when If-Match carries a stale ETag, then the update is refused with 412 and nothing changes', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const etag = (await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin })).headers.get('etag')!;
    const first = await put(
      bu.id,
      admin,
      { cluster_id: cluster.id, code: bu.code, name: 'First' },
      { 'If-Match': etag },
    );
    expect(first.status).toBe(200);
    const stale = await put(
      bu.id,
      admin,
      { cluster_id: cluster.id, code: bu.code, name: 'Second' },
      { 'If-Match': etag },
    );
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await read(bu.id)).name).toBe('First');
    expect(
      (
        await put(
          bu.id,
          admin,
          { cluster_id: cluster.id, code: bu.code, name: 'Third' },
          { 'If-Match': first.headers.get('etag')! },
        )
      ).status,
    ).toBe(200);
  });

  it('when ids are malformed or unknown, then 400 or 404; an unknown currency or cluster in the body is 400', async () => {
    expect((await t.fetch('/api-system/business-units/123', { token: admin })).status).toBe(400);
    expect((await t.fetch(`/api-system/business-units/${randomUUID()}`, { token: admin })).status).toBe(404);
    expect((await t.fetch(`/api-system/business-units?cluster_id=nope`, { token: admin })).status).toBe(400);
    const cluster = await aCluster(t);
    const badCurrency = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: { cluster_id: cluster.id, code: 'C', name: 'n', default_currency_id: randomUUID() },
    });
    expect(badCurrency.status).toBe(400);
    const badCluster = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: { cluster_id: randomUUID(), code: 'C', name: 'n' },
    });
    expect(badCluster.status).toBe(400);
    const badMethod = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: { cluster_id: cluster.id, code: 'C', name: 'n', calculation_method: 'lifo' },
    });
    expect(badMethod.status).toBe(400);
  });

  describe('permissions', () => {
    it('when cluster.read is platform-wide, then every business unit is listed; when scoped to CL-A, then only CL-A units and a CL-B unit is 404', async () => {
      const viewer = await t.login('viewer');
      const all = await list(viewer, 'perpage=-1');
      expect(all.data.map((b) => b.code)).toEqual(expect.arrayContaining(['A-HQ', 'B-HQ', 'C-NMN']));
      const editor = await t.login('editor-a');
      const a = await clusterIdByCode(t, 'CL-A');
      const scoped = await list(editor, 'perpage=-1&deleted=include');
      expect(scoped.data.length).toBeGreaterThan(0);
      expect(scoped.data.every((b) => b.cluster_id === a)).toBe(true);
      expect(
        (await t.fetch(`/api-system/business-units/${(await businessUnitByCode(t, 'A-HQ')).id}`, { token: editor }))
          .status,
      ).toBe(200);
      expect(
        (await t.fetch(`/api-system/business-units/${(await businessUnitByCode(t, 'B-HQ')).id}`, { token: editor }))
          .status,
      ).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
      expect(
        (await t.fetch(`/api-system/business-units?cluster_id=${await clusterIdByCode(t, 'CL-B')}`, { token: editor }))
          .status,
      ).toBe(403);
      const nobody = await aUserWith(t, []);
      expect((await t.fetch('/api-system/business-units', { token: nobody.token })).status).toBe(403);
    });

    it('when a caller may read the cluster but not update it, then db_connection has no value in the detail, the list or the export; whoever may update it reads it', async () => {
      const cluster = await aCluster(t);
      const secret = '{"host":"db.internal","user":"pkt","password":"s3cret"}';
      const bu = await aBusinessUnit(t, { cluster_id: cluster.id, db_connection: secret });
      const reader = await aUserWith(t, [['cluster.read', cluster.id]]);
      const creator = await aUserWith(t, [
        ['cluster.read', cluster.id],
        ['cluster.create', cluster.id],
        ['cluster.delete', cluster.id],
      ]);
      const updater = await aUserWith(t, [
        ['cluster.read', cluster.id],
        ['cluster.update', cluster.id],
      ]);
      const platformUpdater = await aUserWith(t, [
        ['cluster.read', null],
        ['cluster.update', null],
      ]);
      const exported = async (token: string) => {
        const res = await t.fetch(`/api-system/business-units/export?${encodeQuery(`cluster_id=${cluster.id}`)}`, {
          token,
        });
        expect(res.status).toBe(200);
        return res.text();
      };
      for (const token of [reader.token, creator.token]) {
        expect((await read(bu.id, token)).db_connection).toBeNull();
        expect((await list(token, `cluster_id=${cluster.id}`)).data.map((b) => b.db_connection)).toEqual([null]);
        expect(await exported(token)).not.toContain('db.internal');
      }
      // Create and restore answer the record too: a caller who may create or restore but not update reads no value.
      const created = await aBusinessUnit(t, { cluster_id: cluster.id, db_connection: secret }, { as: creator.token });
      expect(created.db_connection).toBeNull();
      expect(
        (await t.fetch(`/api-system/business-units/${created.id}`, { method: 'DELETE', token: creator.token })).status,
      ).toBe(204);
      const restored = await t.fetch(`/api-system/business-units/${created.id}/restore`, {
        method: 'POST',
        token: creator.token,
      });
      expect(restored.status, await restored.clone().text()).toBe(200);
      expect(((await restored.json()) as BusinessUnit).db_connection).toBeNull();
      for (const token of [updater.token, platformUpdater.token, admin]) {
        expect((await read(bu.id, token)).db_connection).toBe(secret);
        expect(
          (await list(token, `cluster_id=${cluster.id}&sort=created_at:asc`)).data.map((b) => b.db_connection),
        ).toEqual([secret, secret]);
      }
    });

    it('when creating, then cluster.create on that cluster is allowed and on another cluster is 404', async () => {
      const mine = await aCluster(t);
      const theirs = await aCluster(t);
      const creator = await aUserWith(t, [['cluster.create', mine.id]]);
      await aBusinessUnit(t, { cluster_id: mine.id }, { as: creator.token });
      const denied = await t.fetch('/api-system/business-units', {
        method: 'POST',
        token: creator.token,
        json: { cluster_id: theirs.id, code: 'X', name: 'x' },
      });
      expect(denied.status).toBe(403);
      const editor = await t.login('editor-a');
      expect(
        (
          await t.fetch('/api-system/business-units', {
            method: 'POST',
            token: editor,
            json: { cluster_id: await clusterIdByCode(t, 'CL-B'), code: `E-${tag()}`, name: 'x' },
          })
        ).status,
      ).toBe(403);
    });

    it('when editor-a updates, then a CL-A unit is allowed, a CL-B unit is 404, and moving a unit from CL-A into CL-B is 403', async () => {
      const editor = await t.login('editor-a');
      const aBu = await read((await businessUnitByCode(t, 'A-KBI')).id);
      const same = {
        cluster_id: aBu.cluster_id,
        code: aBu.code,
        name: aBu.name,
        max_license_users: aBu.max_license_users,
        is_hq: aBu.is_hq,
      };
      expect((await put(aBu.id, editor, same)).status).toBe(200);
      const bBu = await read((await businessUnitByCode(t, 'B-SKV')).id);
      expect((await put(bBu.id, editor, { cluster_id: bBu.cluster_id, code: bBu.code, name: 'Hijacked' })).status).toBe(
        404,
      ); // no grant on that cluster: it is not there for them, as for a missing id
      expect((await read(bBu.id)).name).not.toBe('Hijacked');
      const move = await put(aBu.id, editor, { ...same, cluster_id: await clusterIdByCode(t, 'CL-B') });
      expect(move.status).toBe(403);
      expect(move.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect((await read(aBu.id)).cluster_id).toBe(aBu.cluster_id);
    });

    it('when a caller has cluster.update on both clusters, then the move is allowed; on the destination only, then 404', async () => {
      const from = await aCluster(t);
      const to = await aCluster(t);
      const bu = await aBusinessUnit(t, { cluster_id: from.id });
      const sourceOnly = await aUserWith(t, [['cluster.update', from.id]]);
      expect((await put(bu.id, sourceOnly.token, { cluster_id: to.id, code: bu.code, name: bu.name })).status).toBe(
        403,
      );
      const destinationOnly = await aUserWith(t, [['cluster.update', to.id]]);
      expect(
        (await put(bu.id, destinationOnly.token, { cluster_id: to.id, code: bu.code, name: bu.name })).status,
      ).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
      const both = await aUserWith(t, [
        ['cluster.update', from.id],
        ['cluster.update', to.id],
      ]);
      const ok = await put(bu.id, both.token, { cluster_id: to.id, code: bu.code, name: bu.name });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as BusinessUnit).cluster_id).toBe(to.id);
    });

    it('when deleting or restoring, then cluster.delete on the parent cluster is allowed and on another cluster is 404', async () => {
      const mine = await aCluster(t);
      const theirs = await aCluster(t);
      const myBu = await aBusinessUnit(t, { cluster_id: mine.id });
      const theirBu = await aBusinessUnit(t, { cluster_id: theirs.id });
      const deleter = await aUserWith(t, [['cluster.delete', mine.id]]);
      expect(
        (await t.fetch(`/api-system/business-units/${theirBu.id}`, { method: 'DELETE', token: deleter.token })).status,
      ).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
      expect(
        (await t.fetch(`/api-system/business-units/${myBu.id}`, { method: 'DELETE', token: deleter.token })).status,
      ).toBe(204);
      expect(
        (await t.fetch(`/api-system/business-units/${myBu.id}/restore`, { method: 'POST', token: deleter.token }))
          .status,
      ).toBe(200);
      await t.fetch(`/api-system/business-units/${theirBu.id}`, { method: 'DELETE', token: admin });
      expect(
        (await t.fetch(`/api-system/business-units/${theirBu.id}/restore`, { method: 'POST', token: deleter.token }))
          .status,
      ).toBe(404);
      expect((await read(theirBu.id)).deleted_at).not.toBeNull();
      const updater = await aUserWith(t, [['cluster.update', mine.id]]);
      expect(
        (await t.fetch(`/api-system/business-units/${myBu.id}`, { method: 'DELETE', token: updater.token })).status,
      ).toBe(403);
    });
  });
});
