import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { datasetService } from '../../server/src/modules/datasets/service.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const CATALOG = '/api/proxy/api/datasets';
const DAY = 86_400_000;

interface Dataset {
  id: string;
  name: string;
  description: string;
  shape: 'scalar' | 'scalar_delta' | 'categorical';
  category: string;
  unit: string | null;
  widget_types: string[];
  scope: 'own' | 'clusters' | 'platform';
}
type Point = { label: string; value: number };

const tag = () => randomUUID().slice(0, 8);

async function newUser(t: TestServer, opts: { superAdmin?: boolean; active?: boolean } = {}) {
  const username = `u-${tag()}`;
  const [row] = await t
    .knex('users')
    .insert({
      username,
      email: `${username}@example.com`,
      password_hash: 'not-used',
      is_super_admin: !!opts.superAdmin,
      is_active: opts.active ?? true,
    })
    .returning<Array<{ id: string }>>('id');
  const id = (row as { id: string }).id;
  return { id, token: await t.tokenFor(id) };
}

async function newCluster(t: TestServer, overrides: Record<string, unknown> = {}) {
  const [row] = await t
    .knex('clusters')
    .insert({ code: `C-${tag()}`, name: `Cluster ${tag()}`, ...overrides })
    .returning<Array<{ id: string; name: string }>>(['id', 'name']);
  return row as { id: string; name: string };
}

async function newBu(t: TestServer, clusterId: string, overrides: Record<string, unknown> = {}) {
  const [row] = await t
    .knex('business_units')
    .insert({ cluster_id: clusterId, code: `B-${tag()}`, name: `BU ${tag()}`, ...overrides })
    .returning<Array<{ id: string }>>('id');
  return (row as { id: string }).id;
}

/** A document of `type` with `status`, waiting on `approvers`. */
async function newDocument(
  t: TestServer,
  buId: string,
  type: 'pr' | 'po' | 'sr',
  status: string,
  amount: number,
  approvers: string[],
  currency = 'THB',
) {
  const [row] = await t
    .knex('documents')
    .insert({
      doc_type: type,
      doc_no: `${type.toUpperCase()}-${tag()}`,
      doc_date: '2026-11-01',
      total_amount: amount,
      currency_code: currency,
      business_unit_id: buId,
      status,
      workflow_current_stage: 'HOD',
    })
    .returning<Array<{ id: string }>>('id');
  const id = (row as { id: string }).id;
  if (approvers.length)
    await t.knex('document_pending_approvers').insert(approvers.map((user_id) => ({ document_id: id, user_id })));
  return id;
}

