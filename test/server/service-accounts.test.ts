// Service accounts: accounts of partners' systems that hold grants like a person and never sign in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { components } from '../../openapi/generated/schema.js';
import { hashRefreshToken } from '../../server/src/modules/auth/tokens.js';
import { aCluster, aUserWith, adminToken, bodyOf, detailOf, unique, type Problem } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type ServiceAccount = components['schemas']['ServiceAccount'];
type ServiceAccountPage = components['schemas']['ServiceAccountPage'];

const YEAR_MS = 365 * 86_400_000;

describe.each(engines())('service accounts on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await adminToken(t);
  });
  afterAll(() => t?.close());

  const name = () => unique('svc').toLowerCase();
  async function aServiceAccount(token = admin, body: Record<string, unknown> = {}): Promise<ServiceAccount> {
    const res = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token,
      json: { name: name(), description: 'Nightly sync', ...body },
    });
    return bodyOf<ServiceAccount>(res, 201);
  }

  it('when a service account is created, then it is listed as one, holds nothing, and is no person of the users list', async () => {
    const res = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token: admin,
      json: { name: 'andaman-pos-sync', description: '  Point-of-sale sync  ' },
    });
    const account = await bodyOf<ServiceAccount>(res, 201);
    expect(res.headers.get('location')).toBe(`/api-system/service-accounts/${account.id}`);
    expect(res.headers.get('etag')).toMatch(/^W\//);
    expect(account).toMatchObject({
      name: 'andaman-pos-sync',
      description: 'Point-of-sale sync',
      is_active: true,
      grant_count: 0,
      active_token_count: 0,
      last_used_at: null,
    });
    const page = await bodyOf<ServiceAccountPage>(
      await t.fetch('/api-system/service-accounts?search=pos-sync', { token: admin }),
      200,
    );
    expect(page.data.map((a) => a.id)).toEqual([account.id]);
    const users = await bodyOf<{ data: Array<{ id: string }> }>(
      await t.fetch('/api-system/users?search=andaman-pos-sync', { token: admin }),
      200,
    );
    expect(users.data.map((u) => u.id)).not.toContain(account.id);
    const event: unknown = await t
      .knex('audit_events')
      .where({ action: 'createServiceAccount', target_id: account.id })
      .first();
    expect(event).toMatchObject({ target_type: 'user' });
  });

  it('when a name is taken by another account, or not a valid name, then it is refused and says why', async () => {
    const taken = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token: admin,
      json: { name: 'admin' },
    });
    expect(taken.status).toBe(409);
    expect(await detailOf(taken)).toContain('admin');
    const bad = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token: admin,
      json: { name: 'Has Spaces' },
    });
    expect(bad.status).toBe(400);
  });

  it('when it tries to sign in by password, refresh a session or use an access token, then each is refused with a clear problem', async () => {
    const account = await aServiceAccount();
    const login = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username: account.name, password: 'whatever-password-1' },
    });
    expect(login.status).toBe(401);
    const problem = await bodyOf<Problem>(login);
    expect(problem.type).toMatch(/service-account-sign-in$/);
    expect(problem.detail).toContain('service account');

    // A session and refresh token written straight to the database (no operation hands one out) are refused too.
    const [session] = await t
      .knex('sessions')
      .insert({ id: randomUUID(), user_id: account.id, expires_at: t.knex.raw("now() + interval '1 day'") })
      .returning<Array<{ id: string }>>('id');
    await t.knex('refresh_tokens').insert({
      user_id: account.id,
      token_hash: hashRefreshToken('svc-refresh-token'),
      family_id: session!.id,
      expires_at: t.knex.raw("now() + interval '1 day'"),
    });
    const refresh = await t.fetch('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: 'svc-refresh-token' },
    });
    expect(refresh.status).toBe(401);
    expect(await detailOf(refresh)).toContain('service account');
    const jwt = await t.tokenFor(account.id);
    expect((await t.fetch('/api/user/permission/platform', { token: jwt })).status).toBe(401);
  });

  it('when it is renamed and deactivated, then each change is audited and its tokens are refused until it is reactivated', async () => {
    const account = await aServiceAccount();
    const token = await bodyOf<{ token: string }>(
      await t.fetch(`/api-system/service-accounts/${account.id}/tokens`, {
        method: 'POST',
        token: admin,
        json: { name: 'sync', expires_at: new Date(Date.now() + YEAR_MS / 2).toISOString() },
      }),
      201,
    );
    expect((await t.fetch('/api/user/permission/platform', { token: token.token })).status).toBe(200);
    const renamed = `${account.name}-x`;
    const off = await t.fetch(`/api-system/service-accounts/${account.id}`, {
      method: 'PUT',
      token: admin,
      json: { name: renamed, description: null, is_active: false },
    });
    expect(await bodyOf<ServiceAccount>(off, 200)).toMatchObject({
      name: renamed,
      description: null,
      is_active: false,
    });
    const refused = await t.fetch('/api/user/permission/platform', { token: token.token });
    expect(refused.status).toBe(401);
    expect((await bodyOf<Problem>(refused)).type).toMatch(/account-deactivated$/);
    const event = (await t
      .knex('audit_events')
      .where({ action: 'updateServiceAccount', target_id: account.id })
      .first()) as { changes: unknown } | undefined;
    expect(JSON.stringify(event?.changes)).toContain('is_active');
    const on = await t.fetch(`/api-system/service-accounts/${account.id}`, {
      method: 'PUT',
      token: admin,
      json: { name: renamed, description: null, is_active: true },
    });
    expect(on.status).toBe(200);
    expect((await t.fetch('/api/user/permission/platform', { token: token.token })).status).toBe(200);
  });

  it('when a stale version is sent, then the update is refused with 412', async () => {
    const account = await aServiceAccount();
    const res = await t.fetch(`/api-system/service-accounts/${account.id}`, {
      method: 'PUT',
      token: admin,
      json: { name: account.name, description: 'x', is_active: true },
      headers: { 'If-Match': 'W/"stale"' },
    });
    expect(res.status).toBe(412);
  });

  it('when a help desk acts on a service account holding a key it lacks, then the delegation rule refuses it (403, nothing changes)', async () => {
    const cluster = await aCluster(t);
    const helpDesk = await aUserWith(t, ['user.read', 'user.manage', 'grant.manage', 'cluster.read']);
    const account = await aServiceAccount(helpDesk.token);
    const grant = await t.fetch(`/api-system/users/${account.id}/grants`, {
      method: 'POST',
      token: admin,
      json: { permission_key: 'cluster.update', cluster_id: cluster.id },
    });
    expect(grant.status).toBe(201);
    const edit = await t.fetch(`/api-system/service-accounts/${account.id}`, {
      method: 'PUT',
      token: helpDesk.token,
      json: { name: account.name, description: null, is_active: false },
    });
    expect(edit.status).toBe(403);
    expect(await detailOf(edit)).toContain('cluster.update');
    // The granting rule applies to it as to a person: nobody gives a key they do not hold there.
    const give = await t.fetch(`/api-system/users/${account.id}/grants`, {
      method: 'POST',
      token: helpDesk.token,
      json: { permission_key: 'cluster.delete', cluster_id: cluster.id },
    });
    expect(give.status).toBe(403);
    const after = await bodyOf<ServiceAccount>(
      await t.fetch(`/api-system/service-accounts/${account.id}`, { token: admin }),
      200,
    );
    expect(after).toMatchObject({ is_active: true, grant_count: 1 });
  });

  it('when the caller lacks user.read or user.manage, or the id is no service account, then it is refused', async () => {
    const reader = await aUserWith(t, ['user.read']);
    expect((await t.fetch('/api-system/service-accounts', { token: reader.token })).status).toBe(200);
    const create = await t.fetch('/api-system/service-accounts', {
      method: 'POST',
      token: reader.token,
      json: { name: name() },
    });
    expect(create.status).toBe(403);
    const nobody = await aUserWith(t, []);
    expect((await t.fetch('/api-system/service-accounts', { token: nobody.token })).status).toBe(403);
    // A person's id is not a service account's.
    expect((await t.fetch(`/api-system/service-accounts/${reader.id}`, { token: admin })).status).toBe(404);
  });
});
