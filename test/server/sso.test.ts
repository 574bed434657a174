// Single sign-on against a real OpenID provider (oidc-provider on a loopback port, its own keys): the redirect flow,
// how a sign-in finds or makes its account, every check of the provider's answer, and what a failure leaves behind.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInAtIdp, startTestIdp, type TestIdp } from '../support/oidc-idp.js';
import { hashPassword } from '../../server/src/modules/auth/passwords.js';
import { aCluster, aUser, bodyOf, FACTORY_PASSWORD } from '../support/factory.js';
import type {
  AuditEventRecord,
  GrantRecord,
  GroupMappingRecord,
  IdentityRecord,
  SessionRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { stringMatching } from '../support/matchers.js';

describe.each(engines())('single sign-on on %s', (engine) => {
  let t: TestServer;
  let idp: TestIdp;
  let admin: string;
  const uniq = () => randomUUID().slice(0, 8);

  beforeAll(async () => {
    idp = await startTestIdp({}, { providerIds: ['test-idp', 'link-only', 'assumed'] });
    // A second provider that is down: nothing listens at its issuer.
    const down = {
      id: 'down',
      display_name: 'Down IdP',
      issuer: 'http://127.0.0.1:9',
      client_id: 'x',
      client_secret: 'y',
    };
    const providers = [
      idp.providerConfig({
        id: 'test-idp',
        jit_provisioning: true,
        link_existing_accounts: true,
        allowed_email_domains: ['andaman.example', 'example.com'],
        clock_tolerance_seconds: 0,
        reauth_hours: 8,
      }),
      idp.providerConfig({ id: 'link-only', display_name: 'Link only' }),
      idp.providerConfig({
        id: 'assumed',
        display_name: 'Assumed',
        jit_provisioning: true,
        assume_email_verified: true,
      }),
      down,
    ];
    t = await startTestServer(engine, { env: { OIDC_PROVIDERS: JSON.stringify(providers) } });
    idp.serve([t.baseUrl]);
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });
  beforeEach(() => {
    idp.tamper.idToken = undefined;
  });

  const person = (extra: Partial<{ email: string; email_verified: boolean; groups: string[] }> = {}) => {
    const sub = `sub-${uniq()}`;
    idp.accounts.set(sub, {
      email: `${sub}@andaman.example`,
      email_verified: true,
      given_name: 'Somchai',
      family_name: 'Jaidee',
      ...extra,
    });
    return { sub, email: idp.accounts.get(sub)!.email };
  };

  /** The login page's address the product sent the browser to, parsed. */
  const loginPageOf = (res: Response) => {
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${t.baseUrl}/#/login?`), location).toBe(true);
    return new URLSearchParams(location.slice(location.indexOf('?') + 1));
  };
  /** The state cookie each sign-in started here left in "the browser", by its state: the callback sends it back. */
  const browser = new Map<string, string>();
  const start = async (provider = 'test-idp') => {
    const res = await t.fetch(`/api/auth/sso/${provider}/start?return_to=/clusters`, { redirect: 'manual' });
    const location = res.headers.get('location');
    const state = location?.startsWith(idp.issuer) ? new URL(location).searchParams.get('state') : null;
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sso_state='));
    if (state && cookie) browser.set(state, cookie.split(';')[0]!);
    return res;
  };
  /** Starts a sign-in and signs in at the provider; answers the callback URL the provider sent back, not yet visited. */
  const atProvider = async (sub: string, provider = 'test-idp') => {
    const started = await start(provider);
    expect(started.status).toBe(302);
    return signInAtIdp(started.headers.get('location')!, sub, `${t.baseUrl}/api/auth/sso/${provider}/callback`);
  };
  /** Visits the callback as the browser that started the sign-in (its cookie), or with the cookie given (null: none). */
  const callback = (url: string, opts: { cookie?: string | null } = {}) => {
    const cookie = opts.cookie === undefined ? browser.get(new URL(url).searchParams.get('state') ?? '') : opts.cookie;
    return fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  };
  const exchange = (code: string) => t.fetch('/api/auth/sso/exchange', { method: 'POST', json: { code } });
  /** The whole flow: the login page's parameters after the callback. */
  const signIn = async (sub: string) => loginPageOf(await callback(await atProvider(sub)));
  const sessionsOf = async (userId: string) =>
    Number((await t.knex<SessionRecord>('sessions').where({ user_id: userId }).count({ n: '*' }))[0]!.n);
  const accountOf = async (email: string) => t.knex<UserRecord>('users').whereRaw('lower(email) = ?', [email]).first();
  /** What a login answers: its status, title and detail. */
  const answerOf = async (res: Response) => {
    const { status, title, detail } = (await res.json()) as Record<string, unknown>;
    return { status, title, detail };
  };
  /** The answer a wrong password gets. */
  const wrongPasswordAnswer = async (username: string) =>
    answerOf(await t.fetch('/api/auth/login', { method: 'POST', json: { username, password: 'not-the-password-1' } }));

  it('lists the configured providers for the login page, without their secrets', async () => {
    const res = await t.fetch('/api/auth/sso/providers');
    expect(await res.json()).toEqual({
      data: [
        { id: 'test-idp', display_name: 'Test IdP' },
        { id: 'link-only', display_name: 'Link only' },
        { id: 'assumed', display_name: 'Assumed' },
        { id: 'down', display_name: 'Down IdP' },
      ],
    });
  });

  it('when a provider account signs in the first time, then an account is provisioned with the grants its groups map to, and the code gives working tokens once', async () => {
    const cluster = (
      (await (
        await t.fetch('/api-system/clusters', {
          method: 'POST',
          token: admin,
          json: { code: `SSO-${uniq()}`, name: 'SSO' },
        })
      ).json()) as { id: string }
    ).id;
    const group = `operators-${uniq()}`;
    for (const json of [
      { provider: 'test-idp', group, permission_key: 'cluster.read', cluster_id: cluster },
      { provider: 'test-idp', group, permission_key: 'cluster.update', cluster_id: cluster },
      { provider: 'test-idp', group: `other-${uniq()}`, permission_key: 'user.read', cluster_id: null },
    ]) {
      expect((await t.fetch('/api-system/sso/group-mappings', { method: 'POST', token: admin, json })).status).toBe(
        201,
      );
    }
    const { sub, email } = person({ groups: [group, 'unmapped'] });
    const page = await signIn(sub);
    expect(page.get('return_to')).toBe('/clusters');
    const code = page.get('sso_code')!;
    const tokens = await exchange(code);
    expect(tokens.status).toBe(200);
    const { access_token } = (await tokens.json()) as { access_token: string };
    const me = (await (await t.fetch('/api/user/permission/platform', { token: access_token })).json()) as {
      user: { email: string };
      clusters: Record<string, string[]>;
    };
    expect(me.user.email).toBe(email);
    expect(me.clusters[cluster]?.sort()).toEqual(['cluster.read', 'cluster.update']);
    // The code works once.
    expect((await exchange(code)).status).toBe(401);

    const account = (await accountOf(email))!;
    expect(account).toMatchObject({ firstname: 'Somchai', lastname: 'Jaidee', sso_only: true, is_active: true });
    const sso = (await (await t.fetch(`/api-system/users/${account.id}/sso`, { token: admin })).json()) as {
      sso_only: boolean;
      identities: Array<{ provider: string; subject: string }>;
    };
    expect(sso).toMatchObject({ sso_only: true, identities: [{ provider: 'test-idp', subject: sub }] });
    // The sign-in is recorded with the provider and the subject.
    const login = (await t
      .knex<AuditEventRecord>('audit_events')
      .where({ actor_id: account.id, action: 'login' })
      .first())!;
    expect(login.changes).toEqual({
      provider: { before: null, after: 'test-idp' },
      subject: { before: null, after: sub },
    });
    // Its local password cannot be used, even the right one (given here, as the provisioned one is unknown to all).
    // The answer is that of a wrong password: it tells nobody the password was right.
    await t
      .knex<UserRecord>('users')
      .where({ id: account.id })
      .update({ password_hash: await hashPassword(FACTORY_PASSWORD) });
    const local = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username: account.username, password: FACTORY_PASSWORD },
    });
    expect(local.status).toBe(401);
    expect(await answerOf(local)).toEqual(await wrongPasswordAnswer(account.username));
  });

  it('when an existing account has the verified email and the provider links accounts, then the sign-in links to it; later sign-ins find it by subject', async () => {
    const { sub, email } = person();
    const [row] = await t
      .knex<UserRecord>('users')
      .insert({ username: `linked-${uniq()}`, email, password_hash: 'x' })
      .returning('id');
    const id = (row as { id: string }).id;
    expect((await exchange((await signIn(sub)).get('sso_code')!)).status).toBe(200);
    expect(
      await t.knex<IdentityRecord>('user_identities').where({ user_id: id, provider: 'test-idp', subject: sub }),
    ).toHaveLength(1);
    // The provider changes the email: the subject still finds the account.
    idp.accounts.get(sub)!.email = `renamed-${uniq()}@andaman.example`;
    expect((await exchange((await signIn(sub)).get('sso_code')!)).status).toBe(200);
    expect(await sessionsOf(id)).toBe(2);
  });

  it.each([
    ['the email is not verified', { email_verified: false }, 'email_unverified'],
    [
      'the email domain is not allowed',
      { email: `someone-${randomUUID().slice(0, 6)}@elsewhere.example` },
      'domain_not_allowed',
    ],
  ])('when %s, then the login page says so and no account or session is made', async (_label, extra, reason) => {
    const { sub, email } = person(extra);
    expect((await signIn(sub)).get('sso_error')).toBe(reason);
    expect(await accountOf(email)).toBeUndefined();
  });

  it('when the provider sends no email_verified claim, then the email counts as verified only where the provider is configured to assume it', async () => {
    const { sub, email } = person();
    delete (idp.accounts.get(sub) as { email_verified?: boolean }).email_verified;
    expect((await signIn(sub)).get('sso_error')).toBe('email_unverified');
    const started = await start('assumed');
    const url = await signInAtIdp(started.headers.get('location')!, sub, `${t.baseUrl}/api/auth/sso/assumed/callback`);
    expect(loginPageOf(await callback(url)).get('sso_code')).toBeTruthy();
    expect(await accountOf(email)).toBeTruthy();
  });

  it('when the provider does not provision accounts and none has the email, then no_account and nothing is made', async () => {
    const { sub, email } = person();
    const started = await start('link-only');
    const url = await signInAtIdp(
      started.headers.get('location')!,
      sub,
      `${t.baseUrl}/api/auth/sso/link-only/callback`,
    );
    expect(loginPageOf(await callback(url)).get('sso_error')).toBe('no_account');
    expect(await accountOf(email)).toBeUndefined();
  });

  it('when the state is not one the service issued, then the sign-in stops before the code is used', async () => {
    const url = new URL(await atProvider(person().sub));
    url.searchParams.set('state', 'forged-state-value');
    // Even a browser that carries the forged value as its state cookie: the service never issued it.
    expect(loginPageOf(await callback(url.href, { cookie: 'sso_state=forged-state-value' })).get('sso_error')).toBe(
      'state',
    );
  });

  it('when a code is replayed, then the second use is refused and leaves no session', async () => {
    const { sub, email } = person();
    const first = await atProvider(sub);
    expect((await exchange(loginPageOf(await callback(first)).get('sso_code')!)).status).toBe(200);
    const account = (await accountOf(email))!;
    const sessions = await sessionsOf(account.id);
    // The same redirect again: its state is spent.
    expect(loginPageOf(await callback(first)).get('sso_error')).toBe('state');
    // The same code with a fresh state of a new sign-in: the provider refuses the used code.
    const fresh = new URL(await atProvider(sub));
    fresh.searchParams.set('code', new URL(first).searchParams.get('code')!);
    expect(loginPageOf(await callback(fresh.href)).get('sso_error')).toBe('token');
    expect(await sessionsOf(account.id)).toBe(sessions);
  });

  it.each([
    [
      'its nonce is not this sign-in’s',
      (claims: Record<string, unknown>) => ({ claims: { ...claims, nonce: 'another-nonce' } }),
    ],
    [
      'it is signed by a key the provider never published',
      (claims: Record<string, unknown>) => ({ claims, key: 'foreign' as const }),
    ],
    [
      'it has expired',
      (claims: Record<string, unknown>) => ({
        claims: { ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 },
      }),
    ],
    [
      'it names another audience',
      (claims: Record<string, unknown>) => ({ claims: { ...claims, aud: 'someone-else' } }),
    ],
    [
      'it names another issuer',
      (claims: Record<string, unknown>) => ({ claims: { ...claims, iss: 'https://evil.example' } }),
    ],
  ])(
    'when the ID token fails a check (%s), then the login page says the answer was refused and no session is left',
    async (_label, rewrite) => {
      const { sub, email } = person();
      const url = await atProvider(sub);
      idp.tamper.idToken = rewrite;
      expect(loginPageOf(await callback(url)).get('sso_error')).toBe('token');
      expect(await accountOf(email)).toBeUndefined();
    },
  );

  it('when the provider cannot be reached, then the start goes back to the login page with provider_unavailable, never a 500', async () => {
    expect(loginPageOf(await start('down')).get('sso_error')).toBe('provider_unavailable');
    expect((await start('nobody')).status).toBe(404);
  });

  it('when a stored nonce does not match the token, then the sign-in is refused', async () => {
    const { sub } = person();
    const url = new URL(await atProvider(sub));
    await t
      .knex('sso_sign_ins')
      .where({ state: url.searchParams.get('state') })
      .update({ nonce: 'tampered-nonce' });
    expect(loginPageOf(await callback(url.href)).get('sso_error')).toBe('token');
  });

  it('when the user declines at the provider, then denied', async () => {
    const url = new URL(await atProvider(person().sub));
    const declined = new URL(url.origin + url.pathname);
    declined.searchParams.set('state', url.searchParams.get('state')!);
    declined.searchParams.set('error', 'access_denied');
    expect(loginPageOf(await callback(declined.href)).get('sso_error')).toBe('denied');
  });

  it('when an account is deactivated, then it cannot sign in with SSO, and its refresh stops at once', async () => {
    const { sub, email } = person();
    const tokens = (await (await exchange((await signIn(sub)).get('sso_code')!)).json()) as { refresh_token: string };
    const account = (await accountOf(email))!;
    expect((await t.fetch(`/api-system/users/${account.id}/deactivate`, { method: 'POST', token: admin })).status).toBe(
      200,
    );
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: tokens.refresh_token } }))
        .status,
    ).toBe(401);
    expect((await signIn(sub)).get('sso_error')).toBe('inactive');
  });

  it('when the provider asks for a new sign-in every N hours, then an older SSO session no longer refreshes', async () => {
    const { sub, email } = person();
    const tokens = (await (await exchange((await signIn(sub)).get('sso_code')!)).json()) as { refresh_token: string };
    const account = (await accountOf(email))!;
    await t
      .knex<SessionRecord>('sessions')
      .where({ user_id: account.id })
      .update({ sso_authenticated_at: t.knex.raw("now() - interval '9 hours'") });
    const refresh = await t.fetch('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: tokens.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect(((await refresh.json()) as { detail: string }).detail).toBe(
      'Sign in with Test IdP again: your organisation asks for it every 8 hours',
    );
  });

  it('when an SSO session signs out, then its tokens are revoked and the provider’s end-session URL is given', async () => {
    const { sub } = person();
    const tokens = (await (await exchange((await signIn(sub)).get('sso_code')!)).json()) as { refresh_token: string };
    const res = await t.fetch('/api/auth/sso/logout', {
      method: 'POST',
      json: { refresh_token: tokens.refresh_token },
    });
    const { end_session_url } = (await res.json()) as { end_session_url: string };
    const url = new URL(end_session_url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${t.baseUrl}/`);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: tokens.refresh_token } }))
        .status,
    ).toBe(401);
    // A local session signs out with no provider to visit.
    const local = (await (
      await t.fetch('/api/auth/login', { method: 'POST', json: { username: 'viewer', password: 'demo1234' } })
    ).json()) as { refresh_token: string };
    expect(
      await (
        await t.fetch('/api/auth/sso/logout', { method: 'POST', json: { refresh_token: local.refresh_token } })
      ).json(),
    ).toEqual({ end_session_url: null });
  });

  it('when an account is made SSO-only, then its password stops working and its password sessions end; a never-linked one cannot be', async () => {
    const { sub, email } = person();
    const username = `pw-${uniq()}`;
    const [row] = await t
      .knex<UserRecord>('users')
      .insert({ username, email, password_hash: await hashPassword(FACTORY_PASSWORD) })
      .returning('id');
    const id = (row as { id: string }).id;
    const passwordLogin = () =>
      t.fetch('/api/auth/login', { method: 'POST', json: { username, password: FACTORY_PASSWORD } });
    const before = (await (await passwordLogin()).json()) as { refresh_token: string };
    // Not linked yet.
    expect(
      (await t.fetch(`/api-system/users/${id}/sso`, { method: 'PUT', token: admin, json: { sso_only: true } })).status,
    ).toBe(409);
    expect((await exchange((await signIn(sub)).get('sso_code')!)).status).toBe(200);
    const set = await t.fetch(`/api-system/users/${id}/sso`, { method: 'PUT', token: admin, json: { sso_only: true } });
    expect(set.status).toBe(200);
    const refused = await passwordLogin();
    expect(refused.status).toBe(401);
    expect(await answerOf(refused)).toEqual(await wrongPasswordAnswer(username));
    expect(
      (await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token: before.refresh_token } }))
        .status,
    ).toBe(401);
    expect((await exchange((await signIn(sub)).get('sso_code')!)).status).toBe(200);
    // And back: the password works again.
    expect(
      (await t.fetch(`/api-system/users/${id}/sso`, { method: 'PUT', token: admin, json: { sso_only: false } })).status,
    ).toBe(200);
    expect((await passwordLogin()).status).toBe(200);
  });

  it('keeps group mappings valid: unknown provider and a platform key on a cluster are 400, a duplicate 409, and a removal 204 then 404', async () => {
    const post = (json: unknown) => t.fetch('/api-system/sso/group-mappings', { method: 'POST', token: admin, json });
    expect((await post({ provider: 'nobody', group: 'g', permission_key: 'cluster.read' })).status).toBe(400);
    const cluster = (
      (await (await t.fetch('/api-system/clusters?perpage=1', { token: admin })).json()) as {
        data: Array<{ id: string }>;
      }
    ).data[0]!.id;
    expect(
      (await post({ provider: 'test-idp', group: 'g', permission_key: 'user.manage', cluster_id: cluster })).status,
    ).toBe(400);
    expect(
      (await post({ provider: 'test-idp', group: 'g', permission_key: 'cluster.read', cluster_id: randomUUID() }))
        .status,
    ).toBe(404);
    const group = `dup-${uniq()}`;
    const created = await post({ provider: 'test-idp', group, permission_key: 'cluster.read', cluster_id: cluster });
    expect(created.status).toBe(201);
    expect(
      (await post({ provider: 'test-idp', group, permission_key: 'cluster.read', cluster_id: cluster })).status,
    ).toBe(409);
    const { id } = (await created.json()) as { id: string };
    const list = (await (await t.fetch('/api-system/sso/group-mappings', { token: admin })).json()) as {
      data: Array<{ id: string; cluster_code: string }>;
    };
    expect(list.data.find((m) => m.id === id)?.cluster_code).toBeTruthy();
    expect((await t.fetch(`/api-system/sso/group-mappings/${id}`, { method: 'DELETE', token: admin })).status).toBe(
      204,
    );
    expect((await t.fetch(`/api-system/sso/group-mappings/${id}`, { method: 'DELETE', token: admin })).status).toBe(
      404,
    );
  });
  const keysOf = async (userId: string) =>
    (
      (await t
        .knex<GrantRecord>('permission_grants')
        .select('permission_key', 'cluster_id')
        .where({ user_id: userId })) as Array<{
        permission_key: string;
        cluster_id: string | null;
      }>
    )
      .map((g) => `${g.permission_key}@${g.cluster_id ?? 'all'}`)
      .sort();
  const identitiesOf = async (userId: string) => t.knex<IdentityRecord>('user_identities').where({ user_id: userId });
  type Mapping = { id: string; grants_fully: boolean; not_granting_reason: string | null };
  const mappingsList = async () =>
    ((await (await t.fetch('/api-system/sso/group-mappings', { token: admin })).json()) as { data: Mapping[] }).data;

  describe('group mappings grant only what their author may grant', () => {
    it('when a grant.manage holder without the key maps a group to it, then 403 names the key and scope (it used to be 201 and a side door to user.manage)', async () => {
      const cluster = (await aCluster(t)).id;
      const manager = await aUser(t, {}, [
        ['grant.manage', null],
        ['cluster.read', cluster],
      ]);
      const token = await t.login(manager.username, FACTORY_PASSWORD);
      const post = (json: unknown) => t.fetch('/api-system/sso/group-mappings', { method: 'POST', token, json });
      // Granting user.manage directly is refused...
      const me = await aUser(t);
      expect(
        (
          await t.fetch(`/api-system/users/${me.id}/grants`, {
            method: 'POST',
            token,
            json: { permission_key: 'user.manage', cluster_id: null },
          })
        ).status,
      ).toBe(403);
      // ...and so is mapping a group to it.
      const platform = await post({
        provider: 'test-idp',
        group: `g-${uniq()}`,
        permission_key: 'user.manage',
        cluster_id: null,
      });
      expect(platform.status).toBe(403);
      expect(((await platform.json()) as { detail: string }).detail).toMatch(/user\.manage on all clusters/);
      const onCluster = await post({
        provider: 'test-idp',
        group: `g-${uniq()}`,
        permission_key: 'cluster.update',
        cluster_id: cluster,
      });
      expect(onCluster.status).toBe(403);
      expect(((await onCluster.json()) as { detail: string }).detail).toMatch(/cluster\.update on this cluster/);
      expect(await t.knex<GroupMappingRecord>('sso_group_mappings').where({ created_by: manager.id })).toHaveLength(0);
      // What the author holds, it may map.
      const held = await post({
        provider: 'test-idp',
        group: `g-${uniq()}`,
        permission_key: 'cluster.read',
        cluster_id: cluster,
      });
      expect(held.status).toBe(201);
      expect(await held.json()).toMatchObject({
        permission_key: 'cluster.read',
        cluster_id: cluster,
        grants_fully: true,
        not_granting_reason: null,
      });
    });

    it('when a mapping’s author loses the key, then the next new account does not get it, the skip is audited, and the list says the mapping no longer grants', async () => {
      const cluster = (await aCluster(t)).id;
      const group = `shrinking-${uniq()}`;
      const author = await aUser(t, {}, [
        ['grant.manage', null],
        ['cluster.read', cluster],
      ]);
      const token = await t.login(author.username, FACTORY_PASSWORD);
      const byAuthor = await t.fetch('/api-system/sso/group-mappings', {
        method: 'POST',
        token,
        json: { provider: 'test-idp', group, permission_key: 'cluster.read', cluster_id: cluster },
      });
      expect(byAuthor.status).toBe(201);
      const { id: shrunk } = (await byAuthor.json()) as { id: string };
      const byAdmin = await t.fetch('/api-system/sso/group-mappings', {
        method: 'POST',
        token: admin,
        json: { provider: 'test-idp', group, permission_key: 'cluster.update', cluster_id: cluster },
      });
      const { id: kept } = (await byAdmin.json()) as { id: string };

      await t
        .knex<GrantRecord>('permission_grants')
        .where({ user_id: author.id, permission_key: 'cluster.read' })
        .delete();

      const list = await mappingsList();
      expect(list.find((m) => m.id === kept)).toMatchObject({ grants_fully: true, not_granting_reason: null });
      const stale = list.find((m) => m.id === shrunk)!;
      expect(stale.grants_fully).toBe(false);
      expect(stale.not_granting_reason).toMatch(new RegExp(`${author.username}.*cluster\\.read on this cluster`));

      const { sub, email } = person({ groups: [group] });
      expect((await signIn(sub)).get('sso_code')).toBeTruthy();
      const account = (await accountOf(email))!;
      expect(await keysOf(account.id)).toEqual([`cluster.update@${cluster}`]);
      const provisioned = (await t
        .knex<AuditEventRecord>('audit_events')
        .where({ target_id: account.id, action: 'completeSsoSignIn' })
        .first())!;
      expect(provisioned.changes.grants?.after).toEqual([`cluster.update@${cluster}`]);
      expect(JSON.stringify(provisioned.changes.grants_skipped?.after)).toMatch(/cluster\.read/);

      // A deactivated author grants nothing either.
      await t
        .knex<GrantRecord>('permission_grants')
        .insert({ user_id: author.id, permission_key: 'cluster.read', cluster_id: cluster });
      expect((await mappingsList()).find((m) => m.id === shrunk)!.grants_fully).toBe(true);
      await t.knex<UserRecord>('users').where({ id: author.id }).update({ is_active: false });
      expect((await mappingsList()).find((m) => m.id === shrunk)).toMatchObject({
        grants_fully: false,
        not_granting_reason: stringMatching(/deactivated/),
      });
    });
  });

  describe('linking an existing account', () => {
    it('when the provider is not configured to link, then a sign-in with an existing account’s verified email is refused and nothing is linked', async () => {
      const { sub, email } = person();
      const existing = await aUser(t, { email });
      const url = await atProvider(sub, 'assumed');
      expect(loginPageOf(await callback(url)).get('sso_error')).toBe('not_linked');
      expect(await identitiesOf(existing.id)).toHaveLength(0);
      expect(await sessionsOf(existing.id)).toBe(0);
    });

    it.each([
      ['a super admin', [] as Array<[string, string | null]>, true],
      ['an account holding a key on all clusters', [['cluster.read', null]] as Array<[string, string | null]>, false],
    ])(
      'when the account is %s, then it is never linked, and the refusal is audited',
      async (_label, keys, superAdmin) => {
        const { sub, email } = person();
        const existing = await aUser(t, { email, is_super_admin: superAdmin }, keys);
        expect((await signIn(sub)).get('sso_error')).toBe('link_refused');
        expect(await identitiesOf(existing.id)).toHaveLength(0);
        expect(await sessionsOf(existing.id)).toBe(0);
        const refused = (await t
          .knex<AuditEventRecord>('audit_events')
          .where({ action: 'login.failed', target_type: 'user', target_id: existing.id })
          .first())!;
        expect(refused.changes).toMatchObject({
          provider: { after: 'test-idp' },
          subject: { after: sub },
          reason: { after: 'link_refused' },
        });
      },
    );

    it('when an account is linked, then the link is audited with the identity, even if the one-time code is never exchanged', async () => {
      const cluster = (await aCluster(t)).id;
      const { sub, email } = person();
      const existing = await aUser(t, { email }, [['cluster.read', cluster]]);
      expect((await signIn(sub)).get('sso_code')).toBeTruthy();
      expect(await identitiesOf(existing.id)).toHaveLength(1);
      const linked = (await t
        .knex<AuditEventRecord>('audit_events')
        .where({ action: 'completeSsoSignIn', target_type: 'user', target_id: existing.id })
        .first())!;
      expect(linked.changes).toMatchObject({
        provider: { before: null, after: 'test-idp' },
        subject: { before: null, after: sub },
        linked_email: { before: null, after: email },
      });
    });
  });

  describe('the sign-in is bound to the browser that started it', () => {
    it('sets the state cookie HttpOnly and SameSite=Lax, for the callback only', async () => {
      const res = await start();
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sso_state='))!;
      expect(cookie).toBeTruthy();
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).toMatch(/; Path=\/api\/auth\/sso\/test-idp\/callback/);
    });

    it.each([
      ['without the state cookie', null],
      ['with the cookie of another sign-in (the attacker’s link opened in the victim’s browser)', 'other'],
    ])('when the callback comes %s, then it is refused: no session, no identity, no account', async (_label, which) => {
      const victim = person();
      await atProvider(victim.sub);
      const victimCookie = [...browser.values()].at(-1)!;
      // The attacker signs in at the provider as itself, and sends the callback to the victim.
      const { sub, email } = person();
      const existing = await aUser(t, { email });
      const url = await atProvider(sub);
      expect(loginPageOf(await callback(url, { cookie: which === null ? null : victimCookie })).get('sso_error')).toBe(
        'state',
      );
      expect(await identitiesOf(existing.id)).toHaveLength(0);
      expect(await sessionsOf(existing.id)).toBe(0);
      // The JIT case alike: no account is made.
      const newcomer = person();
      const jit = await atProvider(newcomer.sub);
      expect(loginPageOf(await callback(jit, { cookie: which === null ? null : victimCookie })).get('sso_error')).toBe(
        'state',
      );
      expect(await accountOf(newcomer.email)).toBeUndefined();
    });
  });

  it('when a new account’s email local part is another account’s email or username, then its username is made different', async () => {
    const { sub, email } = person();
    const base = email.split('@')[0]!;
    // An older account whose email is the bare name (as imported data may hold), and one whose username is the next candidate.
    await t.knex<UserRecord>('users').insert({ username: `old-${uniq()}`, email: base, password_hash: 'x' });
    await t
      .knex<UserRecord>('users')
      .insert({ username: `${base}2`, email: `${uniq()}@elsewhere.example`, password_hash: 'x' });
    expect((await signIn(sub)).get('sso_code')).toBeTruthy();
    expect((await accountOf(email))?.username).toBe(`${base}3`);
  });

  describe('how a single sign-on authenticated is kept on its session (the provider’s amr)', () => {
    /** Signs `sub` in through the provider and exchanges the code: the new session's id and its access token. */
    const ssoSession = async (sub: string) => {
      const code = (await signIn(sub)).get('sso_code')!;
      const { access_token } = await bodyOf<{ access_token: string }>(await exchange(code), 200);
      const sid = (JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
      const row = (await t
        .knex('sessions')
        .select('methods', 'sso_amr', 'second_factor_at', 'sso_provider')
        .where({ id: sid })
        .first()) as { methods: string[]; sso_amr: string[] | null; second_factor_at: Date | null };
      return { sid, access_token, row };
    };

    it('when the provider says it asked for a second factor (amr otp), then the session records the amr, the method sso and a second factor at sign-in, and My sessions shows them', async () => {
      const { sub } = person();
      idp.accounts.get(sub)!.amr = ['pwd', 'otp'];
      const { sid, access_token, row } = await ssoSession(sub);
      expect(row).toMatchObject({ methods: ['sso'], sso_amr: ['pwd', 'otp'], sso_provider: 'test-idp' });
      expect(row.second_factor_at).not.toBeNull();
      const mine = await bodyOf<{ data: Array<Record<string, unknown>> }>(
        await t.fetch('/api-system/me/sessions', { token: access_token }),
        200,
      );
      expect(mine.data).toEqual([
        expect.objectContaining({
          id: sid,
          current: true,
          methods: ['sso'],
          sso_provider: 'test-idp',
          second_factor_at: stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        }),
      ]);
    });

    it('when the provider says a password alone, or sends no amr, then the session has no second factor', async () => {
      const withPassword = person();
      idp.accounts.get(withPassword.sub)!.amr = ['pwd'];
      const first = await ssoSession(withPassword.sub);
      expect(first.row).toMatchObject({ methods: ['sso'], sso_amr: ['pwd'], second_factor_at: null });
      const silent = person();
      expect((await ssoSession(silent.sub)).row).toMatchObject({
        methods: ['sso'],
        sso_amr: null,
        second_factor_at: null,
      });
    });

    it('when the amr is long or holds values that are not short strings, then at most ten short ones are kept', async () => {
      const { sub } = person();
      const many = Array.from({ length: 12 }, (_, i) => `m${i}`);
      idp.accounts.get(sub)!.amr = ['x'.repeat(33), ...many];
      const { row } = await ssoSession(sub);
      expect(row.sso_amr).toEqual(many.slice(0, 10));
      expect(row.second_factor_at).toBeNull();
      // A value the provider's claim types would not allow, sent by a tampered token, is left out too.
      const other = person();
      idp.tamper.idToken = (claims) => ({ claims: { ...claims, amr: ['hwk', 7, { mfa: true }] } });
      const tampered = await ssoSession(other.sub);
      expect(tampered.row.sso_amr).toEqual(['hwk']);
      expect(tampered.row.second_factor_at).not.toBeNull();
    });
  });

  describe('the single sign-on settings of an account follow the delegation rule', () => {
    it('when a user.manage holder changes those of a super admin or of an account holding more than it, then 403; of one it covers, 200', async () => {
      const cluster = (await aCluster(t)).id;
      const helpdesk = await aUser(t, {}, [
        ['user.manage', null],
        ['user.read', null],
      ]);
      const token = await t.login(helpdesk.username, FACTORY_PASSWORD);
      const put = (id: string) =>
        t.fetch(`/api-system/users/${id}/sso`, { method: 'PUT', token, json: { sso_only: false } });
      const superAdmin = await aUser(t, { is_super_admin: true });
      const refusedSuper = await put(superAdmin.id);
      expect(refusedSuper.status).toBe(403);
      expect(((await refusedSuper.json()) as { detail: string }).detail).toMatch(/single sign-on settings/);
      const operator = await aUser(t, {}, [['cluster.update', cluster]]);
      const refused = await put(operator.id);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/cluster\.update/);
      const peer = await aUser(t, {}, [['user.read', null]]);
      expect((await put(peer.id)).status).toBe(200);
      // A super admin may.
      expect(
        (
          await t.fetch(`/api-system/users/${operator.id}/sso`, {
            method: 'PUT',
            token: admin,
            json: { sso_only: false },
          })
        ).status,
      ).toBe(200);
      expect(
        (await t.fetch(`/api-system/users/${randomUUID()}/sso`, { method: 'PUT', token, json: { sso_only: false } }))
          .status,
      ).toBe(404);
    });
  });
});