describe.each(engines())('datasets on %s', (engine) => {
  let t: TestServer;
  let me: { id: string; token: string };
  let buId: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    // Platform-wide figures need a platform-wide grant: the caller of these tests may read everything.
    me = await newUser(t, { superAdmin: true });
    buId = await newBu(t, (await newCluster(t)).id);
  });
  afterAll(() => t?.close());

  const get = (path: string, token = me.token) => t.fetch(path, { token });
  const values = async <T>(id: string, token = me.token): Promise<T> => {
    const res = await get(`${CATALOG}/${id}/values`, token);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { dataset_id: string; shape: string; generated_at: string; data: T };
    expect(body.dataset_id).toBe(id);
    expect(Number.isNaN(Date.parse(body.generated_at))).toBe(false);
    return body.data;
  };
  const point = (data: Point[], label: string) => data.find((p) => p.label === label)?.value;

  describe('scope', () => {
    it('when a caller may read one cluster only, then cluster figures count that cluster alone', async () => {
      const mine = await newCluster(t);
      const theirs = await newCluster(t);
      await newBu(t, mine.id);
      await newBu(t, theirs.id);
      await newBu(t, theirs.id);
      const reader = await newUser(t);
      await t
        .knex('permission_grants')
        .insert({ user_id: reader.id, permission_key: 'cluster.read', cluster_id: mine.id });
      expect(await values('tenancy.active-clusters', reader.token)).toEqual({ value: 1 });
      expect(await values('tenancy.active-business-units', reader.token)).toEqual({ value: 1 });
      const licence = await values<Point[]>('tenancy.licence-use-by-cluster', reader.token);
      expect(licence.map((p) => p.label)).toEqual([mine.name]);
    });

    it('when a caller holds no grant, then cluster figures are empty, platform figures are refused and left out of its catalog', async () => {
      const nobody = await newUser(t);
      expect(await values('tenancy.active-clusters', nobody.token)).toEqual({ value: 0 });
      expect(await values('tenancy.licence-use-by-cluster', nobody.token)).toEqual([]);
      for (const id of ['users.by-role', 'printing.mappings-by-document-type']) {
        const res = await get(`${CATALOG}/${id}/values`, nobody.token);
        expect(res.status, id).toBe(403);
        expect(((await res.json()) as { detail: string }).detail).toMatch(/whole platform/);
      }
      const catalog = (await (await get(CATALOG, nobody.token)).json()) as { items: Dataset[] };
      expect(catalog.items.map((d) => d.id)).not.toContain('users.by-role');
      expect(catalog.items.every((d) => ['own', 'clusters'].includes(d.scope))).toBe(true);
    });
  });

  describe('catalog', () => {
    it('when the catalog is listed, then at least eight datasets of all three shapes come with the widget types each can use', async () => {
      const res = await get(CATALOG);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: Dataset[]; count: number };
      expect(body.count).toBe(body.items.length);
      expect(body.count).toBeGreaterThanOrEqual(8);
      expect(new Set(body.items.map((d) => d.shape))).toEqual(new Set(['scalar', 'scalar_delta', 'categorical']));
      for (const d of body.items) {
        expect(d.id).toMatch(/^[a-z0-9-]+\.[a-z0-9.-]+$/);
        expect(d.widget_types).toEqual(d.shape === 'categorical' ? ['pie', 'bar'] : ['kpi', 'gauge']);
        expect(d.name.length).toBeGreaterThan(3);
        expect(d.description.length).toBeGreaterThan(10);
      }
      expect(body.items.map((d) => d.id)).toEqual(
        expect.arrayContaining([
          'tenancy.active-clusters',
          'tenancy.new-business-units',
          'tenancy.licence-use-by-cluster',
          'users.by-role',
          'printing.mappings-by-document-type',
          'approvals.my-pending-count',
          'approvals.pending-by-type',
          'approvals.amount-by-type',
        ]),
      );
    });

    it('when exclude_pinned=true, then the datasets the caller pinned are left out, and only theirs', async () => {
      const u = await newUser(t, { superAdmin: true });
      const other = await newUser(t);
      await t.fetch('/api/proxy/api/me/dashboard-widgets', {
        method: 'POST',
        token: u.token,
        json: { dataset_id: 'users.by-role', widget_type: 'pie' },
      });
      await t.fetch('/api/proxy/api/me/dashboard-widgets', {
        method: 'POST',
        token: other.token,
        json: { dataset_id: 'tenancy.active-clusters', widget_type: 'kpi' },
      });
      const all = (await (await get(CATALOG, u.token)).json()) as { items: Dataset[]; count: number };
      const picker = (await (await get(`${CATALOG}?exclude_pinned=true`, u.token)).json()) as {
        items: Dataset[];
        count: number;
      };
      expect(all.items.map((d) => d.id)).toContain('users.by-role');
      expect(picker.items.map((d) => d.id)).not.toContain('users.by-role');
      expect(picker.items.map((d) => d.id)).toContain('tenancy.active-clusters');
      expect(picker.count).toBe(all.count - 1);
    });

    it('when a dataset id is not in the catalog, then its values are 404; a malformed id is 400', async () => {
      expect((await get(`${CATALOG}/inventory.nothing-here/values`)).status).toBe(404);
      expect((await get(`${CATALOG}/NOT%20AN%20ID/values`)).status).toBe(400);
    });

    it('when nobody is signed in, then the catalog is 401', async () => {
      expect((await t.fetch(CATALOG)).status).toBe(401);
    });
  });

  describe('values from inserted data', () => {
    it('when active clusters are added, then tenancy.active-clusters counts them and skips inactive and soft-deleted ones', async () => {
      const before = await values<{ value: number }>('tenancy.active-clusters');
      await newCluster(t);
      await newCluster(t);
      await newCluster(t, { is_active: false });
      await newCluster(t, { deleted_at: new Date() });
      expect(await values<{ value: number }>('tenancy.active-clusters')).toEqual({ value: before.value + 2 });
    });

    it('when business units are added, then tenancy.active-business-units counts the live active ones', async () => {
      const before = await values<{ value: number }>('tenancy.active-business-units');
      const c = await newCluster(t);
      await newBu(t, c.id);
      await newBu(t, c.id);
      await newBu(t, c.id);
      await newBu(t, c.id, { is_active: false });
      await newBu(t, c.id, { deleted_at: new Date() });
      expect(await values<{ value: number }>('tenancy.active-business-units')).toEqual({ value: before.value + 3 });
    });

    it('when BUs were created in the last 30 days and the 30 before, then tenancy.new-business-units gives value, prev and change', async () => {
      const before = await values<{ value: number; prev: number; change: number }>('tenancy.new-business-units');
      const c = await newCluster(t);
      const now = Date.now();
      for (const daysAgo of [1, 5, 29]) await newBu(t, c.id, { created_at: new Date(now - daysAgo * DAY) });
      for (const daysAgo of [31, 45]) await newBu(t, c.id, { created_at: new Date(now - daysAgo * DAY) });
      await newBu(t, c.id, { created_at: new Date(now - 90 * DAY) });
      await newBu(t, c.id, { created_at: new Date(now - 3 * DAY), deleted_at: new Date() });
      const after = await values<{ value: number; prev: number; change: number }>('tenancy.new-business-units');
      expect(after).toEqual({
        value: before.value + 3,
        prev: before.prev + 2,
        change: before.value + 3 - (before.prev + 2),
      });
    });

    it('when a cluster has licensed users in its BUs, then tenancy.licence-use-by-cluster counts them per cluster', async () => {
      const busy = await newCluster(t);
      const empty = await newCluster(t);
      const b1 = await newBu(t, busy.id);
      const b2 = await newBu(t, busy.id);
      const gone = await newBu(t, busy.id, { deleted_at: new Date() });
      const users = await Promise.all([1, 2, 3, 4].map(() => newUser(t)));
      await t.knex('bu_users').insert([
        { user_id: users[0]!.id, business_unit_id: b1 },
        { user_id: users[1]!.id, business_unit_id: b1 },
        { user_id: users[2]!.id, business_unit_id: b1 },
        { user_id: users[0]!.id, business_unit_id: b2 },
        { user_id: users[3]!.id, business_unit_id: gone },
      ]);
      const deleted = await newCluster(t, { deleted_at: new Date() });
      const data = await values<Point[]>('tenancy.licence-use-by-cluster');
      expect(point(data, busy.name)).toBe(4);
      expect(point(data, empty.name)).toBe(0);
      expect(point(data, deleted.name)).toBeUndefined();
      const counts = data.map((p) => p.value);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });

    it('when users of each role are added, then users.by-role counts each active user under their highest role', async () => {
      const before = await values<Point[]>('users.by-role');
      expect(before.map((p) => p.label)).toEqual(['Super admin', 'Cluster admin', 'Cluster user', 'No cluster']);
      const c1 = await newCluster(t);
      const c2 = await newCluster(t);
      await newUser(t, { superAdmin: true });
      const admin = await newUser(t);
      const member1 = await newUser(t);
      const member2 = await newUser(t);
      await newUser(t);
      const inactive = await newUser(t, { active: false });
      await t.knex('cluster_users').insert([
        { user_id: admin.id, cluster_id: c1.id, role: 'admin' },
        { user_id: admin.id, cluster_id: c2.id, role: 'user' },
        { user_id: member1.id, cluster_id: c1.id, role: 'user' },
        { user_id: member2.id, cluster_id: c2.id, role: 'user' },
        { user_id: inactive.id, cluster_id: c1.id, role: 'admin' },
      ]);
      const after = await values<Point[]>('users.by-role');
      const delta = (label: string) => point(after, label)! - point(before, label)!;
      expect([delta('Super admin'), delta('Cluster admin'), delta('Cluster user'), delta('No cluster')]).toEqual([
        1, 1, 2, 1,
      ]);
    });

    it('when mappings are added, then printing.mappings-by-document-type counts the live ones for all ten types in order', async () => {
      const before = await values<Point[]>('printing.mappings-by-document-type');
      expect(before.map((p) => p.label)).toEqual(['PR', 'PO', 'GRN', 'SR', 'CN', 'IA', 'PC', 'SC', 'RFQ', 'INV']);
      const row = (document_type: string, extra: Record<string, unknown> = {}) => ({
        document_type,
        report_template_id: randomUUID(),
        is_default: false,
        ...extra,
      });
      await t
        .knex('print_template_mappings')
        .insert([row('SC'), row('SC', { is_active: false }), row('SC', { deleted_at: new Date() }), row('RFQ')]);
      const after = await values<Point[]>('printing.mappings-by-document-type');
      expect(point(after, 'SC')).toBe(point(before, 'SC')! + 2);
      expect(point(after, 'RFQ')).toBe(point(before, 'RFQ')! + 1);
      expect(point(after, 'PR')).toBe(point(before, 'PR'));
    });

    it("when documents wait on the caller, then the personal approval datasets count and sum only the caller's pending ones", async () => {
      const u = await newUser(t);
      const someoneElse = await newUser(t);
      const empty = await values<Point[]>('approvals.pending-by-type', u.token);
      expect(empty).toEqual([
        { label: 'Purchase Request', value: 0 },
        { label: 'Purchase Order', value: 0 },
        { label: 'Store Requisition', value: 0 },
      ]);
      expect(await values<{ value: number }>('approvals.my-pending-count', u.token)).toEqual({ value: 0 });
      await newDocument(t, buId, 'pr', 'pending', 100.25, [u.id, someoneElse.id]);
      await newDocument(t, buId, 'pr', 'pending', 200.5, [u.id]);
      await newDocument(t, buId, 'po', 'pending', 1000, [u.id]);
      await newDocument(t, buId, 'po', 'approved', 5000, [u.id]);
      await newDocument(t, buId, 'sr', 'pending', 70, [someoneElse.id]);
      await newDocument(t, buId, 'sr', 'draft', 80, []);
      expect(await values<{ value: number }>('approvals.my-pending-count', u.token)).toEqual({ value: 3 });
      expect(await values<{ value: number }>('approvals.my-pending-amount', u.token)).toEqual({ value: 1300.75 });
      expect(await values<Point[]>('approvals.pending-by-type', u.token)).toEqual([
        { label: 'Purchase Request', value: 2 },
        { label: 'Purchase Order', value: 1 },
        { label: 'Store Requisition', value: 0 },
      ]);
      expect(await values<Point[]>('approvals.amount-by-type', u.token)).toEqual([
        { label: 'Purchase Request', value: 300.75 },
        { label: 'Purchase Order', value: 1000 },
        { label: 'Store Requisition', value: 0 },
      ]);
      expect(await values<{ value: number }>('approvals.my-pending-count', someoneElse.token)).toEqual({ value: 2 });
    });

    it('when pending amounts are in two currencies, then money is totalled in one currency at a time and never added across', async () => {
      const u = await newUser(t);
      await newDocument(t, buId, 'pr', 'pending', 100, [u.id], 'USD');
      await newDocument(t, buId, 'po', 'pending', 1000, [u.id], 'THB');
      await newDocument(t, buId, 'po', 'pending', 500, [u.id], 'THB');
      const full = async (query: string) => {
        const res = await get(`${CATALOG}/approvals.my-pending-amount/values${query}`, u.token);
        expect(res.status).toBe(200);
        return (await res.json()) as { data: { value: number }; currency: string | null; currencies: string[] };
      };
      // By default the currency of most of the caller's documents; the others are listed to choose from.
      expect(await full('')).toMatchObject({ data: { value: 1500 }, currency: 'THB', currencies: ['THB', 'USD'] });
      expect(await full('?currency=USD')).toMatchObject({ data: { value: 100 }, currency: 'USD' });
      expect(await full('?currency=EUR')).toMatchObject({ data: { value: 0 }, currency: 'EUR' });
      const byType = await get(`${CATALOG}/approvals.amount-by-type/values?currency=USD`, u.token);
      expect(((await byType.json()) as { data: Point[]; currency: string }).data).toEqual([
        { label: 'Purchase Request', value: 100 },
        { label: 'Purchase Order', value: 0 },
        { label: 'Store Requisition', value: 0 },
      ]);
      // Counts carry no currency.
      const counts = (await (await get(`${CATALOG}/approvals.pending-by-type/values`, u.token)).json()) as {
        currency: unknown;
        currencies: unknown;
      };
      expect(counts).toMatchObject({ currency: null, currencies: [] });
    });

    it('when any dataset is computed, then it takes exactly one SQL statement', async () => {
      const catalog = (await (await get(CATALOG)).json()) as { items: Dataset[] };
      const service = datasetService({ knex: t.knex, pinnedDatasetIds: async () => new Set() });
      for (const d of catalog.items) {
        let statements = 0;
        const count = () => statements++;
        t.knex.on('query', count);
        try {
          await service.values(
            {
              userId: me.id,
              permissions: {
                platform: [],
                clusters: {},
                is_super_admin: true,
                must_change_password: false,
                must_enrol_second_factor: false,
              },
            },
            d.id,
          );
        } finally {
          t.knex.removeListener('query', count);
        }
        expect(statements, d.id).toBe(1);
      }
    });

    it('when every catalog dataset is read, then each answers 200 in the shape it declares', async () => {
      const catalog = (await (await get(CATALOG)).json()) as { items: Dataset[] };
      for (const d of catalog.items) {
        const data = await values<unknown>(d.id);
        if (d.shape === 'categorical') expect(Array.isArray(data)).toBe(true);
        else if (d.shape === 'scalar') expect(Object.keys(data as object)).toEqual(['value']);
        else expect(Object.keys(data as object).sort()).toEqual(['change', 'prev', 'value']);
      }
    });
  });
});
