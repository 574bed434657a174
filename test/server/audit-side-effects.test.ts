// Side effects are audited too: the rows a write changes besides its target (the BU membership that comes with a
// cluster membership's parent BU, the ones that go with it, a mapping demoted by a new default, the parent BU cleared
// when a business unit goes or moves) each have an event of the same request, and a write no service describes is
// still recorded, by the audit triggers of migration 0011.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aBusinessUnit, aCluster, aClusterMembership, aUser } from '../support/factory.js';
import type {
  BusinessUnitMemberRecord,
  ClusterRecord,
  PrintTemplateMappingRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { eventsSince, snapshotAudited, unrecordedChanges, type Snapshot } from './support/row-changes.js';

describe.each(engines())('audited side effects on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let adminId: string;
  const uniq = () => randomUUID().slice(0, 6).toUpperCase();

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    adminId = (
      (await (await t.fetch('/api/user/permission/platform', { token: admin })).json()) as { user: { id: string } }
    ).user.id;
  });
  afterAll(() => t?.close());

  const send = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
    const res = await t.fetch(path, { method, token: admin, json });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (res.status === 204 ? undefined : await res.json()) as T;
  };
  /** A cluster with a BU, and a user who is a member of both, the BU being the membership's parent BU. */
  const memberWithParentBu = async () => {
    const cluster = await aCluster(t, { name: 'Side effects' });
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const user = await aUser(t);
    const membership = await aClusterMembership(t, {
      user_id: user.id,
      cluster_id: cluster.id,
      role: 'user',
      parent_bu_id: bu.id,
    });
    return { cluster, bu, user, membership };
  };
  const buMembershipsOf = async (userId: string, buId: string) =>
    (
      await t.knex<BusinessUnitMemberRecord>('bu_users').where({ user_id: userId, business_unit_id: buId }).select('id')
    ).map((r: { id: string }) => r.id);

  /** The events since the snapshot that name a row of `targetType`, with the actor and action they carry. */
  const eventsOn = async (before: Snapshot, targetType: string, targetId: string) =>
    (await eventsSince(t.knex, before)).filter((e) => e.target_type === targetType && e.target_id === targetId);

  it('when a cluster membership names a parent BU, then the BU membership it creates has its own event, by the same actor and operation', async () => {
    const cluster = await aCluster(t, { name: 'Side effects' });
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const user = await aUser(t);
    const before = await snapshotAudited(t.knex);
    await send('POST', '/api-system/user/clusters', {
      user_id: user.id,
      cluster_id: cluster.id,
      role: 'user',
      parent_bu_id: bu.id,
    });
    expect(await unrecordedChanges(t.knex, before)).toEqual([]);
    const [buMembership] = await buMembershipsOf(user.id, bu.id);
    const events = await eventsOn(before, 'business_unit_user', buMembership!);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor_id: adminId,
      action: 'addClusterUser',
      changes: { business_unit_id: { before: null, after: bu.id } },
    });
  });

  it('when a cluster membership is removed, then the BU memberships that go with it are recorded', async () => {
    const { bu, user, membership } = await memberWithParentBu();
    const [buMembership] = await buMembershipsOf(user.id, bu.id);
    const before = await snapshotAudited(t.knex);
    await send('DELETE', `/api-system/user/clusters/${membership.id}`);
    expect(await unrecordedChanges(t.knex, before)).toEqual([]);
    expect(await buMembershipsOf(user.id, bu.id)).toEqual([]);
    expect(await eventsOn(before, 'business_unit_user', buMembership!)).toMatchObject([
      { actor_id: adminId, action: 'removeClusterUser' },
    ]);
  });

  it('when a business unit is deleted or moved, then every membership change that comes with it is recorded', async () => {
    const deleted = await memberWithParentBu();
    let before = await snapshotAudited(t.knex);
    await send('DELETE', `/api-system/business-units/${deleted.bu.id}`);
    expect(await unrecordedChanges(t.knex, before)).toEqual([]);

    const moved = await memberWithParentBu();
    const elsewhere = await aCluster(t, { name: 'Side effects' });
    before = await snapshotAudited(t.knex);
    await send('PUT', `/api-system/business-units/${moved.bu.id}`, {
      cluster_id: elsewhere.id,
      code: moved.bu.code,
      name: 'Moved BU',
    });
    expect(await unrecordedChanges(t.knex, before)).toEqual([]);
    expect(await eventsOn(before, 'cluster_user', moved.membership.id)).toMatchObject([
      { action: 'updateBusinessUnit', changes: { parent_bu_id: { before: moved.bu.id, after: null } } },
    ]);
  });

  it('when a new default mapping demotes the old one, then the demotion is recorded', async () => {
    const templateId = (
      (await (await t.fetch('/api-system/report-templates?perpage=1', { token: admin })).json()) as {
        data: Array<{ id: string }>;
      }
    ).data[0]!.id;
    const documentType = 'GRN';
    const first = await send<{ id: string }>('POST', '/api-system/print-template-mappings', {
      document_type: documentType,
      report_template_id: templateId,
      is_default: true,
      allow_business_unit: [`X-${uniq()}`],
    });
    const allow = (
      await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ id: first.id })
        .first('allow_business_unit')
    )?.allow_business_unit;
    const before = await snapshotAudited(t.knex);
    await send('POST', '/api-system/print-template-mappings', {
      document_type: documentType,
      report_template_id: templateId,
      is_default: true,
      allow_business_unit: allow,
    });
    expect(await unrecordedChanges(t.knex, before)).toEqual([]);
    const demoted = await t
      .knex<PrintTemplateMappingRecord>('print_template_mappings')
      .where({ id: first.id })
      .first('is_default');
    expect((demoted as { is_default: boolean }).is_default).toBe(false);
    expect(await eventsOn(before, 'print_template_mapping', first.id)).toMatchObject([
      {
        actor_id: adminId,
        action: 'createPrintTemplateMapping',
        changes: { is_default: { before: true, after: false } },
      },
    ]);
  });

  it('when a statement changes an audited row and records nothing, then the change is still recorded at commit', async () => {
    const cluster = await aCluster(t, { name: 'Side effects' });
    const before = await snapshotAudited(t.knex);
    await t.knex<ClusterRecord>('clusters').where({ id: cluster.id }).update({ name: 'Changed behind the API' });
    expect(await unrecordedChanges(t.knex, before)).toEqual([]);
    expect(await eventsOn(before, 'cluster', cluster.id)).toMatchObject([
      {
        actor_id: null,
        action: 'unattributedChange',
        changes: { name: { before: 'Side effects', after: 'Changed behind the API' } },
      },
    ]);
  });

  it('when a transaction rolls back, then neither its change nor an event of it remains', async () => {
    const cluster = await aCluster(t, { name: 'Side effects' });
    const before = await snapshotAudited(t.knex);
    await expect(
      t.knex.transaction(async (trx) => {
        await trx('clusters').where({ id: cluster.id }).update({ name: 'Never' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await eventsSince(t.knex, before)).toEqual([]);
  });

  it('when a credential changes behind the API, then the event says so without the value', async () => {
    const user = await aUser(t);
    const before = await snapshotAudited(t.knex);
    await t.knex<UserRecord>('users').where({ id: user.id }).update({ password_hash: 'not-a-real-hash' });
    const events = await eventsOn(before, 'user', user.id);
    expect(events).toMatchObject([{ changes: { password_hash: { before: '[redacted]', after: '[redacted]' } } }]);
    expect(JSON.stringify(events)).not.toContain('not-a-real-hash');
  });
});
