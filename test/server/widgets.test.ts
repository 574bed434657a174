import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { aUserWith } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const BASE = '/api/proxy/api/me/dashboard-widgets';

interface Widget {
  id: string;
  dataset_id: string;
  widget_type: string;
  title: string | null;
  order_index: number;
  created_at: string;
  updated_at: string;
}

// Datasets of each shape from the catalog.
const SCALARS = [
  'tenancy.active-clusters',
  'tenancy.active-business-units',
  'approvals.my-pending-count',
  'approvals.my-pending-amount',
];
const DELTA = 'tenancy.new-business-units';
const CATEGORICALS = [
  'tenancy.licence-use-by-cluster',
  'users.by-role',
  'printing.mappings-by-document-type',
  'approvals.pending-by-type',
  'approvals.amount-by-type',
];

describe.each(engines())('widgets on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t?.close());

  const send = (method: string, path: string, token: string | undefined, json?: unknown) =>
    t.fetch(path, { method, token, json });
  const add = async (token: string, body: Record<string, unknown>) => {
    const res = await send('POST', BASE, token, body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Widget;
  };
  const list = async (token: string) =>
    (await (await send('GET', BASE, token)).json()) as { items: Widget[]; count: number };

  it('when a new user lists widgets, then the list is empty with count 0', async () => {
    const u = await aUserWith(t, []);
    const res = await send('GET', BASE, u.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ items: [], count: 0 });
  });

  it('when widgets are added, then they take slots 10, 20, 30 and the list returns them in order with the count', async () => {
    const u = await aUserWith(t, []);
    const res = await send('POST', BASE, u.token, {
      dataset_id: SCALARS[0],
      widget_type: 'kpi',
      title: 'Live clusters',
    });
    expect(res.status).toBe(201);
    const first = (await res.json()) as Widget;
    expect(res.headers.get('location')).toBe(`${BASE}/${first.id}`);
    expect(first).toMatchObject({
      dataset_id: SCALARS[0],
      widget_type: 'kpi',
      title: 'Live clusters',
      order_index: 10,
    });
    const second = await add(u.token, { dataset_id: CATEGORICALS[0], widget_type: 'pie' });
    const third = await add(u.token, { dataset_id: DELTA, widget_type: 'gauge' });
    expect(second).toMatchObject({ order_index: 20, title: null });
    expect(third.order_index).toBe(30);
    const body = await list(u.token);
    expect(body.count).toBe(3);
    expect(body.items.map((w) => w.id)).toEqual([first.id, second.id, third.id]);
  });

  it('when widgets are deleted and added again, then a new widget always goes 10 after the current last slot', async () => {
    const u = await aUserWith(t, []);
    const a = await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    const b = await add(u.token, { dataset_id: SCALARS[1], widget_type: 'kpi' });
    const c = await add(u.token, { dataset_id: SCALARS[2], widget_type: 'kpi' });
    expect([a, b, c].map((w) => w.order_index)).toEqual([10, 20, 30]);
    expect((await send('DELETE', `${BASE}/${c.id}`, u.token)).status).toBe(204);
    expect((await add(u.token, { dataset_id: SCALARS[3], widget_type: 'kpi' })).order_index).toBe(30);
    expect((await send('DELETE', `${BASE}/${a.id}`, u.token)).status).toBe(204);
    expect((await add(u.token, { dataset_id: DELTA, widget_type: 'kpi' })).order_index).toBe(40);
    await send('PATCH', `${BASE}/${b.id}`, u.token, { order_index: 100 });
    expect((await add(u.token, { dataset_id: CATEGORICALS[1], widget_type: 'bar' })).order_index).toBe(110);
  });

  it('when the last widget is removed, then the next one starts again at slot 10', async () => {
    const u = await aUserWith(t, []);
    const only = await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    await send('DELETE', `${BASE}/${only.id}`, u.token);
    expect((await add(u.token, { dataset_id: SCALARS[1], widget_type: 'kpi' })).order_index).toBe(10);
  });

  it('when one user adds several widgets in parallel, then every widget gets its own slot', async () => {
    const u = await aUserWith(t, []);
    const datasets = [...SCALARS, DELTA, ...CATEGORICALS];
    const results = await Promise.all(
      datasets.map((d) =>
        send('POST', BASE, u.token, { dataset_id: d, widget_type: CATEGORICALS.includes(d) ? 'bar' : 'kpi' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(datasets.map(() => 201));
    const slots = (await list(u.token)).items.map((w) => w.order_index).sort((x, y) => x - y);
    expect(slots).toEqual(datasets.map((_, i) => (i + 1) * 10));
  });

  it('when two users add widgets, then each user has their own slots starting at 10', async () => {
    const a = await aUserWith(t, []);
    const b = await aUserWith(t, []);
    await add(a.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    await add(a.token, { dataset_id: SCALARS[1], widget_type: 'kpi' });
    expect((await add(b.token, { dataset_id: SCALARS[0], widget_type: 'kpi' })).order_index).toBe(10);
    expect((await list(b.token)).count).toBe(1);
  });

  it('when the dataset is not in the catalog, then 400 names dataset_id and nothing is stored', async () => {
    const u = await aUserWith(t, []);
    const res = await send('POST', BASE, u.token, { dataset_id: 'inventory.no-such-dataset', widget_type: 'kpi' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const body = (await res.json()) as { detail: string; errors: Array<{ path: string }> };
    expect(body.detail).toContain('inventory.no-such-dataset');
    expect(body.errors[0]!.path).toContain('dataset_id');
    expect((await list(u.token)).count).toBe(0);
  });

  it.each([
    ['pie', 'a scalar', SCALARS[0]!],
    ['bar', 'a scalar', SCALARS[0]!],
    ['pie', 'a scalar_delta', DELTA],
    ['kpi', 'a categorical', CATEGORICALS[0]!],
    ['gauge', 'a categorical', CATEGORICALS[0]!],
  ])('when widget_type %s is asked for %s dataset, then 400 says which types fit', async (type, _shape, dataset) => {
    const u = await aUserWith(t, []);
    const res = await send('POST', BASE, u.token, { dataset_id: dataset, widget_type: type });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { detail: string; errors: Array<{ path: string }> };
    expect(body.errors[0]!.path).toContain('widget_type');
    expect(body.detail).toMatch(CATEGORICALS.includes(dataset) ? /pie or bar/ : /kpi or gauge/);
  });

  it.each([
    ['kpi', SCALARS[0]!],
    ['gauge', SCALARS[0]!],
    ['kpi', DELTA],
    ['gauge', DELTA],
    ['pie', CATEGORICALS[0]!],
    ['bar', CATEGORICALS[0]!],
  ])('when widget_type %s is asked for %s, then it is accepted', async (type, dataset) => {
    const u = await aUserWith(t, []);
    expect((await add(u.token, { dataset_id: dataset, widget_type: type })).widget_type).toBe(type);
  });

  it('when widget_type is not a known card type, then 400 is returned', async () => {
    const u = await aUserWith(t, []);
    expect((await send('POST', BASE, u.token, { dataset_id: SCALARS[0], widget_type: 'table' })).status).toBe(400);
    expect((await send('POST', BASE, u.token, { dataset_id: SCALARS[0] })).status).toBe(400);
  });

  it('when the dataset is already pinned, then 409 and the dashboard keeps one widget for it', async () => {
    const u = await aUserWith(t, []);
    await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    const res = await send('POST', BASE, u.token, { dataset_id: SCALARS[0], widget_type: 'gauge' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await list(u.token)).count).toBe(1);
  });

  it('when the same dataset is pinned twice in parallel, then one add wins and the other is 409', async () => {
    const u = await aUserWith(t, []);
    const results = await Promise.all(
      [0, 1, 2].map(() => send('POST', BASE, u.token, { dataset_id: DELTA, widget_type: 'kpi' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await list(u.token)).count).toBe(1);
  });

  it('when a widget is renamed and moved, then PATCH returns it changed and the list follows the new order', async () => {
    const u = await aUserWith(t, []);
    const a = await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    const b = await add(u.token, { dataset_id: SCALARS[1], widget_type: 'kpi' });
    const res = await send('PATCH', `${BASE}/${a.id}`, u.token, { title: 'Clusters online', order_index: 25 });
    expect(res.status).toBe(200);
    const moved = (await res.json()) as Widget;
    expect(moved).toMatchObject({ id: a.id, title: 'Clusters online', order_index: 25, dataset_id: SCALARS[0] });
    expect(Date.parse(moved.updated_at)).toBeGreaterThanOrEqual(Date.parse(a.updated_at));
    expect((await list(u.token)).items.map((w) => w.id)).toEqual([b.id, a.id]);
  });

  it('when only the title or only the order is sent, then the other stays; a null title goes back to the dataset name', async () => {
    const u = await aUserWith(t, []);
    const w = await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi', title: 'Mine' });
    const moved = (await (await send('PATCH', `${BASE}/${w.id}`, u.token, { order_index: 70 })).json()) as Widget;
    expect(moved).toMatchObject({ title: 'Mine', order_index: 70 });
    const renamed = (await (await send('PATCH', `${BASE}/${w.id}`, u.token, { title: null })).json()) as Widget;
    expect(renamed).toMatchObject({ title: null, order_index: 70 });
  });

  it('when PATCH has no fields or a negative order, then 400 is returned', async () => {
    const u = await aUserWith(t, []);
    const w = await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    expect((await send('PATCH', `${BASE}/${w.id}`, u.token, {})).status).toBe(400);
    expect((await send('PATCH', `${BASE}/${w.id}`, u.token, { order_index: -10 })).status).toBe(400);
    expect((await send('PATCH', `${BASE}/${w.id}`, u.token, { dataset_id: SCALARS[1] })).status).toBe(400);
  });

  it("when another user's widget is patched or deleted, then 404 (never 403) and the widget is untouched", async () => {
    const owner = await aUserWith(t, []);
    const other = await aUserWith(t, []);
    const w = await add(owner.token, { dataset_id: SCALARS[0], widget_type: 'kpi', title: 'Owned' });
    const patch = await send('PATCH', `${BASE}/${w.id}`, other.token, { title: 'Stolen' });
    expect(patch.status).toBe(404);
    expect(patch.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await send('DELETE', `${BASE}/${w.id}`, other.token)).status).toBe(404);
    const unknown = await send('PATCH', `${BASE}/${randomUUID()}`, other.token, { title: 'x' });
    expect(((await patch.clone().json()) as { detail: string }).detail).toBe(
      ((await unknown.json()) as { detail: string }).detail,
    );
    expect((await list(other.token)).count).toBe(0);
    expect((await list(owner.token)).items).toEqual([expect.objectContaining({ id: w.id, title: 'Owned' })]);
  });

  it('when a widget is deleted, then 204, it leaves the list, and deleting it again is 404', async () => {
    const u = await aUserWith(t, []);
    const w = await add(u.token, { dataset_id: SCALARS[0], widget_type: 'kpi' });
    const res = await send('DELETE', `${BASE}/${w.id}`, u.token);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await list(u.token)).count).toBe(0);
    expect((await send('DELETE', `${BASE}/${w.id}`, u.token)).status).toBe(404);
  });

  it('when the widget id is not a UUID, then 400 is returned', async () => {
    const u = await aUserWith(t, []);
    expect((await send('PATCH', `${BASE}/not-a-uuid`, u.token, { title: 'x' })).status).toBe(400);
    expect((await send('DELETE', `${BASE}/not-a-uuid`, u.token)).status).toBe(400);
  });

  it('when nobody is signed in, then the widget endpoints are 401', async () => {
    expect((await send('GET', BASE, undefined)).status).toBe(401);
    expect((await send('POST', BASE, undefined, { dataset_id: SCALARS[0], widget_type: 'kpi' })).status).toBe(401);
  });

  it('when the demo operator signs in, then their seeded widgets are catalog datasets on slots 10 apart', async () => {
    const token = await t.login('operator');
    const body = await list(token);
    expect(body.count).toBeGreaterThanOrEqual(3);
    expect(body.items.map((w) => w.order_index)).toEqual(body.items.map((_, i) => (i + 1) * 10));
    const catalog = (await (await send('GET', '/api/proxy/api/datasets', token)).json()) as {
      items: Array<{ id: string; widget_types: string[] }>;
    };
    for (const w of body.items) {
      const dataset = catalog.items.find((d) => d.id === w.dataset_id);
      expect(dataset, w.dataset_id).toBeDefined();
      expect(dataset!.widget_types).toContain(w.widget_type);
    }
  });
});
