// API tokens of service accounts: shown once, stored as a hash, narrowed, intersected with the account's grants as
// they are now, revocable, never reaching the operations that manage accounts, tokens or sessions.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { createApp } from '../../server/src/app.js';
import { createLogger } from '../../server/src/http/logging.js';
import { aCluster, aUserWith, adminToken, bodyOf, detailOf, unique, type Problem } from '../support/factory.js';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type ApiTokenCreated = components['schemas']['ApiTokenCreated'];
type ApiTokenList = components['schemas']['ApiTokenList'];
type Permissions = components['schemas']['PlatformPermissions'];

const DAY_MS = 86_400_000;
const FORMAT = /^pa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

describe.each(engines())('API tokens on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let clusterA: string;
  let clusterB: string;

  beforeAll(async () => {
    t = await startTestServer(engine, { env: { TRUST_PROXY: '1' } });
    admin = await adminToken(t);
    clusterA = (await aCluster(t)).id;
    clusterB = (await aCluster(t)).id;
  });
  afterAll(() => t?.close());

  /** A service account holding the grants, made through the API as the super admin. */
  async function anAccount(grants: Array<[string, string | null]>): Promise<string> {
    const res = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token: admin,
      json: { name: unique('svc').toLowerCase() },
    });
    const { id } = await bodyOf<{ id: string }>(res, 201);
    for (const [key, clusterId] of grants) {
      const g = await t.fetch(`/api-system/users/${id}/grants`, {
        method: 'POST',
        token: admin,
        json: { permission_key: key, cluster_id: clusterId },
      });
      expect(g.status, await g.clone().text()).toBe(201);
    }
    return id;
  }

  function createToken(accountId: string, body: Record<string, unknown> = {}, token = admin): Promise<Response> {
    return t.fetch(`/api-system/service-accounts/${accountId}/tokens`, {
      method: 'POST',
      token,
      json: { name: 'POS nightly sync', expires_at: inDays(90), ...body },
    });
  }
  async function aToken(accountId: string, body: Record<string, unknown> = {}): Promise<ApiTokenCreated> {
    return bodyOf<ApiTokenCreated>(await createToken(accountId, body), 201);
  }
  const clusterIds = async (token: string) =>
    (
      await bodyOf<{ data: Array<{ id: string }> }>(await t.fetch('/api-system/clusters?perpage=100', { token }), 200)
    ).data.map((c) => c.id);

  it('when a token is created, then it is shown once, carries its prefix, and only its SHA-256 hash is stored', async () => {
    const account = await anAccount([['cluster.read', clusterA]]);
    const res = await createToken(account);
    const created = await bodyOf<ApiTokenCreated>(res, 201);
    expect(res.headers.get('location')).toBe(`/api-system/service-accounts/${account}/tokens/${created.id}`);
    expect(created.token).toMatch(FORMAT);
    expect(created.token.startsWith(`${created.prefix}_`)).toBe(true);
    expect(created).toMatchObject({ status: 'active', scopes: null, last_used_at: null, revoked_at: null });

    const row = (await t.knex('api_tokens').where({ id: created.id }).first()) as Record<string, unknown>;
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    const secret = created.token.slice(created.prefix.length + 1);
    expect(JSON.stringify(row)).not.toContain(secret);

    const list = await bodyOf<ApiTokenList>(
      await t.fetch(`/api-system/service-accounts/${account}/tokens`, { token: admin }),
      200,
    );
    expect(list.data.map((x) => x.id)).toEqual([created.id]);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(list.data[0]).not.toHaveProperty('token');
  });

  it('when the expiry is more than a year ahead, in the past or missing, then the token is refused (400 naming expires_at)', async () => {
    const account = await anAccount([]);
    for (const expires_at of [inDays(366), inDays(-1)]) {
      const res = await createToken(account, { expires_at });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('expires_at');
    }
    expect((await createToken(account, { expires_at: undefined })).status).toBe(400);
    expect((await createToken(account, { expires_at: inDays(364.9) })).status).toBe(201);
  });

  it('when a token is sent as Bearer, then it may do what its account holds, and its permissions say so', async () => {
    const account = await anAccount([['cluster.read', clusterA]]);
    const { token } = await aToken(account);
    const ids = await clusterIds(token);
    expect(ids).toContain(clusterA);
    expect(ids).not.toContain(clusterB);
    const perms = await bodyOf<Permissions>(await t.fetch('/api/user/permission/platform', { token }), 200);
    expect(perms).toMatchObject({ platform: [], clusters: { [clusterA]: ['cluster.read'] }, is_super_admin: false });
    const edit = await t.fetch(`/api-system/clusters/${clusterA}`, { method: 'PUT', token, json: { name: 'x' } });
    expect(edit.status).toBe(403);
  });

  it('when a token is narrowed, then it holds only those keys, and a key its account lacks there is refused', async () => {
    const account = await anAccount([
      ['cluster.read', null],
      ['cluster.update', clusterA],
    ]);
    const narrowed = await aToken(account, { scopes: [{ permission_key: 'cluster.read', cluster_id: clusterA }] });
    const perms = await bodyOf<Permissions>(
      await t.fetch('/api/user/permission/platform', { token: narrowed.token }),
      200,
    );
    expect(perms.platform).toEqual([]);
    expect(perms.clusters).toEqual({ [clusterA]: ['cluster.read'] });
    expect(await clusterIds(narrowed.token)).not.toContain(clusterB);

    // cluster.update on all clusters: the account holds it on A only.
    const wider = await createToken(account, { scopes: [{ permission_key: 'cluster.update', cluster_id: null }] });
    expect(wider.status).toBe(400);
    expect(await detailOf(wider)).toContain('does not hold cluster.update on all clusters');
    const platformKeyOnCluster = await createToken(account, {
      scopes: [{ permission_key: 'user.read', cluster_id: clusterA }],
    });
    expect(platformKeyOnCluster.status).toBe(400);
  });

  it("when a grant is taken from the account, then its tokens lose it at once (the narrowing meets the account's grants now)", async () => {
    const account = await anAccount([['cluster.read', null]]);
    const token = (await aToken(account, { scopes: [{ permission_key: 'cluster.read', cluster_id: null }] })).token;
    expect(await clusterIds(token)).toEqual(expect.arrayContaining([clusterA, clusterB]));
    const grants = await bodyOf<{ data: Array<{ id: string }> }>(
      await t.fetch(`/api-system/users/${account}/grants`, { token: admin }),
      200,
    );
    const removed = await t.fetch(`/api-system/users/${account}/grants/${grants.data[0]!.id}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(removed.status).toBe(204);
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(403);
    // Given back on one cluster only: the token narrowed to all clusters holds it there, and nowhere else.
    await t.fetch(`/api-system/users/${account}/grants`, {
      method: 'POST',
      token: admin,
      json: { permission_key: 'cluster.read', cluster_id: clusterA },
    });
    const ids = await clusterIds(token);
    expect(ids).toContain(clusterA);
    expect(ids).not.toContain(clusterB);
  });

  it('when a token is revoked or has expired, then it gets 401 api-token-ended; a made-up one too', async () => {
    const account = await anAccount([['cluster.read', null]]);
    const revoked = await aToken(account);
    const expired = await aToken(account);
    expect((await t.fetch('/api-system/clusters', { token: revoked.token })).status).toBe(200);
    const res = await t.fetch(`/api-system/service-accounts/${account}/tokens/${revoked.id}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(res.status).toBe(204);
    await t
      .knex('api_tokens')
      .where({ id: expired.id })
      .update({ expires_at: t.knex.raw("now() - interval '1 second'") });
    const madeUp = `${revoked.prefix}_${'A'.repeat(43)}`;
    for (const token of [revoked.token, expired.token, madeUp, 'pa_short']) {
      const refused = await t.fetch('/api-system/clusters', { token });
      expect(refused.status, token).toBe(401);
      expect((await bodyOf<Problem>(refused)).type).toMatch(/api-token-ended$/);
    }
    const list = await bodyOf<ApiTokenList>(
      await t.fetch(`/api-system/service-accounts/${account}/tokens`, { token: admin }),
      200,
    );
    expect(Object.fromEntries(list.data.map((x) => [x.id, x.status]))).toEqual({
      [revoked.id]: 'revoked',
      [expired.id]: 'expired',
    });
    // Revoking again is idempotent; a token of another account is not there.
    expect(
      (
        await t.fetch(`/api-system/service-accounts/${account}/tokens/${revoked.id}`, {
          method: 'DELETE',
          token: admin,
        })
      ).status,
    ).toBe(204);
    const other = await anAccount([]);
    expect(
      (await t.fetch(`/api-system/service-accounts/${other}/tokens/${expired.id}`, { method: 'DELETE', token: admin }))
        .status,
    ).toBe(404);
  });

  it('when a token is used, then its list shows when and from where, written at most once a minute', async () => {
    const account = await anAccount([['cluster.read', null]]);
    const created = await aToken(account);
    const from = (ip: string) =>
      t.fetch('/api-system/clusters', { token: created.token, headers: { 'X-Forwarded-For': ip } });
    expect((await from('203.0.113.25')).status).toBe(200);
    const first = (await t.knex('api_tokens').where({ id: created.id }).first()) as {
      last_used_at: Date;
      last_used_ip: string;
    };
    expect(first.last_used_ip).toBe('203.0.113.25');
    expect(first.last_used_at).not.toBeNull();
    expect((await from('198.51.100.9')).status).toBe(200);
    const second = (await t.knex('api_tokens').where({ id: created.id }).first()) as typeof first;
    expect(second).toEqual(first);
    const [listed] = (
      await bodyOf<ApiTokenList>(await t.fetch(`/api-system/service-accounts/${account}/tokens`, { token: admin }), 200)
    ).data;
    expect(listed).toMatchObject({
      last_used_ip: '203.0.113.25',
      last_used_at: new Date(first.last_used_at).toISOString(),
    });
    // A use is bookkeeping, not an event.
    const events: Array<{ action: string }> = await t
      .knex('audit_events')
      .where({ target_id: created.id })
      .select('action');
    expect(events.map((e) => e.action)).toEqual(['createApiToken']);
  });

  it('when a token of an account holding every key calls an operation that manages accounts, grants, tokens or sessions, then each answers 403 api-token-refused', async () => {
    const account = await anAccount([
      ['user.read', null],
      ['user.manage', null],
      ['grant.manage', null],
      ['cluster.read', null],
    ]);
    const { token } = await aToken(account);
    const refused = operationsOf(loadBundledSpec()).filter(
      (op) => (op as { 'x-api-token-refused'?: boolean })['x-api-token-refused'] === true,
    );
    expect(refused.map((op) => op.operationId)).toEqual(
      expect.arrayContaining([
        'listUsers',
        'addUserGrant',
        'removeUserGrant',
        'resetUserPassword',
        'createServiceAccount',
        'createApiToken',
        'revokeApiToken',
        'listMySessions',
        'changeMyPassword',
        'createSsoGroupMapping',
      ]),
    );
    const wrong: string[] = [];
    for (const op of refused) {
      const path = op.path.replace(/\{[^}]+\}/g, account);
      const res = await t.fetch(path, {
        method: op.method.toUpperCase(),
        token,
        json: op.method === 'get' ? undefined : {},
      });
      const type = res.status === 403 ? (await bodyOf<Problem>(res)).type : '';
      if (!type?.endsWith('api-token-refused')) wrong.push(`${op.operationId}: ${res.status} ${type}`);
    }
    expect(wrong).toEqual([]);
    expect((await t.knex('api_tokens').where({ user_id: account })).length).toBe(1);
    // What it may do, it does.
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(200);
  });

  it('when a help desk mints a token for an account holding more than it does, then the delegation rule refuses it', async () => {
    const helpDesk = await aUserWith(t, ['user.read', 'user.manage', ['cluster.read', clusterA]]);
    const beyond = await anAccount([['cluster.update', clusterA]]);
    const res = await createToken(beyond, {}, helpDesk.token);
    expect(res.status).toBe(403);
    expect(await detailOf(res)).toContain('cluster.update');
    const [victim] = (await t.knex('api_tokens').where({ user_id: beyond })) as unknown[];
    expect(victim).toBeUndefined();
    const own = await aToken(beyond);
    expect(
      (
        await t.fetch(`/api-system/service-accounts/${beyond}/tokens/${own.id}`, {
          method: 'DELETE',
          token: helpDesk.token,
        })
      ).status,
    ).toBe(403);
    // Within its own keys it may: the account holds cluster.read on A, which the help desk holds too.
    const within = await anAccount([['cluster.read', clusterA]]);
    const ok = await createToken(
      within,
      { scopes: [{ permission_key: 'cluster.read', cluster_id: clusterA }] },
      helpDesk.token,
    );
    expect(ok.status).toBe(201);
    // And a caller without user.manage may not at all.
    const reader = await aUserWith(t, ['user.read']);
    expect((await createToken(within, {}, reader.token)).status).toBe(403);
  });

  it('when tokens are created and revoked, then both are audited without the secret, and no log line carries it', async () => {
    const written: string[] = [];
    const app = createApp({
      config: t.config,
      db: { knex: t.knex },
      storage: t.storage,
      changes: t.changes,
      logger: createLogger('info', { write: (line: string) => void written.push(line) }),
    });
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const account = await anAccount([['cluster.read', null]]);
      const call = (path: string, init: { method?: string; token: string; json?: unknown }) =>
        fetch(base + path, {
          method: init.method ?? 'GET',
          headers: {
            Authorization: `Bearer ${init.token}`,
            ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: init.json === undefined ? undefined : JSON.stringify(init.json),
        });
      const created = await bodyOf<ApiTokenCreated>(
        await call(`/api-system/service-accounts/${account}/tokens`, {
          method: 'POST',
          token: admin,
          json: { name: 'logged', expires_at: inDays(30) },
        }),
        201,
      );
      expect((await call('/api-system/clusters', { token: created.token })).status).toBe(200);
      expect((await call('/api-system/users', { token: created.token })).status).toBe(403);
      expect(
        (await call(`/api-system/service-accounts/${account}/tokens/${created.id}`, { method: 'DELETE', token: admin }))
          .status,
      ).toBe(204);
      expect((await call('/api-system/clusters', { token: created.token })).status).toBe(401);
      const secret = created.token.slice(created.prefix.length + 1);
      const events = await t
        .knex('audit_events')
        .where({ target_type: 'api_token', target_id: created.id })
        .orderBy('at');
      expect(events.map((e: { action: string }) => e.action)).toEqual(['createApiToken', 'revokeApiToken']);
      expect(JSON.stringify(events)).toContain(created.prefix);
      expect(JSON.stringify(events)).not.toContain(secret);
      await new Promise((r) => setTimeout(r, 50));
      expect(written.length).toBeGreaterThan(3);
      expect(written.filter((line) => line.includes(secret))).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });

  it('when an unknown account or a malformed id is named, then 404 and 400', async () => {
    expect((await createToken(randomUUID())).status).toBe(404);
    expect((await t.fetch('/api-system/service-accounts/not-a-uuid/tokens', { token: admin })).status).toBe(400);
  });
});
