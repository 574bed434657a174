import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyString } from '../support/matchers.js';
import type { components } from '../../openapi/generated/schema.js';
import { aBusinessUnit, aCluster, aUserWith } from '../support/factory.js';
import type { ClusterMemberRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type Paginate = components['schemas']['Paginate'];
type Page = { data: Array<{ id: string }>; paginate: Paginate };

const tag = () => randomUUID().slice(0, 6).toUpperCase();

interface Statement {
  sql: string;
  /** `raw` when the statement ran from a compiled template, the builder's method otherwise */
  method?: string;
  bindings?: unknown[];
  options?: { name?: string };
}

/** The caller's standing (its flags, grants and session: one statement) is the authentication's, not the list's. */
const isCallerStanding = (sql: string) => /from "users" left join "permission_grants"/.test(sql);

describe.each(engines())('list pages as one statement on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  /** The response of one GET and the statements the list itself ran for it. */
  async function listed(path: string, token = admin): Promise<{ page: Page; statements: Statement[] }> {
    const seen: Statement[] = [];
    const onQuery = (q: Statement) =>
      seen.push({ sql: q.sql, method: q.method, bindings: q.bindings, options: q.options });
    t.knex.on('query', onQuery);
    try {
      const res = await t.fetch(path, { token });
      expect(res.status, await res.clone().text()).toBe(200);
      return { page: (await res.json()) as Page, statements: seen.filter((s) => !isCallerStanding(s.sql)) };
    } finally {
      t.knex.off('query', onQuery);
    }
  }

  /** The page, after checking that the list ran exactly one statement for it. */
  async function onePage(path: string, token = admin): Promise<Page> {
    const { page, statements } = await listed(path, token);
    expect(statements.map((s) => s.sql)).toHaveLength(1);
    return page;
  }

  async function remove(path: string): Promise<void> {
    expect((await t.fetch(path, { method: 'DELETE', token: admin })).status).toBe(204);
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when clusters are listed, then one statement returns the rows, their counts and audit names, and the total', async () => {
    const prefix = `LS${tag()}`;
    const [a, b, c] = [
      await aCluster(t, { code: `${prefix}-A` }),
      await aCluster(t, { code: `${prefix}-B` }),
      await aCluster(t, { code: `${prefix}-C` }),
    ];
    await aBusinessUnit(t, { cluster_id: a.id, code: `${prefix}-A1` });
    await aBusinessUnit(t, { cluster_id: a.id, code: `${prefix}-A2` });
    const member = await aUserWith(t, []);
    await t.knex<ClusterMemberRecord>('cluster_users').insert({ user_id: member.id, cluster_id: a.id });

    const page = await onePage(`/api-system/clusters?search=${prefix}&sort=code%3Aasc&perpage=2`);
    expect(page.paginate).toEqual({ total: 3, page: 1, perpage: 2, pages: 2, next_cursor: anyString() });
    expect(page.data.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(page.data[0]).toMatchObject({
      bu_count: 2,
      users_count: 1,
      total_max_license_users: null,
      created_by_name: 'Platform Admin',
      deleted_by_name: null,
    });
    expect(page.data[1]).toMatchObject({ bu_count: 0, users_count: 0 });

    const second = await onePage(`/api-system/clusters?search=${prefix}&sort=code%3Aasc&perpage=2&page=2`);
    expect(second.data.map((r) => r.id)).toEqual([c.id]);
    expect(second.paginate.total).toBe(3);
  });

  it('when the page is past the end, then every list answers no rows and the right total', async () => {
    const prefix = `LE${tag()}`;
    const cluster = await aCluster(t, { code: `${prefix}-A` });
    await aCluster(t, { code: `${prefix}-B` });
    await aBusinessUnit(t, { cluster_id: cluster.id, code: `${prefix}-U1` });
    const user = await aUserWith(t, [], { username: `le-${prefix.toLowerCase()}` });

    const clusters = await onePage(`/api-system/clusters?search=${prefix}&perpage=1&page=9`);
    expect(clusters).toEqual({ data: [], paginate: { total: 2, page: 9, perpage: 1, pages: 2, next_cursor: null } });
    const units = await onePage(`/api-system/business-units?cluster_id=${cluster.id}&page=5`);
    expect(units).toEqual({ data: [], paginate: { total: 1, page: 5, perpage: 10, pages: 1, next_cursor: null } });
    const search = await onePage(`/api-system/user?search=${user.username}&page=3`);
    expect(search).toEqual({ data: [], paginate: { total: 1, page: 3, perpage: 10, pages: 1 } });
    const accounts = await onePage(`/api-system/users?search=${user.username}&page=2`);
    expect(accounts).toEqual({ data: [], paginate: { total: 1, page: 2, perpage: 10, pages: 1, next_cursor: null } });

    // Nothing matches: still one statement, and a total of 0.
    expect(await onePage(`/api-system/clusters?search=none-${prefix}`)).toEqual({
      data: [],
      paginate: { total: 0, page: 1, perpage: 10, pages: 1, next_cursor: null },
    });
  });

  it('when rows are soft-deleted, then deleted=exclude|include|only page and count their own rows', async () => {
    const prefix = `LD${tag()}`;
    const clusters = [
      await aCluster(t, { code: `${prefix}-A` }),
      await aCluster(t, { code: `${prefix}-B` }),
      await aCluster(t, { code: `${prefix}-C` }),
    ];
    await remove(`/api-system/clusters/${clusters[1]!.id}`);
    const q = (deleted: string, page: number) =>
      `/api-system/clusters?search=${prefix}&sort=code%3Aasc&perpage=1&page=${page}&deleted=${deleted}`;
    expect((await onePage(q('exclude', 2))).data.map((r) => r.id)).toEqual([clusters[2]!.id]);
    expect((await onePage(q('exclude', 2))).paginate.total).toBe(2);
    expect((await onePage(q('include', 2))).data.map((r) => r.id)).toEqual([clusters[1]!.id]);
    expect((await onePage(q('include', 3))).paginate.total).toBe(3);
    const only = await onePage(q('only', 1));
    expect(only.data.map((r) => r.id)).toEqual([clusters[1]!.id]);
    expect(only.paginate.total).toBe(1);
    expect(only.data[0]).toMatchObject({ deleted_by_name: 'Platform Admin' });

    const unit = await aBusinessUnit(t, { cluster_id: clusters[0]!.id, code: `${prefix}-U1` });
    await aBusinessUnit(t, { cluster_id: clusters[0]!.id, code: `${prefix}-U2` });
    await remove(`/api-system/business-units/${unit.id}`);
    const units = (deleted: string) => `/api-system/business-units?cluster_id=${clusters[0]!.id}&deleted=${deleted}`;
    expect((await onePage(units('exclude'))).paginate.total).toBe(1);
    expect((await onePage(units('include'))).paginate.total).toBe(2);
    expect((await onePage(units('only'))).data.map((r) => r.id)).toEqual([unit.id]);
  });

  it('when the caller reads one cluster only, then the lists page and count that cluster only', async () => {
    const prefix = `LC${tag()}`;
    const mine = await aCluster(t, { code: `${prefix}-A` });
    const other = await aCluster(t, { code: `${prefix}-B` });
    for (const code of ['U1', 'U2', 'U3']) await aBusinessUnit(t, { cluster_id: mine.id, code: `${prefix}-${code}` });
    await aBusinessUnit(t, { cluster_id: other.id, code: `${prefix}-X1` });
    const reader = await aUserWith(t, [['cluster.read', mine.id]]);

    const clusters = await onePage(`/api-system/clusters?search=${prefix}`, reader.token);
    expect(clusters.data.map((r) => r.id)).toEqual([mine.id]);
    expect(clusters.paginate.total).toBe(1);
    const units = await onePage(
      `/api-system/business-units?search=${prefix}&perpage=2&page=2&sort=code%3Aasc`,
      reader.token,
    );
    expect(units.paginate).toEqual({ total: 3, page: 2, perpage: 2, pages: 2, next_cursor: null });
    expect(units.data).toHaveLength(1);
    expect(units.data[0]).toMatchObject({ cluster_id: mine.id, cluster_name: mine.name, users_count: 0 });
  });

  it('when callers who read one cluster and three list clusters and units by page, then each list runs one compiled text, its clusters bound as one array, and each caller sees only its own', async () => {
    const prefix = `LK${tag()}`;
    const clusters = [];
    for (const code of ['A', 'B', 'C', 'D']) clusters.push(await aCluster(t, { code: `${prefix}-${code}` }));
    for (const c of clusters) await aBusinessUnit(t, { cluster_id: c.id, code: `${c.code}-U1` });
    const [a, b, c, d] = clusters.map((x) => x.id) as [string, string, string, string];
    const one = await aUserWith(t, [['cluster.read', a]]);
    const three = await aUserWith(t, [
      ['cluster.read', b],
      ['cluster.read', c],
      ['cluster.read', d],
    ]);
    const list = async (path: string) => {
      const runs = [];
      // Twice for each caller: the first run of a shape may build it; every later one answers from its template.
      for (const caller of [one, three, one, three]) {
        const { page, statements } = await listed(path, caller.token);
        expect(statements).toHaveLength(1);
        runs.push({ ids: page.data.map((r) => r.id), total: page.paginate.total, statement: statements[0]! });
      }
      expect(new Set(runs.map((r) => r.statement.sql)).size, 'one text for every caller').toBe(1);
      expect(runs.slice(1).map((r) => r.statement.method)).toEqual(['raw', 'raw', 'raw']);
      expect(runs[0]!.statement.sql).toContain('any(');
      expect(runs[1]!.statement.bindings).toContain(`{${[b, c, d].join(',')}}`);
      return runs;
    };
    const clusterRuns = await list(`/api-system/clusters?search=${prefix}&sort=code%3Aasc&perpage=2`);
    expect(clusterRuns.map((r) => [r.ids, r.total])).toEqual([
      [[a], 1],
      [[b, c], 3],
      [[a], 1],
      [[b, c], 3],
    ]);
    const unitRuns = await list(`/api-system/business-units?search=${prefix}&sort=code%3Aasc&perpage=2&page=2`);
    expect(unitRuns.map((r) => r.total)).toEqual([1, 3, 1, 3]);
    expect(unitRuns.map((r) => r.ids.length)).toEqual([0, 1, 0, 1]);
    // A super admin reads every cluster: a shape of its own, without the array.
    const everything = await onePage(`/api-system/clusters?search=${prefix}&sort=code%3Aasc`);
    expect(everything.data.map((r) => r.id)).toEqual([a, b, c, d]);
  });

  it('when users are searched or listed, then one statement returns the page and the total', async () => {
    const prefix = `ls${tag().toLowerCase()}`;
    const users = [
      await aUserWith(t, [], { username: `${prefix}-a` }),
      await aUserWith(t, [], { username: `${prefix}-b` }),
      await aUserWith(t, [], { username: `${prefix}-c` }),
    ];
    const cluster = await aCluster(t, { code: `${prefix.toUpperCase()}-A` });
    await t.knex<ClusterMemberRecord>('cluster_users').insert({ user_id: users[0]!.id, cluster_id: cluster.id });

    const search = await onePage(`/api-system/user?search=${prefix}&perpage=2&page=2`);
    expect(search.data.map((r) => r.id)).toEqual([users[2]!.id]);
    expect(search.paginate.total).toBe(3);
    const outside = await onePage(`/api-system/user?search=${prefix}&exclude_cluster_id=${cluster.id}`);
    expect(outside.data.map((r) => r.id)).toEqual([users[1]!.id, users[2]!.id]);

    const accounts = await onePage(`/api-system/users?search=${prefix}&perpage=2`);
    expect(accounts.paginate).toEqual({ total: 3, page: 1, perpage: 2, pages: 2, next_cursor: anyString() });
    expect(accounts.data.map((r) => r.id)).toEqual([users[0]!.id, users[1]!.id]);
    expect(accounts.data[0]).toMatchObject({ grant_count: 0, sign_in_delayed: false });
  });

  it('when the business-unit list runs on PostgreSQL, then it is a named (prepared) statement, and a search never is', async () => {
    const cluster = await aCluster(t, { code: `LP${tag()}` });
    await aBusinessUnit(t, { cluster_id: cluster.id, code: `LP${tag()}` });
    const [plain] = (await listed(`/api-system/business-units?cluster_id=${cluster.id}`)).statements;
    // Again: now from its compiled template, under the same name.
    const [again] = (await listed(`/api-system/business-units?cluster_id=${cluster.id}`)).statements;
    const [searched] = (await listed(`/api-system/business-units?cluster_id=${cluster.id}&search=LP`)).statements;
    expect(searched?.options?.name).toBeUndefined();
    expect(again?.method).toBe('raw');
    if (engine === 'postgres') expect(plain?.options?.name).toMatch(/^q_/);
    else expect(plain?.options?.name).toBeUndefined();
    expect(again?.options?.name).toBe(plain?.options?.name);
  });
});
