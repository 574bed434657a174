// The audit trail names things: each event keeps the human labels of what it touched, read in the change's own
// transaction; a bulk switch reads as what it did; an image change shows its pictures; a cluster's History lists its
// memberships.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../server/src/core/contract.js';
import {
  aBusinessUnit,
  aBusinessUnitMembership,
  aCluster,
  aClusterMembership,
  adminToken,
  aMapping,
  aUser,
  aUserWith,
  bodyOf,
} from '../support/factory.js';
import { wellFormedPng } from '../support/images.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type AuditEvent = Schemas['AuditEvent'];

describe.each(engines())('audit labels on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await adminToken(t);
  });
  afterAll(() => t?.close());

  const send = async (method: string, path: string, json?: unknown, token = admin) => {
    const res = await t.fetch(path, { method, token, json });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return res;
  };
  const events = async (query: string, token = admin): Promise<AuditEvent[]> =>
    (
      await bodyOf<{ data: AuditEvent[] }>(
        await t.fetch(`/api-system/audit-events?${query}&perpage=100`, { token }),
        200,
      )
    ).data;

  it('when a permission on CL-S is granted to nok, then its event names the key, the cluster by code and nok', async () => {
    const cluster = await aCluster(t);
    const nok = await aUser(t);
    await send('POST', `/api-system/users/${nok.id}/grants`, {
      permission_key: 'cluster.read',
      cluster_id: cluster.id,
    });
    await send('POST', `/api-system/users/${nok.id}/grants`, { permission_key: 'user.read', cluster_id: null });

    const [platform, onCluster] = await events(`target_type=user&target_id=${nok.id}&action=addUserGrant`);
    expect(onCluster!.labels).toMatchObject({
      permission: 'cluster.read',
      scope: cluster.code,
      scope_id: cluster.id,
      user: nok.username,
      user_id: nok.id,
    });
    expect(platform!.labels).toMatchObject({
      permission: 'user.read',
      scope: null,
      scope_id: null,
      user: nok.username,
    });
  });

  it('when a cluster is renamed, then its event keeps the new code and name and an older event keeps the old ones', async () => {
    const cluster = await aCluster(t);
    await send('PUT', `/api-system/clusters/${cluster.id}`, { code: `${cluster.code}-N`, name: 'Renamed group' });

    const [renamed, created] = await events(`target_type=cluster&target_id=${cluster.id}`);
    expect(renamed!.action).toBe('updateCluster');
    expect(renamed!.labels).toMatchObject({ cluster: `${cluster.code}-N`, cluster_name: 'Renamed group' });
    expect(created!.labels).toMatchObject({ cluster: cluster.code, cluster_name: cluster.name });
  });

  it('when members join, change role and leave, then the cluster History lists them with the member, role and unit', async () => {
    const bu = await aBusinessUnit(t);
    const member = await aUser(t);
    const joined = await aClusterMembership(t, { user_id: member.id, cluster_id: bu.cluster_id });
    await send('PUT', `/api-system/user/clusters/${joined.id}`, { role: 'admin' });
    const inUnit = await aBusinessUnitMembership(t, { user_id: member.id, business_unit_id: bu.id });
    await send('DELETE', `/api-system/user/business-units/${inUnit.id}`);

    const history = await events(`target_type=cluster&target_id=${bu.cluster_id}&with_memberships=true`);
    const byAction = Object.fromEntries(history.map((e) => [e.action, e]));
    expect(Object.keys(byAction)).toEqual(
      expect.arrayContaining(['addClusterUser', 'updateClusterUser', 'addBusinessUnitUser', 'removeBusinessUnitUser']),
    );
    expect(byAction.updateClusterUser!.labels).toMatchObject({ user: member.username, role: 'admin' });
    expect(byAction.removeBusinessUnitUser!.labels).toMatchObject({
      user: member.username,
      business_unit: bu.code,
      business_unit_id: bu.id,
    });
    // Without the flag, a cluster's History is its own events only.
    const own = await events(`target_type=cluster&target_id=${bu.cluster_id}`);
    expect(own.every((e) => e.target_type === 'cluster')).toBe(true);
    // A unit's History lists its own members' changes.
    const unit = await events(`target_type=business_unit&target_id=${bu.id}&with_memberships=true`);
    expect(unit.map((e) => e.action)).toEqual(
      expect.arrayContaining(['createBusinessUnit', 'addBusinessUnitUser', 'removeBusinessUnitUser']),
    );
    expect(unit.map((e) => e.action)).not.toContain('addClusterUser');
  });

  it('when joining a cluster makes the account a member of its parent unit, then the unit History lists that too', async () => {
    const bu = await aBusinessUnit(t);
    const member = await aUser(t);
    await aClusterMembership(t, { user_id: member.id, cluster_id: bu.cluster_id, parent_bu_id: bu.id });
    const unit = await events(`target_type=business_unit&target_id=${bu.id}&with_memberships=true`);
    const joined = unit.filter((e) => e.target_type === 'business_unit_user');
    expect(joined).toHaveLength(1);
    expect(joined[0]!.changes.user_id).toEqual({ before: null, after: member.id });
  });

  it('when a bulk request deactivates a cluster, then its event records that is_active alone went from true to false', async () => {
    const cluster = await aCluster(t);
    await send('POST', '/api-system/clusters/bulk', { action: 'deactivate', ids: [cluster.id] });
    const [deactivated] = await events(`target_type=cluster&target_id=${cluster.id}`);
    expect(deactivated!.changes).toEqual({ is_active: { before: true, after: false } });
    expect(deactivated!.labels).toMatchObject({ cluster: cluster.code });
  });

  it('when a logo is replaced, then its event shows the picture before and after, to those who see the cluster only, until the logo is removed', async () => {
    const cluster = await aCluster(t);
    const upload = async () => {
      const res = await t.upload(`/api-system/clusters/${cluster.id}/logo`, 'logo', wellFormedPng(), 'a.png', admin);
      expect(res.status).toBe(200);
    };
    await upload();
    await upload();
    const query = `target_type=cluster&target_id=${cluster.id}&action=uploadClusterLogo`;
    const [second, first] = await events(query);
    expect(second!.images!.after).toMatch(/^\/files\/.+\.png\?/);
    // The replaced image is kept for the history: the second upload's "before" is the first one's picture.
    expect(second!.images!.before).toMatch(/^\/files\/.+\.png\?/);
    expect(first!.images!.before).toBeNull();
    for (const url of [second!.images!.before!, second!.images!.after!, first!.images!.after!]) {
      expect((await t.fetch(url, {})).status).toBe(200);
    }
    // Someone who cannot see the cluster gets no event, so no link to its pictures.
    const other = await aCluster(t);
    const outsider = await aUserWith(t, [['cluster.read', other.id]]);
    expect(await events(query, outsider.token)).toEqual([]);

    // Removing the logo removes it from the history too: every picture then reads as text.
    await send('DELETE', `/api-system/clusters/${cluster.id}/logo`);
    const [afterSecond, afterFirst] = await events(query);
    expect(afterSecond!.images).toEqual({ before: null, after: null });
    expect(afterFirst!.images).toEqual({ before: null, after: null });
    expect((await t.fetch(second!.images!.before!, {})).status).toBe(404);
  });

  it('when a mapping is edited, then its event names its document type and label', async () => {
    const mapping = await aMapping(t, { display_label: 'Compact' });
    await send('PUT', `/api-system/print-template-mappings/${mapping.id}`, { display_order: 7 });
    const [edited] = await events(`target_type=print_template_mapping&target_id=${mapping.id}`);
    expect(edited!.labels).toMatchObject({ mapping: 'IA · Compact' });
  });

  it('when a reader sees CL-A only, then a grant on CL-B reads neither its code nor its id in the labels', async () => {
    const [clA, clB] = [await aCluster(t), await aCluster(t)];
    const holder = await aUser(t);
    await send('POST', `/api-system/users/${holder.id}/grants`, { permission_key: 'cluster.read', cluster_id: clB.id });
    const reader = await aUserWith(t, [['cluster.read', clA.id], 'user.read']);
    const [seen] = await events(`target_type=user&target_id=${holder.id}&action=addUserGrant`, reader.token);
    expect(seen!.labels).toMatchObject({ scope: '[another cluster]', scope_id: null });
    expect(JSON.stringify(seen)).not.toContain(clB.code);
    expect(JSON.stringify(seen)).not.toContain(clB.id);
  });
});
