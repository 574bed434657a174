// Revert from History: a field change of a cluster, business unit or print mapping is put back as an ordinary edit
// of the record (its permission, tenancy and rules, a new event naming the reverted one), never over a later change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../server/src/core/contract.js';
import {
  aBusinessUnit,
  aCluster,
  aClusterMembership,
  adminToken,
  aMapping,
  aUser,
  aUserWith,
  bodyOf,
  detailOf,
} from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type AuditEvent = Schemas['AuditEvent'];

describe.each(engines())('revert from History on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await adminToken(t);
  });
  afterAll(() => t?.close());

  const send = async (method: string, path: string, json?: unknown, token = admin): Promise<void> => {
    const res = await t.fetch(path, { method, token, json });
    expect(res.status, await res.text()).toBe(method === 'DELETE' ? 204 : 200);
  };
  const latest = async (targetType: string, targetId: string, action: string): Promise<AuditEvent> => {
    const query = `target_type=${targetType}&target_id=${targetId}&action=${action}&perpage=1`;
    return (
      await bodyOf<{ data: AuditEvent[] }>(await t.fetch(`/api-system/audit-events?${query}`, { token: admin }), 200)
    ).data[0]!;
  };
  const revert = (eventId: string, token = admin) =>
    t.fetch(`/api-system/audit-events/${eventId}/revert`, { method: 'POST', token });

  /** A new cluster whose name was changed once: the cluster and the change's event. */
  const renamedCluster = async () => {
    const cluster = await aCluster(t);
    await send('PUT', `/api-system/clusters/${cluster.id}`, { code: cluster.code, name: 'Renamed group' });
    return { cluster, event: await latest('cluster', cluster.id, 'updateCluster') };
  };

  it('when a cluster rename is reverted, then the old name is back and a new event names the reverted one', async () => {
    const { cluster, event } = await renamedCluster();
    const res = await revert(event.id);
    const recorded = await bodyOf<AuditEvent>(res, 200);
    expect(recorded).toMatchObject({ action: 'updateCluster', target_id: cluster.id });
    expect(recorded.changes).toEqual({ name: { before: 'Renamed group', after: cluster.name } });
    expect(recorded.labels).toMatchObject({ revert_of: event.id, cluster: cluster.code, cluster_name: cluster.name });
    const now = await bodyOf<Schemas['Cluster']>(
      await t.fetch(`/api-system/clusters/${cluster.id}`, { token: admin }),
      200,
    );
    expect(now).toMatchObject({ name: cluster.name, code: cluster.code, is_active: true });
  });

  it('when the cluster changed after the event, then the revert is refused with 412 and the record is left as it is', async () => {
    const { cluster, event } = await renamedCluster();
    await send('PUT', `/api-system/clusters/${cluster.id}`, { code: cluster.code, name: 'Renamed again' });
    const res = await revert(event.id);
    expect(res.status).toBe(412);
    expect(await detailOf(res)).toMatch(/changed by someone else.*name is now "Renamed again"/);
    const now = await bodyOf<Schemas['Cluster']>(
      await t.fetch(`/api-system/clusters/${cluster.id}`, { token: admin }),
      200,
    );
    expect(now.name).toBe('Renamed again');
  });

  it('when a reader of the cluster without the update grant reverts, then 403; outside its tenancy, then 404', async () => {
    const { cluster, event } = await renamedCluster();
    const reader = await aUserWith(t, [['cluster.read', cluster.id]]);
    expect((await revert(event.id, reader.token)).status).toBe(403);
    const elsewhere = await aUserWith(t, [
      ['cluster.read', (await aCluster(t)).id],
      ['cluster.update', (await aCluster(t)).id],
    ]);
    expect((await revert(event.id, elsewhere.token)).status).toBe(404);
    const editor = await aUserWith(t, [
      ['cluster.read', cluster.id],
      ['cluster.update', cluster.id],
    ]);
    expect((await revert(event.id, editor.token)).status).toBe(200);
  });

  it('when a cluster editor reverts a licence cap change, then 403: a revert writes no field the caller may not', async () => {
    const cluster = await aCluster(t, { max_license_bu: 5 });
    await send('PUT', `/api-system/clusters/${cluster.id}`, {
      code: cluster.code,
      name: cluster.name,
      max_license_bu: 9,
    });
    const event = await latest('cluster', cluster.id, 'updateCluster');
    const editor = await aUserWith(t, [
      ['cluster.read', cluster.id],
      ['cluster.update', cluster.id],
    ]);
    const res = await revert(event.id, editor.token);
    expect(res.status).toBe(403);
    expect(await detailOf(res)).toMatch(/max_license_bu/);
  });

  it('when the event is a create, a membership or unknown, or its record was deleted, then 409 or 404', async () => {
    const cluster = await aCluster(t);
    const created = await latest('cluster', cluster.id, 'createCluster');
    const create = await revert(created.id);
    expect(create.status).toBe(409);
    expect(await detailOf(create)).toMatch(/Only a field change/);

    const membership = await aClusterMembership(t, { user_id: (await aUser(t)).id, cluster_id: cluster.id });
    await send('PUT', `/api-system/user/clusters/${membership.id}`, { role: 'admin' });
    const roleChange = await latest('cluster_user', membership.id, 'updateClusterUser');
    expect((await revert(roleChange.id)).status).toBe(409);

    expect((await revert('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await revert('not-an-id')).status).toBe(400);

    const { cluster: gone, event } = await renamedCluster();
    await send('DELETE', `/api-system/clusters/${gone.id}`);
    const deleted = await revert(event.id);
    expect(deleted.status).toBe(409);
    expect(await detailOf(deleted)).toMatch(/deleted.*restore it first/);
  });

  it('when a business unit rename is reverted, then its other fields, secret connection and config included, stay', async () => {
    const bu = await aBusinessUnit(t, {
      db_connection: 'postgres://u:p@db/x',
      config: [{ key: 'k', label: 'K', datatype: 'string', value: 'v' }],
      hotel_name: 'Riverside',
    });
    const full = await bodyOf<Schemas['BusinessUnit']>(
      await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin }),
      200,
    );
    const { id: _id, ...rest } = full;
    void _id;
    await send('PUT', `/api-system/business-units/${bu.id}`, { ...pickInput(rest), name: 'Renamed hotel' });
    const event = await latest('business_unit', bu.id, 'updateBusinessUnit');
    const res = await revert(event.id);
    expect(res.status, await res.clone().text()).toBe(200);
    const now = await bodyOf<Schemas['BusinessUnit']>(
      await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin }),
      200,
    );
    expect(now).toMatchObject({ name: bu.name, hotel_name: 'Riverside', db_connection: 'postgres://u:p@db/x' });
    expect(now.config).toEqual(full.config);
  });

  it('when a mapping label is reverted to none, then the label is empty again', async () => {
    const mapping = await aMapping(t);
    await send('PUT', `/api-system/print-template-mappings/${mapping.id}`, { display_label: 'Compact' });
    const event = await latest('print_template_mapping', mapping.id, 'updatePrintTemplateMapping');
    expect((await revert(event.id)).status).toBe(200);
    const now = await bodyOf<Schemas['PrintTemplateMapping']>(
      await t.fetch(`/api-system/print-template-mappings/${mapping.id}`, { token: admin }),
      200,
    );
    expect(now.display_label ?? null).toBeNull();
    const mapper = await aUserWith(t, ['user.read']);
    expect((await revert(event.id, mapper.token)).status).toBe(403);
  });
});

/** The writable fields of a business unit as read, for a full update. */
function pickInput(bu: Record<string, unknown>): Record<string, unknown> {
  const drop = new Set([
    'cluster_name',
    'users_count',
    'logo',
    'avatar',
    'defaultCurrency',
    'users',
    'audit',
    'created_at',
    'created_by_name',
    'updated_at',
    'updated_by_name',
    'deleted_at',
    'deleted_by_name',
  ]);
  return Object.fromEntries(Object.entries(bu).filter(([k]) => !drop.has(k)));
}
