// A service account is a `users` row, so its id reaches every operation that takes an account's id. The people
// operations, the memberships and the bulk and import side doors refuse it and point at its own screen; its grants are
// still given through the users path (docs/adr/0027-service-accounts-and-api-tokens.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { aBusinessUnit, aCluster, aUser, adminToken, bodyOf, detailOf, unique } from '../support/factory.js';
import type { AuditEventRecord, UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type ServiceAccount = components['schemas']['ServiceAccount'];

interface BulkResult {
  succeeded: number;
  failed: number;
  results: Array<{ id: string; ok: boolean; status: number; problem?: { status: number; detail: string } }>;
}

interface ImportResult {
  applied: boolean;
  rows: Array<{ line: number; outcome: string; reason: string | null; detail: string }>;
}

describe.each(engines())('service accounts as targets of the people operations on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await adminToken(t);
  });
  afterAll(() => t?.close());

  async function aServiceAccount(): Promise<ServiceAccount> {
    const res = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token: admin,
      json: { name: unique('svc').toLowerCase(), description: 'Night audit export' },
    });
    return bodyOf<ServiceAccount>(res, 201);
  }

  const accountRow = async (id: string) =>
    (await t
      .knex<UserRecord>('users')
      .select('username', 'email', 'is_active', 'password_hash', 'must_change_password', 'sso_only', 'updated_at')
      .where({ id })
      .first()) as Record<string, unknown>;

  /** Each problem is a 404 that says it is a service account and where it is managed. */
  async function expectPointedToItsScreen(res: Response, account: ServiceAccount, what: string): Promise<void> {
    expect(res.status, `${what}: ${await res.clone().text()}`).toBe(404);
    const detail = await detailOf(res);
    expect(detail, what).toContain(`${account.name} is a service account`);
    expect(detail, what).toContain(`/api-system/service-accounts/${account.id}`);
  }

  it('when each people operation names a service account, then each answers 404 pointing at Service accounts, and nothing changes or is recorded', async () => {
    const account = await aServiceAccount();
    const before = await accountRow(account.id);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api-system/users/${account.id}`],
      [
        'PUT',
        `/api-system/users/${account.id}`,
        {
          username: account.name,
          email: `${account.name}@andaman-hospitality.example`,
          firstname: 'Night',
          middlename: null,
          lastname: 'Audit',
        },
      ],
      ['POST', `/api-system/users/${account.id}/deactivate`],
      ['POST', `/api-system/users/${account.id}/reactivate`],
      ['POST', `/api-system/users/${account.id}/password-reset`, { password: 'Reset-Andaman-2026' }],
      ['POST', `/api-system/users/${account.id}/unlock`],
      ['DELETE', `/api-system/users/${account.id}/super-admin`],
      ['GET', `/api-system/users/${account.id}/sso`],
      ['PUT', `/api-system/users/${account.id}/sso`, { sso_only: false }],
    ];
    for (const [method, path, json] of calls) {
      const res = await t.fetch(path, { method, token: admin, ...(json === undefined ? {} : { json }) });
      await expectPointedToItsScreen(res, account, `${method} ${path}`);
    }
    expect(await accountRow(account.id)).toEqual(before);
    const events = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ target_id: account.id })
      .whereNot({ action: 'createServiceAccount' });
    expect(events.map((e: { action: string }) => e.action)).toEqual([]);
    // Its own screen still edits it.
    expect((await t.fetch(`/api-system/service-accounts/${account.id}`, { token: admin })).status).toBe(200);
  });

  it('when its grants are given, read and taken through the users path, then they still are: that is how a service account gets its keys', async () => {
    const account = await aServiceAccount();
    const cluster = await aCluster(t);
    const grant = await bodyOf<{ id: string }>(
      await t.fetch(`/api-system/users/${account.id}/grants`, {
        method: 'POST',
        token: admin,
        json: { permission_key: 'cluster.read', cluster_id: cluster.id },
      }),
      201,
    );
    const list = await bodyOf<{ data: Array<{ id: string }> }>(
      await t.fetch(`/api-system/users/${account.id}/grants`, { token: admin }),
      200,
    );
    expect(list.data.map((g) => g.id)).toEqual([grant.id]);
    const removed = await t.fetch(`/api-system/users/${account.id}/grants/${grant.id}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(removed.status).toBe(204);
  });

  it('when a bulk deactivation names a service account among people, then its row alone is refused (404 pointing at Service accounts) and it stays active', async () => {
    const account = await aServiceAccount();
    const person = await aUser(t);
    const res = await t.fetch('/api-system/users/bulk', {
      method: 'POST',
      token: admin,
      json: { action: 'deactivate', ids: [account.id, person.id] },
    });
    const result = await bodyOf<BulkResult>(res, 200);
    expect(result.results.map((r) => [r.id, r.status])).toEqual([
      [account.id, 404],
      [person.id, 200],
    ]);
    expect(result.results[0]!.problem?.detail).toContain(`/api-system/service-accounts/${account.id}`);
    expect((await accountRow(account.id)).is_active).toBe(true);
    const reactivate = await bodyOf<BulkResult>(
      await t.fetch('/api-system/users/bulk', {
        method: 'POST',
        token: admin,
        json: { action: 'reactivate', ids: [account.id] },
      }),
      200,
    );
    expect(reactivate.results.map((r) => r.status)).toEqual([404]);
  });

  it('when a service account is added to a cluster or a business unit, then it is refused (404 saying it is never a member) and no membership is written', async () => {
    const account = await aServiceAccount();
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const toCluster = await t.fetch('/api-system/user/clusters', {
      method: 'POST',
      token: admin,
      json: { user_id: account.id, cluster_id: cluster.id, is_active: true },
    });
    await expectPointedToItsScreen(toCluster, account, 'addClusterUser');
    expect(await detailOf(toCluster)).toContain('never a member');
    const toBu = await t.fetch('/api-system/user/business-units', {
      method: 'POST',
      token: admin,
      json: { user_id: account.id, business_unit_id: bu.id, role: 'user' },
    });
    await expectPointedToItsScreen(toBu, account, 'addBusinessUnitUser');
    expect(await t.knex('cluster_users').where({ user_id: account.id })).toEqual([]);
    expect(await t.knex('bu_users').where({ user_id: account.id })).toEqual([]);
  });

  it('when a membership file names a service account by its name or its email, then those rows are refused and the valid rows alone are written', async () => {
    const account = await aServiceAccount();
    const person = await aUser(t);
    const cluster = await aCluster(t);
    const csv = [
      'user,business_unit,cluster,role,active',
      `${account.name},,${cluster.code},user,true`,
      `${account.name.toUpperCase()}@SERVICE-ACCOUNT.INVALID,,${cluster.code},admin,true`,
      `${person.username},,${cluster.code},user,true`,
    ].join('\n');
    const res = await t.upload(
      '/api-system/memberships/import?mode=valid_rows',
      'file',
      Buffer.from(csv, 'utf8'),
      'members.csv',
      admin,
      'text/csv',
    );
    const result = await bodyOf<ImportResult>(res, 200);
    expect(result.rows.map((r) => [r.line, r.outcome, r.reason])).toEqual([
      [2, 'refused', 'unknown_user'],
      [3, 'refused', 'unknown_user'],
      [4, 'added', null],
    ]);
    expect(result.rows[0]!.detail).toContain(`${account.name} is a service account`);
    expect(result.rows[1]!.detail).toContain('never a member');
    expect(await t.knex('cluster_users').where({ user_id: account.id })).toEqual([]);
    expect(await t.knex('cluster_users').where({ user_id: person.id, cluster_id: cluster.id })).toHaveLength(1);
  });

  it('when the people list, its filters, the member search or the export are asked for a service account, then none of them shows it', async () => {
    const account = await aServiceAccount();
    const cluster = await aCluster(t);
    // It holds a key on the cluster, so the filters that match grants would find it if it were a person.
    await bodyOf(
      await t.fetch(`/api-system/users/${account.id}/grants`, {
        method: 'POST',
        token: admin,
        json: { permission_key: 'cluster.read', cluster_id: cluster.id },
      }),
      201,
    );
    const ids = async (path: string) =>
      (await bodyOf<{ data: Array<{ id: string }> }>(await t.fetch(path, { token: admin }), 200)).data.map((u) => u.id);
    for (const path of [
      `/api-system/users?search=${account.name}`,
      `/api-system/users?search=${account.name}%40service-account.invalid`,
      `/api-system/users?has_grants=true&search=${account.name}`,
      `/api-system/users?is_active=true&search=${account.name}`,
      // The cluster is new: the service account's grant is all that ties any account to it.
      `/api-system/users?cluster_id=${cluster.id}`,
      `/api-system/user?search=${account.name}`,
      `/api-system/user?exclude_cluster_id=${cluster.id}&search=${account.name}`,
    ]) {
      expect(await ids(path), path).not.toContain(account.id);
    }
    const exported = await t.fetch(`/api-system/users/export?cluster_id=${cluster.id}`, { token: admin });
    expect(exported.status).toBe(200);
    const csv = await exported.text();
    expect(csv).toContain('Username');
    expect(csv).not.toContain(account.name);
  });
});
