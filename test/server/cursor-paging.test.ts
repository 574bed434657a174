import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import {
  aBusinessUnit,
  aBusinessUnitMembership,
  aCluster,
  aClusterMembership,
  aUser,
  aUserWith,
  asFixture,
} from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type Paginate = components['schemas']['Paginate'];
type Problem = components['schemas']['Problem'];
interface Page {
  data: Array<{ id: string }>;
  paginate: Paginate;
}

const tag = () => randomUUID().slice(0, 6).toLowerCase();
const PER_PAGE = 3;

describe.each(engines())('cursor paging on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  /** GET the list with these query parameters (form-encoded, as the validator wants `:` encoded). */
  async function get(path: string, params: Record<string, string | number>, token = admin): Promise<Response> {
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return t.fetch(`${path}?${query}`, { token });
  }

  async function pageOf(path: string, params: Record<string, string | number>, token = admin): Promise<Page> {
    const res = await get(path, params, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Page;
  }

  /** Every row by page number, pages 1 … `pages`. */
  async function byPages(path: string, params: Record<string, string | number>, token = admin): Promise<string[]> {
    const first = await pageOf(path, { ...params, page: 1, perpage: PER_PAGE }, token);
    const ids = first.data.map((r) => r.id);
    for (let page = 2; page <= first.paginate.pages; page++) {
      ids.push(...(await pageOf(path, { ...params, page, perpage: PER_PAGE }, token)).data.map((r) => r.id));
    }
    return ids;
  }

  /** Every row by cursor from the first page, and the pages seen. */
  async function byCursor(
    path: string,
    params: Record<string, string | number>,
    token = admin,
    between: (pageIndex: number) => Promise<void> = async () => {},
  ): Promise<{ ids: string[]; pages: Page[] }> {
    const pages: Page[] = [await pageOf(path, { ...params, perpage: PER_PAGE }, token)];
    for (;;) {
      const cursor = pages[pages.length - 1]!.paginate.next_cursor;
      if (!cursor) break;
      await between(pages.length);
      pages.push(await pageOf(path, { ...params, perpage: PER_PAGE, cursor }, token));
      expect(pages.length, 'the walk ends').toBeLessThan(100);
    }
    return { ids: pages.flatMap((p) => p.data.map((r) => r.id)), pages };
  }

  async function refusal(res: Response): Promise<Problem> {
    expect(res.status, await res.clone().text()).toBe(400);
    return (await res.json()) as Problem;
  }

  let clusterId: string;
  let otherClusterId: string;
  let buId: string;
  let word: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    word = tag();
    // Seven clusters; four share one creation instant (the id breaks the tie) and some have no alias or licence cap.
    const clusters: Array<{ id: string }> = [];
    for (let i = 0; i < 7; i++) {
      clusters.push(
        await aCluster(t, {
          code: `KS${word}${String(7 - i).padStart(2, '0')}`,
          name: `Keyset ${word} ${i % 3}`,
          alias_name: i % 2 === 0 ? null : `K${i}`,
          max_license_bu: i % 3 === 0 ? null : i,
        }),
      );
    }
    await asFixture(t, (trx) =>
      trx('clusters')
        .whereIn(
          'id',
          clusters.slice(0, 4).map((c) => c.id),
        )
        .update({ created_at: trx.raw(`'2026-11-20T08:00:00.123456Z'::timestamptz`) }),
    );
    clusterId = clusters[0]!.id;
    otherClusterId = clusters[1]!.id;
    for (let i = 0; i < 5; i++) {
      await aBusinessUnit(t, { cluster_id: clusterId, code: `KB${word}${i}`, alias_name: i % 2 ? 'KBA' : null });
    }
    await aBusinessUnit(t, { cluster_id: otherClusterId, code: `KB${word}X` });
    const bu = await aBusinessUnit(t, { cluster_id: clusterId, code: `KB${word}M` });
    buId = bu.id;
    for (let i = 0; i < 7; i++) {
      const user = await aUser(t, {
        username: `ks${word}${i}`,
        firstname: i % 2 ? `Kay ${i % 3}` : null,
        lastname: i % 3 ? null : 'Setter',
      });
      await aClusterMembership(t, { user_id: user.id, cluster_id: clusterId });
      await aBusinessUnitMembership(t, { user_id: user.id, business_unit_id: buId, role: 'user' });
    }
    // Half the accounts have signed in: a nullable sort column.
    await asFixture(t, (trx) =>
      trx('users')
        .where('username', 'like', `ks${word}%`)
        .whereRaw("right(username, 1) in ('1', '3', '5')")
        .update({ last_sign_in_at: trx.raw(`'2026-11-21T10:00:00Z'::timestamptz`) }),
    );
  });
  afterAll(() => t?.close());

  const lists = (): Array<[string, string, Record<string, string | number>]> => [
    ['clusters, newest first', '/api-system/clusters', { search: word }],
    ['clusters by code', '/api-system/clusters', { search: word, sort: 'code:asc' }],
    ['clusters by alias (nulls)', '/api-system/clusters', { search: word, sort: 'alias_name:desc,name:asc' }],
    ['clusters by licence cap (nulls)', '/api-system/clusters', { search: word, sort: 'max_license_bu:asc' }],
    ['business units of a cluster', '/api-system/business-units', { cluster_id: clusterId }],
    [
      'business units by alias (nulls)',
      '/api-system/business-units',
      { cluster_id: clusterId, sort: 'alias_name:asc' },
    ],
    ['accounts by username', '/api-system/users', { search: `ks${word}` }],
    ['accounts by last sign-in (nulls)', '/api-system/users', { search: `ks${word}`, sort: 'last_sign_in_at:desc' }],
    ['audit events of a cluster', '/api-system/audit-events', { cluster_id: clusterId }],
    // The console's History: a record's own events with its memberships', walked by "more".
    [
      'a cluster’s History with memberships',
      '/api-system/audit-events',
      { target_type: 'cluster', target_id: clusterId, with_memberships: 'true' },
    ],
  ];

  it('when every list is walked by cursor to its end, then it holds the rows of page/perpage in the same order, and the last page has no next cursor', async () => {
    for (const [name, path, params] of lists()) {
      const pages = await byPages(path, params);
      const walk = await byCursor(path, params);
      expect(pages.length, name).toBeGreaterThan(PER_PAGE);
      expect(walk.ids, name).toEqual(pages);
      expect(new Set(walk.ids).size, name).toBe(walk.ids.length);
      expect(
        walk.pages.map((p) => p.paginate.page),
        name,
      ).toEqual(walk.pages.map((_, i) => i + 1));
      expect(walk.pages.at(-1)!.paginate.next_cursor, name).toBeNull();
    }
  });

  it('when the member lists are walked by cursor, then they hold every member in the full list order; without perpage or cursor the whole list comes as before', async () => {
    for (const path of [`/api-system/user/clusters/${clusterId}`, `/api-system/user/business-units/${buId}`]) {
      const all = await pageOf(path, {});
      expect(all.paginate, 'no paginate without perpage or cursor').toBeUndefined();
      expect(all.data).toHaveLength(7);
      const walk = await byCursor(path, {});
      expect(walk.ids).toEqual(all.data.map((r) => r.id));
      expect(walk.pages[0]!.paginate).toMatchObject({ total: 7, page: 1, perpage: PER_PAGE, pages: 3 });
      expect(walk.pages.at(-1)!.paginate).toMatchObject({ page: 3, next_cursor: null });
    }
  });

  it('when a page is asked for by number, then it also carries the cursor to the page after it', async () => {
    const params = { search: word, sort: 'code:asc' };
    const second = await pageOf('/api-system/clusters', { ...params, page: 2, perpage: PER_PAGE });
    const third = await pageOf('/api-system/clusters', { ...params, page: 3, perpage: PER_PAGE });
    const next = await pageOf('/api-system/clusters', {
      ...params,
      perpage: PER_PAGE,
      cursor: second.paginate.next_cursor!,
    });
    expect(next.data.map((r) => r.id)).toEqual(third.data.map((r) => r.id));
    expect(next.paginate.page).toBe(3);
  });

  it('when rows are added before and after the position mid-walk, then no existing row repeats or is skipped, and only the later one is met', async () => {
    const params = { search: word, sort: 'code:asc' };
    const before = await byPages('/api-system/clusters', params);
    let early = '';
    let late = '';
    const walk = await byCursor('/api-system/clusters', params, admin, async (index) => {
      if (index !== 1) return;
      early = (await aCluster(t, { code: `KS${word}00`, name: 'Keyset early' })).id;
      late = (await aCluster(t, { code: `KS${word}99`, name: 'Keyset late' })).id;
    });
    expect(walk.ids).toEqual([...before, late]);
    expect(walk.ids).not.toContain(early);
    await asFixture(t, (trx) => trx('clusters').whereIn('id', [early, late]).update({ deleted_at: trx.fn.now() }));
  });

  it('when a cursor is altered, or sent to another list, sort, filter or by another caller, then 400 says to start from the first page', async () => {
    const params = { search: word, sort: 'code:asc' };
    const first = await pageOf('/api-system/clusters', { ...params, perpage: PER_PAGE });
    const cursor = first.paginate.next_cursor!;
    const [body, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([[`KS${word}00`, '00000000-0000-4000-8000-000000000000'], 0])).toString(
      'base64url',
    );
    const otherReader = await aUserWith(t, ['cluster.read']);
    const attempts: Array<[string, Promise<Response>]> = [
      ['altered signature', get('/api-system/clusters', { ...params, cursor: `${body}.${signature.slice(1)}A` })],
      ['forged position', get('/api-system/clusters', { ...params, cursor: `${forged}.${signature}` })],
      ['not a cursor', get('/api-system/clusters', { ...params, cursor: 'page-2' })],
      ['another sort', get('/api-system/clusters', { search: word, sort: 'name:asc', cursor })],
      ['another search', get('/api-system/clusters', { search: `${word}0`, sort: 'code:asc', cursor })],
      ['another filter', get('/api-system/clusters', { ...params, is_active: 'true', cursor })],
      ['another list', get('/api-system/business-units', { search: word, sort: 'code:asc', cursor })],
      ['another member list', get(`/api-system/user/clusters/${otherClusterId}`, { cursor })],
      ['another caller', get('/api-system/clusters', { ...params, cursor }, otherReader.token)],
    ];
    for (const [name, attempt] of attempts) {
      const problem = await refusal(await attempt);
      expect(problem.detail, name).toMatch(/start again from the first page/);
    }
    const members = await pageOf(`/api-system/user/clusters/${clusterId}`, { perpage: 2 });
    const foreign = await refusal(
      await get(`/api-system/user/clusters/${otherClusterId}`, { cursor: members.paginate.next_cursor! }),
    );
    expect(foreign.detail).toMatch(/not a cursor of this list/);
  });

  it('when a cluster-scoped reader walks by cursor, then only its cluster’s rows come, however the cursor was made', async () => {
    const reader = await aUserWith(t, [['cluster.read', clusterId]]);
    const clusters = await byCursor('/api-system/clusters', { search: word }, reader.token);
    expect(clusters.ids).toEqual([clusterId]);
    const units = await byCursor('/api-system/business-units', { search: `KB${word}` }, reader.token);
    expect(units.ids.length).toBe(6);
    const seen = await asFixture(t, (trx) => trx('business_units').whereIn('id', units.ids).distinct('cluster_id'));
    expect(seen).toEqual([{ cluster_id: clusterId }]);
    const everyUnit = await byCursor('/api-system/business-units', { search: `KB${word}` });
    expect(everyUnit.ids.length).toBe(7);
  });

  it('when total=estimate is asked for, then paginate says so, the total is at least the rows shown, and the walk is the same', async () => {
    for (const [name, path, params] of lists()) {
      const exact = await byCursor(path, params);
      const estimated = await byCursor(path, { ...params, total: 'estimate' });
      expect(estimated.ids, name).toEqual(exact.ids);
      for (const page of estimated.pages) {
        expect(page.paginate.total_estimated, name).toBe(true);
        expect(page.paginate.total, name).toBeGreaterThanOrEqual(page.data.length);
      }
      expect(exact.pages[0]!.paginate.total_estimated, name).toBeUndefined();
    }
  });
});
