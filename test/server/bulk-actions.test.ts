// Bulk actions: one request acts on many rows, each row through its single-row operation (its access check, rules,
// transaction and audit event), answering one result per id in the request's order.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aBusinessUnit, aCluster, aMapping, aUserWith } from '../support/factory.js';
import type { AuditEventRecord, ClusterRecord, PrintTemplateMappingRecord, UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { stringMatching } from '../support/matchers.js';

interface BulkResult {
  action: string;
  succeeded: number;
  failed: number;
  results: Array<{ id: string; ok: boolean; status: number; problem?: { status: number; detail: string } }>;
}

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

describe.each(engines())('bulk actions on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  /** The signed-in caller's own account, which it may not deactivate. */
  let adminId: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    adminId = (await t.knex<UserRecord>('users').where({ username: 'admin' }).first('id'))!.id;
  });
  afterAll(() => t?.close());

  const bulk = async (path: string, json: unknown, token = admin) =>
    t.fetch(`/api-system/${path}/bulk`, { method: 'POST', token, json });
  const bulkOk = async (path: string, json: unknown, token = admin): Promise<BulkResult> => {
    const res = await bulk(path, json, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as BulkResult;
  };
  const statuses = (r: BulkResult) => r.results.map((x) => [x.id, x.status]);

  it('when three clusters are deleted at once, then each is soft-deleted with the single-row event, and restore brings them back', async () => {
    const ids = [(await aCluster(t)).id, (await aCluster(t)).id, (await aCluster(t)).id];
    const deleted = await bulkOk('clusters', { action: 'delete', ids });
    expect(deleted).toMatchObject({ action: 'delete', succeeded: 3, failed: 0 });
    expect(deleted.results).toEqual(ids.map((id) => ({ id, ok: true, status: 200 })));
    const rows = await t.knex<ClusterRecord>('clusters').whereIn('id', ids);
    expect(rows.every((r: { deleted_at: Date | null }) => r.deleted_at !== null)).toBe(true);
    const events = await t
      .knex<AuditEventRecord>('audit_events')
      .whereIn('target_id', ids)
      .where({ action: 'deleteCluster' });
    expect(events.map((e) => e.target_id).sort()).toEqual([...ids].sort());

    const restored = await bulkOk('clusters', { action: 'restore', ids });
    expect(restored).toMatchObject({ succeeded: 3, failed: 0 });
    expect((await t.knex<ClusterRecord>('clusters').whereIn('id', ids).whereNull('deleted_at')).length).toBe(3);
  });

  it('when a cluster-scoped operator acts on clusters it may and may not change, then only the allowed rows change', async () => {
    const [mine, theirs, mine2] = [(await aCluster(t)).id, (await aCluster(t)).id, (await aCluster(t)).id];
    const operator = await aUserWith(t, [
      ['cluster.read', mine],
      ['cluster.update', mine],
      ['cluster.read', mine2],
      ['cluster.update', mine2],
    ]);
    const result = await bulkOk('clusters', { action: 'deactivate', ids: [mine, theirs, mine2] }, operator.token);
    expect(result).toMatchObject({ action: 'deactivate', succeeded: 2, failed: 1 });
    expect(statuses(result)).toEqual([
      [mine, 200],
      [theirs, 403],
      [mine2, 200],
    ]);
    expect(result.results[1]!.problem).toMatchObject({
      status: 403,
      title: 'Forbidden',
      detail: stringMatching(/cluster\.update/),
    });
    const active = Object.fromEntries(
      (await t.knex<ClusterRecord>('clusters').whereIn('id', [mine, theirs, mine2])).map(
        (r: { id: string; is_active: boolean }) => [r.id, r.is_active],
      ),
    );
    expect(active).toEqual({ [mine]: false, [theirs]: true, [mine2]: false });

    // Already inactive: the row succeeds and nothing more is recorded.
    const before = await t.knex<AuditEventRecord>('audit_events').where({ target_id: mine, action: 'updateCluster' });
    expect(before).toHaveLength(1);
    expect((await bulkOk('clusters', { action: 'deactivate', ids: [mine] }, operator.token)).succeeded).toBe(1);
    expect(
      await t.knex<AuditEventRecord>('audit_events').where({ target_id: mine, action: 'updateCluster' }),
    ).toHaveLength(1);
  });

  it("when users are deactivated at once, then the caller's own account fails alone (409) and the others are deactivated", async () => {
    const [a, b] = [await aUserWith(t, []), await aUserWith(t, [])];
    const result = await bulkOk('users', { action: 'deactivate', ids: [a.id, adminId, b.id] });
    expect(statuses(result)).toEqual([
      [a.id, 200],
      [adminId, 409],
      [b.id, 200],
    ]);
    expect(result.results[1]!.problem?.detail).toMatch(/your own account/);
    const rows = await t.knex<UserRecord>('users').whereIn('id', [a.id, b.id, adminId]);
    expect(Object.fromEntries(rows.map((r: { id: string; is_active: boolean }) => [r.id, r.is_active]))).toEqual({
      [a.id]: false,
      [b.id]: false,
      [adminId]: true,
    });
    expect(
      await t
        .knex<AuditEventRecord>('audit_events')
        .whereIn('target_id', [a.id, b.id])
        .where({ action: 'deactivateUser' }),
    ).toHaveLength(2);

    const back = await bulkOk('users', { action: 'reactivate', ids: [a.id, b.id] });
    expect(back).toMatchObject({ action: 'reactivate', succeeded: 2, failed: 0 });
  });

  it('when an id is unknown, then that row is 404; an oversized, duplicated or empty selection is a 400', async () => {
    const id = (await aCluster(t)).id;
    const result = await bulkOk('clusters', { action: 'deactivate', ids: [NO_SUCH_ID, id] });
    expect(statuses(result)).toEqual([
      [NO_SUCH_ID, 404],
      [id, 200],
    ]);
    expect(result.results[0]!.problem).toMatchObject({ status: 404, title: 'Not Found' });

    const tooMany = Array.from({ length: 501 }, () => randomUUID());
    expect((await bulk('clusters', { action: 'deactivate', ids: tooMany })).status).toBe(400);
    expect((await bulk('clusters', { action: 'deactivate', ids: [id, id] })).status).toBe(400);
    expect((await bulk('clusters', { action: 'deactivate', ids: [] })).status).toBe(400);
    expect((await bulk('users', { action: 'delete', ids: [id] })).status).toBe(400);
  });

  it('when mappings are switched off and deleted at once, then each goes through its single-row write', async () => {
    const ids = [(await aMapping(t)).id, (await aMapping(t)).id];
    expect(await bulkOk('print-template-mappings', { action: 'deactivate', ids })).toMatchObject({
      succeeded: 2,
      failed: 0,
    });
    expect(
      (await t.knex<PrintTemplateMappingRecord>('print_template_mappings').whereIn('id', ids)).every(
        (r: { is_active: boolean }) => !r.is_active,
      ),
    ).toBe(true);
    expect(await bulkOk('print-template-mappings', { action: 'delete', ids })).toMatchObject({
      succeeded: 2,
      failed: 0,
    });
    expect(statuses(await bulkOk('print-template-mappings', { action: 'activate', ids }))).toEqual(
      ids.map((id) => [id, 404]),
    );
    expect((await bulk('print-template-mappings', { action: 'restore', ids })).status).toBe(400);
  });

  it('when business units are switched off and on, then each changes; a restore past the licence cap fails that row only', async () => {
    const cluster = (await aCluster(t, { max_license_bu: 2 })).id;
    const [first, second] = [
      (await aBusinessUnit(t, { cluster_id: cluster })).id,
      (await aBusinessUnit(t, { cluster_id: cluster })).id,
    ];
    expect(await bulkOk('business-units', { action: 'deactivate', ids: [first, second] })).toMatchObject({
      succeeded: 2,
      failed: 0,
    });
    // The cap counts live units, active or not: switching them back on needs no room.
    expect(await bulkOk('business-units', { action: 'activate', ids: [first, second] })).toMatchObject({
      succeeded: 2,
      failed: 0,
    });

    expect(await bulkOk('business-units', { action: 'delete', ids: [first, second] })).toMatchObject({
      succeeded: 2,
      failed: 0,
    });
    const third = (await aBusinessUnit(t, { cluster_id: cluster })).id;
    await aBusinessUnit(t, { cluster_id: cluster });
    const restored = await bulkOk('business-units', { action: 'restore', ids: [first, second] });
    expect(statuses(restored)).toEqual([
      [first, 409],
      [second, 409],
    ]);
    expect(restored.results[0]!.problem?.detail).toMatch(/license limit/);
    expect(await bulkOk('business-units', { action: 'delete', ids: [third] })).toMatchObject({ succeeded: 1 });
    // One unit's room now: the first restore takes it, the second finds the cap reached.
    expect(statuses(await bulkOk('business-units', { action: 'restore', ids: [first, second] }))).toEqual([
      [first, 200],
      [second, 409],
    ]);
  });
});
