import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { aCluster, aClusterMembership, aUser, aUserWith } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type UserPage = components['schemas']['UserPage'];

describe.each(engines())('user search on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  async function search(query: Record<string, string>, token = admin): Promise<UserPage> {
    const res = await t.fetch(`/api-system/user?${new URLSearchParams(query).toString()}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as UserPage;
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when searching, then username, email, first name and last name match case-insensitively as contains', async () => {
    const w = `q${randomUUID().slice(0, 6)}`;
    const byUsername = await aUser(t, { username: `x-${w}-user` });
    const byEmail = await aUser(t, { email: `mail.${w}@corp.example` });
    const byFirst = await aUser(t, { firstname: `First${w.toUpperCase()}` });
    const byLast = await aUser(t, { lastname: `Mc${w}` });
    await aUser(t, { firstname: 'Unrelated' });
    const page = await search({ search: w.toUpperCase() });
    expect(page.data.map((u) => u.id).sort()).toEqual([byUsername.id, byEmail.id, byFirst.id, byLast.id].sort());
    expect(page.paginate.total).toBe(4);
    const one = page.data.find((u) => u.id === byFirst.id)!;
    expect(one).toEqual({
      id: byFirst.id,
      username: byFirst.username,
      email: `${byFirst.username}@example.com`,
      userInfo: { firstname: `First${w.toUpperCase()}`, middlename: null, lastname: null },
      is_active: true,
    });
    expect((await search({ search: '%' })).data).toEqual([]);
  });

  it('when no page size is given, then pages hold 10 users ordered by username', async () => {
    const w = `pg${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 13; i++) await aUser(t, { username: `${w}-${String(12 - i).padStart(2, '0')}` });
    const first = await search({ search: w });
    expect(first.data).toHaveLength(10);
    expect(first.paginate).toEqual({ total: 13, page: 1, perpage: 10, pages: 2 });
    expect(first.data.map((u) => u.username)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${w}-${String(i).padStart(2, '0')}`),
    );
    const second = await search({ search: w, page: '2' });
    expect(second.data.map((u) => u.username)).toEqual([`${w}-10`, `${w}-11`, `${w}-12`]);
    for (const perpage of ['0', '101', '-1', 'ten']) {
      expect((await t.fetch(`/api-system/user?perpage=${perpage}`, { token: admin })).status, perpage).toBe(400);
    }
  });

  it('when exclude_cluster_id is given, then the members of that cluster are left out', async () => {
    const w = `ex${randomUUID().slice(0, 6)}`;
    const member = await aUser(t, { username: `${w}-member` });
    const outsider = await aUser(t, { username: `${w}-outsider` });
    const clusterId = (await aCluster(t, { code: `X-${w}`, name: 'Exclusion' })).id;
    await aClusterMembership(t, { user_id: member.id, cluster_id: clusterId });
    expect((await search({ search: w })).data.map((u) => u.id)).toEqual([member.id, outsider.id]);
    expect((await search({ search: w, exclude_cluster_id: clusterId })).data.map((u) => u.id)).toEqual([outsider.id]);
    expect((await t.fetch(`/api-system/user?exclude_cluster_id=bad`, { token: admin })).status).toBe(400);
  });

  it('when the caller has cluster.update on some cluster, then it may search; read-only or no grants is 403; no token is 401', async () => {
    const editor = await t.login('editor-a');
    expect((await search({ search: 'admin' }, editor)).data.length).toBeGreaterThan(0);
    const platformUpdater = (await aUserWith(t, [['cluster.update', null]])).token;
    expect((await search({}, platformUpdater)).paginate.total).toBeGreaterThan(0);
    const viewer = await t.login('viewer');
    const denied = await t.fetch('/api-system/user', { token: viewer });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await t.fetch('/api-system/user', { token: (await aUserWith(t, [])).token })).status).toBe(403);
    expect((await t.fetch('/api-system/user')).status).toBe(401);
  });
});
