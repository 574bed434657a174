// Delegated administration: an administrator acts on an account (profile, email, username, password, deactivation,
// unlock, grants) only when it holds every key that account holds, on the same clusters; only a super admin acts on a
// super admin. Also: the user search names only clusters the caller may read, and no login name points at two accounts.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCluster, aUser, aUserWith, FACTORY_PASSWORD, type Grant } from '../support/factory.js';
import type {
  AuditEventRecord,
  ClusterRecord,
  GrantRecord,
  LoginAttemptRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const NEW_PASSWORD = 'Reset-Lagoon-Takeover-26';

type Scope = string | null;
interface Key {
  key: string;
  scope: Scope;
}
interface Standing {
  superAdmin: boolean;
  keys: Key[];
}

const CLUSTER_KEYS = ['cluster.read', 'cluster.create', 'cluster.update', 'cluster.delete'];
const PLATFORM_KEYS = ['user.read', 'user.manage', 'grant.manage'];

/** The rule as the product documents it, written independently of the server's code. */
const holds = (c: Standing, key: string, scope: Scope) =>
  c.superAdmin || c.keys.some((k) => k.key === key && (k.scope === null || k.scope === scope));
const mayActOn = (c: Standing, target: Standing) =>
  c.superAdmin || (!target.superAdmin && target.keys.every((k) => holds(c, k.key, k.scope)));

describe.each(engines())('the delegation rule on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let adminId: string;
  /** Three clusters the random keys are spread over. */
  let clusters: string[];
  const uniq = () => randomUUID().slice(0, 8);

  /** A new account with these keys of the model; its id, username and a token of a signed-in device of it. */
  const account = (opts: { keys?: Key[]; superAdmin?: boolean; active?: boolean } = {}) =>
    aUserWith(
      t,
      (opts.keys ?? []).map((k): Grant => [k.key, k.scope]),
      { is_super_admin: !!opts.superAdmin, is_active: opts.active ?? true },
    );

  const call = (method: string, path: string, token: string, json?: unknown) => t.fetch(path, { method, token, json });
  const detail = async (res: Response) => ((await res.clone().json()) as { detail: string }).detail;
  const signIn = (username: string, password: string) =>
    t.fetch('/api/auth/login', { method: 'POST', json: { username, password } }).then((r) => r.status);
  const grantIdOf = async (userId: string, key: string, scope: Scope) =>
    (await t
      .knex<GrantRecord>('permission_grants')
      .where({ user_id: userId, permission_key: key, cluster_id: scope })
      .first('id'))!.id;
  const identity = (username: string, changes: Record<string, unknown> = {}) => ({
    username,
    email: `${username}@example.com`,
    firstname: null,
    middlename: null,
    lastname: null,
    ...changes,
  });

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    adminId = (
      (await t.knex<UserRecord>('users').select('id').where({ username: t.config.admin.username }).first()) as {
        id: string;
      }
    ).id;
    clusters = [];
    for (const i of [0, 1, 2]) clusters.push((await aCluster(t, { name: `Delegation ${i}` })).id);
  });
  afterAll(() => t?.close());

  describe('a help desk against the super admin', () => {
    const HELP_DESK: Key[] = [
      { key: 'user.read', scope: null },
      { key: 'user.manage', scope: null },
    ];

    it("when a help desk (user.read + user.manage) resets the super admin's password, then 403 and the admin still signs in with the old password", async () => {
      const helpDesk = await account({ keys: HELP_DESK });
      const token = await t.login(helpDesk.username, FACTORY_PASSWORD);
      const res = await call('POST', `/api-system/users/${adminId}/password-reset`, token, { password: NEW_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(await detail(res)).toBe('Only a super admin may reset the password of a super admin');
      expect(await signIn(t.config.admin.username, NEW_PASSWORD)).toBe(401);
      expect(await signIn(t.config.admin.username, t.config.admin.password)).toBe(200);
      expect(
        await t.knex<AuditEventRecord>('audit_events').where({ action: 'resetUserPassword', target_id: adminId }),
      ).toHaveLength(0);
    });

    it('when a help desk edits, deactivates, reactivates, unlocks, bulk-deactivates or changes the grants of a super admin, then 403 each and nothing changes', async () => {
      const helpDesk = await account({
        keys: [...HELP_DESK, { key: 'grant.manage', scope: null }, { key: 'cluster.read', scope: null }],
      });
      const other = await account({ superAdmin: true });
      const asleep = await account({ superAdmin: true, active: false });
      await t
        .knex<GrantRecord>('permission_grants')
        .insert({ user_id: other.id, permission_key: 'cluster.read', cluster_id: null });
      await t.knex<LoginAttemptRecord>('login_attempts').insert({
        account_key: other.id,
        client: '203.0.113.9',
        failed_count: 6,
        delayed_until: t.knex.raw("now() + interval '10 minutes'"),
      });
      const before = await t.knex<UserRecord>('users').whereIn('id', [adminId, other.id, asleep.id]).orderBy('id');
      try {
        const attempts: Array<[string, string, unknown]> = [
          ['PUT', `/api-system/users/${adminId}`, identity('takeover', { email: 'takeover@example.com' })],
          ['PUT', `/api-system/users/${other.id}`, identity(other.username, { email: 'mine@example.com' })],
          ['POST', `/api-system/users/${other.id}/deactivate`, undefined],
          ['POST', `/api-system/users/${asleep.id}/reactivate`, undefined],
          ['POST', `/api-system/users/${other.id}/unlock`, undefined],
          ['POST', `/api-system/users/${other.id}/password-reset`, { password: NEW_PASSWORD }],
          ['POST', `/api-system/users/${other.id}/grants`, { permission_key: 'user.read', cluster_id: null }],
          [
            'DELETE',
            `/api-system/users/${other.id}/grants/${await grantIdOf(other.id, 'cluster.read', null)}`,
            undefined,
          ],
        ];
        for (const [method, path, json] of attempts) {
          const res = await call(method, path, helpDesk.token, json);
          expect(res.status, `${method} ${path}`).toBe(403);
          expect(await detail(res), `${method} ${path}`).toMatch(/^Only a super admin may .+ a super admin$/);
        }
        const bulk = await call('POST', '/api-system/users/bulk', helpDesk.token, {
          action: 'deactivate',
          ids: [other.id, adminId],
        });
        expect(bulk.status).toBe(200);
        const body = (await bulk.json()) as {
          succeeded: number;
          results: Array<{ status: number; problem?: { detail: string } }>;
        };
        expect(body.succeeded).toBe(0);
        expect(body.results.map((r) => [r.status, r.problem?.detail])).toEqual([
          [403, 'Only a super admin may deactivate a super admin'],
          [403, 'Only a super admin may deactivate a super admin'],
        ]);
        const reactivate = await call('POST', '/api-system/users/bulk', helpDesk.token, {
          action: 'reactivate',
          ids: [asleep.id],
        });
        expect(
          ((await reactivate.json()) as { results: Array<{ status: number }> }).results.map((r) => r.status),
        ).toEqual([403]);
        expect(await t.knex<UserRecord>('users').whereIn('id', [adminId, other.id, asleep.id]).orderBy('id')).toEqual(
          before,
        );
        expect(await t.knex<GrantRecord>('permission_grants').where({ user_id: other.id })).toHaveLength(1);
        expect(await t.knex<LoginAttemptRecord>('login_attempts').where({ account_key: other.id })).toHaveLength(1);
      } finally {
        await t.knex<UserRecord>('users').whereIn('id', [other.id, asleep.id]).update({ is_super_admin: false });
      }
    });
  });

  describe('a help desk against an account holding a key it lacks', () => {
    it('when the account holds cluster.update on a cluster the caller does not, then every operation on it is 403 naming the key, and nothing changes', async () => {
      const [a] = clusters as [string];
      const helpDesk = await account({
        keys: [
          { key: 'user.read', scope: null },
          { key: 'user.manage', scope: null },
          { key: 'grant.manage', scope: null },
          { key: 'cluster.read', scope: null },
        ],
      });
      const editor = await account({
        keys: [
          { key: 'cluster.read', scope: a },
          { key: 'cluster.update', scope: a },
        ],
      });
      const asleep = await account({ keys: [{ key: 'cluster.update', scope: a }], active: false });
      const plain = await account();
      const before = await t.knex<UserRecord>('users').whereIn('id', [editor.id, asleep.id]).orderBy('id');
      const attempts: Array<[string, string, unknown]> = [
        ['PUT', `/api-system/users/${editor.id}`, identity(editor.username, { email: 'redirected@example.com' })],
        ['POST', `/api-system/users/${editor.id}/deactivate`, undefined],
        ['POST', `/api-system/users/${asleep.id}/reactivate`, undefined],
        ['POST', `/api-system/users/${editor.id}/unlock`, undefined],
        ['POST', `/api-system/users/${editor.id}/password-reset`, { password: NEW_PASSWORD }],
        ['POST', `/api-system/users/${editor.id}/grants`, { permission_key: 'user.read', cluster_id: null }],
        // The caller holds cluster.read everywhere, so the granting rule alone would let it remove this one.
        ['DELETE', `/api-system/users/${editor.id}/grants/${await grantIdOf(editor.id, 'cluster.read', a)}`, undefined],
      ];
      for (const [method, path, json] of attempts) {
        const res = await call(method, path, helpDesk.token, json);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(await detail(res), `${method} ${path}`).toMatch(
          new RegExp(`^You may not .+ this account: it holds cluster\\.update on cluster ${a}`),
        );
      }
      const bulk = await call('POST', '/api-system/users/bulk', helpDesk.token, {
        action: 'deactivate',
        ids: [editor.id, plain.id],
      });
      const body = (await bulk.json()) as {
        succeeded: number;
        failed: number;
        results: Array<{ id: string; status: number; problem?: { detail: string } }>;
      };
      expect(body.results.map((r) => [r.id, r.status])).toEqual([
        [editor.id, 403],
        [plain.id, 200],
      ]);
      expect(body.results[0]!.problem!.detail).toMatch(
        /^You may not deactivate this account: it holds cluster\.update/,
      );
      expect(await t.knex<UserRecord>('users').whereIn('id', [editor.id, asleep.id]).orderBy('id')).toEqual(before);
      expect((await t.knex<UserRecord>('users').where({ id: plain.id }).first())!.is_active).toBe(false);
      expect(await t.knex<GrantRecord>('permission_grants').where({ user_id: editor.id })).toHaveLength(2);
      expect(await signIn(editor.username, FACTORY_PASSWORD)).toBe(200);
    });

    it('when the caller holds every key of the account (a key on all clusters covers each cluster), then it may act on it; and on itself', async () => {
      const [a, b] = clusters as [string, string];
      const helpDesk = await account({
        keys: [
          { key: 'user.manage', scope: null },
          { key: 'grant.manage', scope: null },
          { key: 'cluster.update', scope: null },
          { key: 'cluster.read', scope: a },
        ],
      });
      const target = await account({
        keys: [
          { key: 'cluster.update', scope: a },
          { key: 'cluster.update', scope: b },
          { key: 'cluster.read', scope: a },
        ],
      });
      expect(
        (
          await call(
            'PUT',
            `/api-system/users/${target.id}`,
            helpDesk.token,
            identity(target.username, { firstname: 'Delegated' }),
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await call('POST', `/api-system/users/${target.id}/password-reset`, helpDesk.token, {
            password: NEW_PASSWORD,
          })
        ).status,
      ).toBe(200);
      expect((await call('POST', `/api-system/users/${target.id}/unlock`, helpDesk.token)).status).toBe(200);
      expect(
        (
          await call('POST', `/api-system/users/${target.id}/grants`, helpDesk.token, {
            permission_key: 'cluster.update',
            cluster_id: clusters[2],
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await call(
            'DELETE',
            `/api-system/users/${target.id}/grants/${await grantIdOf(target.id, 'cluster.update', b)}`,
            helpDesk.token,
          )
        ).status,
      ).toBe(204);
      expect((await call('POST', `/api-system/users/${target.id}/deactivate`, helpDesk.token)).status).toBe(200);
      expect((await call('POST', `/api-system/users/${target.id}/reactivate`, helpDesk.token)).status).toBe(200);
      // Its own account holds exactly its own keys.
      expect(
        (
          await call(
            'PUT',
            `/api-system/users/${helpDesk.id}`,
            helpDesk.token,
            identity(helpDesk.username, { lastname: 'Self' }),
          )
        ).status,
      ).toBe(200);
      expect((await call('POST', `/api-system/users/${helpDesk.id}/unlock`, helpDesk.token)).status).toBe(200);
    });
  });

  it('for random callers and accounts, each account operation answers 2xx exactly when the rule allows it and 403 otherwise', async () => {
    const scopes: Scope[] = [null, ...clusters];
    const pairs: Key[] = [
      ...CLUSTER_KEYS.flatMap((key) => scopes.map((scope) => ({ key, scope }))),
      ...PLATFORM_KEYS.map((key) => ({ key, scope: null })),
    ];
    const rarely = fc.integer({ min: 0, max: 5 }).map((n) => n === 0);
    const standing = (maxKeys: number) =>
      fc.record({ superAdmin: rarely, keys: fc.subarray(pairs, { maxLength: maxKeys }) });

    await fc.assert(
      fc.asyncProperty(
        standing(pairs.length),
        standing(4),
        fc.nat(),
        fc.nat(),
        async (caller, target, removePick, addPick) => {
          const c = await account({ keys: caller.keys, superAdmin: caller.superAdmin });
          const x = await account({ keys: target.keys, superAdmin: target.superAdmin });
          const plain = await account();
          const model: Standing = { superAdmin: target.superAdmin, keys: [...target.keys] };
          const seen: string[] = [];
          const expectStatus = async (what: string, res: Response, allowed: boolean, ok: number) => {
            const text = await res.text();
            seen.push(`${what} → ${res.status}`);
            expect(res.status, `${what}: ${text}\n${seen.join('\n')}`).toBe(allowed ? ok : 403);
          };
          const manage = holds(caller, 'user.manage', null);
          try {
            const mayAct = () => mayActOn(caller, model);
            await expectStatus(
              'update',
              await call('PUT', `/api-system/users/${x.id}`, c.token, identity(x.username, { firstname: 'Prop' })),
              manage && mayAct(),
              200,
            );
            await expectStatus(
              'unlock',
              await call('POST', `/api-system/users/${x.id}/unlock`, c.token),
              manage && mayAct(),
              200,
            );
            await expectStatus(
              'password-reset',
              await call('POST', `/api-system/users/${x.id}/password-reset`, c.token, { password: NEW_PASSWORD }),
              manage && mayAct(),
              200,
            );
            await expectStatus(
              'deactivate',
              await call('POST', `/api-system/users/${x.id}/deactivate`, c.token),
              manage && mayAct(),
              200,
            );
            await expectStatus(
              'reactivate',
              await call('POST', `/api-system/users/${x.id}/reactivate`, c.token),
              manage && mayAct(),
              200,
            );

            const bulk = await call('POST', '/api-system/users/bulk', c.token, {
              action: 'deactivate',
              ids: [x.id, plain.id],
            });
            if (!holds(caller, 'user.read', null)) {
              await expectStatus('bulk', bulk, false, 200);
            } else {
              const rows = ((await bulk.json()) as { results: Array<{ status: number }> }).results.map((r) => r.status);
              expect(rows, seen.join('\n')).toEqual([manage && mayAct() ? 200 : 403, manage ? 200 : 403]);
            }

            const grantManage = holds(caller, 'grant.manage', null);
            if (model.keys.length) {
              const k = model.keys[removePick % model.keys.length]!;
              const allowed = grantManage && holds(caller, k.key, k.scope) && mayAct();
              await expectStatus(
                `remove ${k.key}@${k.scope}`,
                await call(
                  'DELETE',
                  `/api-system/users/${x.id}/grants/${await grantIdOf(x.id, k.key, k.scope)}`,
                  c.token,
                ),
                allowed,
                204,
              );
              if (allowed) model.keys = model.keys.filter((m) => m !== k);
            }
            const free = pairs.filter((p) => !model.keys.some((k) => k.key === p.key && k.scope === p.scope));
            const p = free[addPick % free.length]!;
            const allowed = grantManage && holds(caller, p.key, p.scope) && mayAct();
            await expectStatus(
              `add ${p.key}@${p.scope}`,
              await call('POST', `/api-system/users/${x.id}/grants`, c.token, {
                permission_key: p.key,
                cluster_id: p.scope,
              }),
              allowed,
              201,
            );
          } finally {
            // Extra super admins would make later deactivations of a super admin pass for the wrong reason.
            await t
              .knex<UserRecord>('users')
              .whereIn('id', [c.id, x.id])
              .update({ is_super_admin: false, is_active: false });
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  describe('the user search', () => {
    it('when a caller excludes the members of a cluster it cannot read, then 404 as for a missing cluster; of one it can read, 200', async () => {
      const ids = Object.fromEntries(
        (await t.knex<ClusterRecord>('clusters').whereIn('code', ['CL-A', 'CL-B']).select('code', 'id')).map(
          (r: { code: string; id: string }) => [r.code, r.id],
        ),
      );
      const editor = await t.login('editor-a');
      const otherCluster = await t.fetch(`/api-system/user?exclude_cluster_id=${ids['CL-B']}`, { token: editor });
      const missing = await t.fetch(`/api-system/user?exclude_cluster_id=${randomUUID()}`, { token: editor });
      for (const res of [otherCluster, missing]) {
        expect(res.status).toBe(404);
        expect(await detail(res)).toBe('Cluster not found');
      }
      expect((await t.fetch(`/api-system/user?exclude_cluster_id=${ids['CL-A']}`, { token: editor })).status).toBe(200);
      expect((await t.fetch('/api-system/user', { token: editor })).status).toBe(200);
      // Reading every cluster lets it name any of them.
      const wide = await account({
        keys: [
          { key: 'cluster.update', scope: ids['CL-A']! },
          { key: 'cluster.read', scope: null },
        ],
      });
      expect((await t.fetch(`/api-system/user?exclude_cluster_id=${ids['CL-B']}`, { token: wide.token })).status).toBe(
        200,
      );
      expect((await t.fetch(`/api-system/user?exclude_cluster_id=${ids['CL-B']}`, { token: admin })).status).toBe(200);
      // A caller who reads every cluster learns nothing from an id that names none: it is simply excluded.
      expect((await t.fetch(`/api-system/user?exclude_cluster_id=${randomUUID()}`, { token: admin })).status).toBe(200);
    });

    it('when an account reader filters accounts by a cluster it cannot read, then 404 as for a missing cluster, in the list and the export', async () => {
      const ids = Object.fromEntries(
        (await t.knex<ClusterRecord>('clusters').whereIn('code', ['CL-A', 'CL-B']).select('code', 'id')).map(
          (r: { code: string; id: string }) => [r.code, r.id],
        ),
      );
      const reader = await account({
        keys: [
          { key: 'user.read', scope: null },
          { key: 'cluster.read', scope: ids['CL-A']! },
        ],
      });
      for (const path of ['/api-system/users', '/api-system/users/export']) {
        const res = await t.fetch(`${path}?cluster_id=${ids['CL-B']}`, { token: reader.token });
        expect(res.status, path).toBe(404);
        expect(await detail(res)).toBe('Cluster not found');
        expect((await t.fetch(`${path}?cluster_id=${ids['CL-A']}`, { token: reader.token })).status, path).toBe(200);
        expect((await t.fetch(`${path}?cluster_id=${ids['CL-B']}`, { token: admin })).status, path).toBe(200);
      }
    });

    it('when a caller granting keys names a cluster it holds nothing on, then the answer is the same whether the cluster exists or not', async () => {
      const granter = await account({
        keys: [
          { key: 'grant.manage', scope: null },
          { key: 'cluster.read', scope: clusters[0]! },
        ],
      });
      const target = await account();
      const existing = await call('POST', `/api-system/users/${target.id}/grants`, granter.token, {
        permission_key: 'cluster.read',
        cluster_id: clusters[1],
      });
      const missing = await call('POST', `/api-system/users/${target.id}/grants`, granter.token, {
        permission_key: 'cluster.read',
        cluster_id: randomUUID(),
      });
      expect([existing.status, missing.status]).toEqual([403, 403]);
      expect(await detail(missing)).toBe(await detail(existing));
    });
  });

  describe('login names', () => {
    it("when a username equals another account's email, or an email another account's username (in any case), then 409 names the field, on create and on update", async () => {
      const holder = await account();
      const emailShaped = `dl-${uniq()}@corp.example`;
      const emailShapedId = (await aUser(t, { username: emailShaped, email: `other-${uniq()}@example.com` })).id;

      const asUsername = await call('POST', '/api-system/users', admin, {
        username: `${holder.username}@EXAMPLE.com`,
        email: `fresh-${uniq()}@example.com`,
        password: FACTORY_PASSWORD,
      });
      expect(asUsername.status).toBe(409);
      expect(await detail(asUsername)).toMatch(/^The username .+ is another account's sign-in address/);
      const asEmail = await call('POST', '/api-system/users', admin, {
        username: `fresh-${uniq()}`,
        email: emailShaped.toUpperCase(),
        password: FACTORY_PASSWORD,
      });
      expect(asEmail.status).toBe(409);
      expect(await detail(asEmail)).toMatch(/^The email .+ is another account's username/);

      const other = await account();
      const updUsername = await call(
        'PUT',
        `/api-system/users/${other.id}`,
        admin,
        identity(other.username, { username: `${holder.username}@example.com` }),
      );
      expect(updUsername.status).toBe(409);
      // The console files a 409 under the email field when its detail says "email".
      expect(await detail(updUsername)).toMatch(/username/);
      expect(await detail(updUsername)).not.toMatch(/e-?mail/i);
      const updEmail = await call(
        'PUT',
        `/api-system/users/${other.id}`,
        admin,
        identity(other.username, { email: emailShaped }),
      );
      expect(updEmail.status).toBe(409);
      expect(await detail(updEmail)).toMatch(/email/);
      expect((await t.knex<UserRecord>('users').where({ id: other.id }).first())!.email).toBe(
        `${other.username}@example.com`,
      );

      // An account's own email as its own username points at one account only.
      const own = await call('PUT', `/api-system/users/${emailShapedId}`, admin, {
        username: emailShaped,
        email: emailShaped,
        firstname: null,
        middlename: null,
        lastname: null,
      });
      expect(own.status, await own.clone().text()).toBe(200);
    });
  });
});
