// Tenancy of the audit trail: an event shown to a reader who may see some clusters only names no other cluster, in
// the list and in the CSV export alike (a business unit moved in from another cluster, a grant on another cluster).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCluster, aUserWith } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

interface Event {
  action: string;
  target_id: string | null;
  cluster_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
}

const ANOTHER_CLUSTER = '[another cluster]';

describe.each(engines())('audit tenancy on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  const uniq = () => randomUUID().slice(0, 6).toUpperCase();

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  const send = async <T>(method: string, path: string, json: unknown): Promise<T> => {
    const res = await t.fetch(path, { method, token: admin, json });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as T;
  };
  const events = async (query: string, token: string): Promise<Event[]> => {
    const res = await t.fetch(`/api-system/audit-events?${query}&perpage=100`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { data: Event[] }).data;
  };
  const exported = async (query: string, token: string): Promise<string> => {
    const res = await t.fetch(`/api-system/audit-events/export?${query}`, { token });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('when a business unit moves from CL-B to CL-A, then a reader of CL-A only sees no CL-B id in the event, in the list or the export', async () => {
    const [clB, clA] = [await aCluster(t), await aCluster(t)];
    const bu = await send<{ id: string; code: string; name: string }>('POST', '/api-system/business-units', {
      cluster_id: clB.id,
      code: `AT-${uniq()}`,
      name: 'Moving hotel',
    });
    await send('PUT', `/api-system/business-units/${bu.id}`, { cluster_id: clA.id, code: bu.code, name: bu.name });

    const readerOfA = await aUserWith(t, [['cluster.read', clA.id]]);
    const seen = await events(`target_id=${bu.id}`, readerOfA.token);
    expect(seen.map((e) => e.action)).toEqual(['updateBusinessUnit']);
    expect(seen[0]!.cluster_id).toBe(clA.id);
    expect(seen[0]!.changes.cluster_id).toEqual({ before: ANOTHER_CLUSTER, after: clA.id });
    expect(JSON.stringify(seen)).not.toContain(clB.id);
    const csv = await exported(`target_id=${bu.id}`, readerOfA.token);
    expect(csv).toContain('updateBusinessUnit');
    expect(csv).toContain(ANOTHER_CLUSTER);
    expect(csv).not.toContain(clB.id);

    // Whoever may see both clusters reads the event as it was recorded.
    const readerOfBoth = await aUserWith(t, [
      ['cluster.read', clA.id],
      ['cluster.read', clB.id],
    ]);
    for (const token of [readerOfBoth.token, admin]) {
      const whole = await events(`target_id=${bu.id}`, token);
      expect(whole.find((e) => e.action === 'updateBusinessUnit')!.changes.cluster_id).toEqual({
        before: clB.id,
        after: clA.id,
      });
      expect(await exported(`target_id=${bu.id}`, token)).toContain(clB.id);
    }
  });

  it('when an account reader who sees CL-A only reads a grant on CL-B, then neither its id nor its code is named', async () => {
    const [clB, clA] = [await aCluster(t), await aCluster(t)];
    const holder = await aUserWith(t, []);
    await send('POST', `/api-system/users/${holder.id}/grants`, { permission_key: 'cluster.read', cluster_id: clB.id });
    const accountReader = await aUserWith(t, [
      ['user.read', null],
      ['cluster.read', clA.id],
    ]);
    const seen = await events(`target_id=${holder.id}&action=addUserGrant`, accountReader.token);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.changes.cluster_id).toEqual({ before: null, after: ANOTHER_CLUSTER });
    expect(seen[0]!.changes.permission_key).toEqual({ before: null, after: 'cluster.read' });
    const text =
      JSON.stringify(seen) + (await exported(`target_id=${holder.id}&action=addUserGrant`, accountReader.token));
    expect(text).not.toContain(clB.id);
    expect(text).not.toContain(clB.code);
  });
  it('when a reader names a cluster it cannot read in the cluster filter, then 404 as for a missing cluster, in the list and the export', async () => {
    const [clB, clA] = [await aCluster(t), await aCluster(t)];
    const reader = await aUserWith(t, [['cluster.read', clA.id]]);
    for (const path of ['/api-system/audit-events', '/api-system/audit-events/export']) {
      const refused = await t.fetch(`${path}?cluster_id=${clB.id}`, { token: reader.token });
      expect(refused.status, path).toBe(404);
      expect(((await refused.json()) as { detail: string }).detail).toBe('Cluster not found');
      expect((await t.fetch(`${path}?cluster_id=${clA.id}`, { token: reader.token })).status, path).toBe(200);
      expect((await t.fetch(`${path}?cluster_id=${clB.id}`, { token: admin })).status, path).toBe(200);
    }
  });
});
