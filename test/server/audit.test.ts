// The audit trail: every write of the contract leaves exactly one event, in the same transaction, naming its target;
// the trail is append-only and each caller reads only the events of the clusters it may read.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import { wellFormedPng } from '../support/images.js';
import { hashRefreshToken } from '../../server/src/modules/auth/tokens.js';
import { aBusinessUnit, aCluster, aClusterMembership, aMapping, aUser, FACTORY_PASSWORD } from '../support/factory.js';
import type {
  AuditEventRecord,
  BusinessUnitMemberRecord,
  GrantRecord,
  IdentityRecord,
  LoginAttemptRecord,
  SessionRecord,
  UserRecord,
} from '../support/records.js';
import { Secret, TOTP } from 'otpauth';
import { softAuthenticator, type CreationOptions, type RequestOptions } from '../support/soft-authenticator.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { snapshotAudited, unrecordedChanges } from './support/row-changes.js';

interface Call {
  method: string;
  path: string;
  json?: unknown;
  upload?: string;
  /** The uploaded file, when it is not a PNG. */
  file?: { bytes: Buffer; name: string; type: string };
  token?: string | null;
  /** The event's target; `id: undefined` means "the id the response names", `written` the id of the row the call wrote. */
  target: { type: string; id?: string | null; written?: () => Promise<string> };
  /** The event's action when it is not the operation's own: a bulk action records each row's single-row event. */
  action?: string;
}

/** A public address (TEST-NET-3) the webhooks' guard accepts; no dispatcher runs here, so nothing is sent to it. */
const AUDIT_WEBHOOK_URL = 'https://203.0.113.10/hooks/audit';
const newWebhook = { url: AUDIT_WEBHOOK_URL, event_types: ['updateCluster'] };

/** A single sign-on provider for the mappings (nothing answers at its issuer; the flows are in sso.test.ts). */
const AUDIT_PROVIDER = {
  id: 'audit-idp',
  display_name: 'Audit IdP',
  issuer: 'http://127.0.0.1:9',
  client_id: 'audit',
  client_secret: 'audit',
};

const PASSKEY_RP_ID = 'admin.example.test';
const PASSKEY_ORIGIN = `https://${PASSKEY_RP_ID}`;

describe.each(engines())('audit trail on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let adminId: string;
  const uniq = () => randomUUID().slice(0, 6).toUpperCase();

  beforeAll(async () => {
    t = await startTestServer(engine, {
      env: {
        OIDC_PROVIDERS: JSON.stringify([AUDIT_PROVIDER]),
        WEBAUTHN_RP_ID: PASSKEY_RP_ID,
        WEBAUTHN_ORIGINS: PASSKEY_ORIGIN,
      },
    });
    admin = await t.login('admin');
    adminId = (
      (await (await t.fetch('/api/user/permission/platform', { token: admin })).json()) as { user: { id: string } }
    ).user.id;
  });
  afterAll(() => t?.close());

  const post = async <T>(path: string, json: unknown, token = admin): Promise<T> => {
    const res = await t.fetch(path, { method: 'POST', token, json });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as T;
  };
  const someUser = async () =>
    (
      (await (await t.fetch('/api-system/user?search=john', { token: admin })).json()) as {
        data: Array<{ id: string }>;
      }
    ).data[0]!.id;
  const template = async () =>
    (
      (await (await t.fetch('/api-system/report-templates?perpage=1', { token: admin })).json()) as {
        data: Array<{ id: string }>;
      }
    ).data[0]!.id;
  const newWidget = async () => {
    await t.knex('dashboard_widgets').where({ user_id: adminId, dataset_id: 'tenancy.active-clusters' }).delete();
    return post<{ id: string }>('/api/proxy/api/me/dashboard-widgets', {
      dataset_id: 'tenancy.active-clusters',
      widget_type: 'kpi',
    });
  };
  /** Signs the account in: its access token and the id of the session it opened. */
  const signIn = async (username: string) => {
    const { access_token } = await post<{ access_token: string }>(
      '/api/auth/login',
      { username, password: FACTORY_PASSWORD },
      '',
    );
    const sessions = (await (await t.fetch('/api-system/me/sessions', { token: access_token })).json()) as {
      data: Array<{ id: string; current: boolean }>;
    };
    return { token: access_token, sessionId: sessions.data.find((s) => s.current)?.id };
  };
  const refreshToken = async () =>
    (await post<{ refresh_token: string }>('/api/auth/login', { username: 'viewer', password: 'demo1234' }, ''))
      .refresh_token;

  /** A removal of an image the record holds: uploaded first, so the removal changes the row. */
  const removalOf = async (resource: 'clusters' | 'business-units', id: string, field: 'logo' | 'avatar') => {
    const uploaded = await t.upload(`/api-system/${resource}/${id}/${field}`, field, wellFormedPng(), 'a.png', admin);
    expect(uploaded.status).toBe(200);
    const type = resource === 'clusters' ? 'cluster' : 'business_unit';
    return { method: 'DELETE', path: `/api-system/${resource}/${id}/${field}`, target: { type, id } } satisfies Call;
  };

  /** The code an authenticator app shows for `secret`, `steps` periods from now (one step of drift is accepted). */
  const codeOf = (secret: string, steps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6, algorithm: 'SHA1' }).generate({
      timestamp: Date.now() + steps * 30_000,
    });
  /** A new account with a confirmed authenticator app, signed in with its password only (so asked for a step-up). */
  const withTotp = async () => {
    const a = await aUser(t);
    const { token, sessionId } = await signIn(a.username);
    const { secret } = await post<{ secret: string }>('/api-system/me/second-factors/totp', {}, token);
    const { recovery_codes } = await post<{ recovery_codes: string[] }>(
      '/api-system/me/second-factors/totp/confirm',
      { code: codeOf(secret) },
      token,
    );
    return { ...a, token, sessionId, secret, recoveryCodes: recovery_codes };
  };
  /** Confirms it is the account: its session may then do what needs a step-up. */
  const steppedUp = async (a: Awaited<ReturnType<typeof withTotp>>) => {
    await post('/api-system/me/step-up', { method: 'recovery_code', code: a.recoveryCodes.pop() }, a.token);
    return a;
  };

  /** A passkey registration of the signed-in account, up to its answer (the call that stores it is the caller's). */
  const passkeyAnswer = async (token: string, authenticator = softAuthenticator()) => {
    const challenge = await post<{ challenge_id: string; options: CreationOptions }>(
      '/api-system/me/second-factors/passkeys/options',
      {},
      token,
    );
    return {
      authenticator,
      json: {
        challenge_id: challenge.challenge_id,
        name: 'Office laptop',
        response: authenticator.register(challenge.options, PASSKEY_ORIGIN),
      },
    };
  };

  /** For each write of the contract: the request that succeeds, and the target its one event must name. */
  const WRITES: Record<string, () => Promise<Call>> = {
    login: async () => ({
      method: 'POST',
      path: '/api/auth/login',
      json: { username: 'viewer', password: 'demo1234' },
      token: null,
      target: { type: 'session' },
    }),
    refreshToken: async () => ({
      method: 'POST',
      path: '/api/auth/refresh-token',
      json: { refresh_token: await refreshToken() },
      token: null,
      target: { type: 'session' },
    }),
    logout: async () => ({
      method: 'POST',
      path: '/api/auth/logout',
      json: { refresh_token: await refreshToken() },
      token: null,
      target: { type: 'session' },
    }),
    logoutSso: async () => ({
      method: 'POST',
      path: '/api/auth/sso/logout',
      json: { refresh_token: await refreshToken() },
      token: null,
      target: { type: 'session' },
      action: 'logout',
    }),
    // A single sign-on the callback finished (its session and one-time code, straight in the database) completes here.
    exchangeSsoCode: async () => {
      const a = await aUser(t);
      const sessionId = randomUUID();
      const code = `${randomUUID()}${randomUUID()}`.replace(/-/g, '');
      await t.knex<SessionRecord>('sessions').insert({
        id: sessionId,
        user_id: a.id,
        expires_at: t.knex.raw("now() + interval '1 day'"),
        sso_provider: AUDIT_PROVIDER.id,
      });
      await t.knex('sso_handoffs').insert({
        code_hash: hashRefreshToken(code),
        user_id: a.id,
        session_id: sessionId,
        provider: AUDIT_PROVIDER.id,
        subject: 'audit',
        expires_at: t.knex.raw("now() + interval '1 minute'"),
      });
      return {
        method: 'POST',
        path: '/api/auth/sso/exchange',
        json: { code },
        token: null,
        target: { type: 'session', id: sessionId },
        action: 'login',
      };
    },
    createSsoGroupMapping: async () => ({
      method: 'POST',
      path: '/api-system/sso/group-mappings',
      json: { provider: AUDIT_PROVIDER.id, group: `g-${uniq()}`, permission_key: 'cluster.read' },
      target: { type: 'sso_group_mapping' },
    }),
    deleteSsoGroupMapping: async () => {
      const m = await post<{ id: string }>('/api-system/sso/group-mappings', {
        provider: AUDIT_PROVIDER.id,
        group: `g-${uniq()}`,
        permission_key: 'cluster.read',
      });
      return {
        method: 'DELETE',
        path: `/api-system/sso/group-mappings/${m.id}`,
        target: { type: 'sso_group_mapping', id: m.id },
      };
    },
    setUserSsoOnly: async () => {
      const a = await aUser(t);
      await t
        .knex<IdentityRecord>('user_identities')
        .insert({ user_id: a.id, provider: AUDIT_PROVIDER.id, subject: `s-${uniq()}` });
      return {
        method: 'PUT',
        path: `/api-system/users/${a.id}/sso`,
        json: { sso_only: true },
        target: { type: 'user', id: a.id },
      };
    },
    createCluster: async () => ({
      method: 'POST',
      path: '/api-system/clusters',
      json: { code: `AU-${uniq()}`, name: 'New' },
      target: { type: 'cluster' },
    }),
    updateCluster: async () => {
      const c = await aCluster(t);
      return {
        method: 'PUT',
        path: `/api-system/clusters/${c.id}`,
        json: { code: `AU-${uniq()}`, name: 'Renamed' },
        target: { type: 'cluster', id: c.id },
      };
    },
    deleteCluster: async () => {
      const c = await aCluster(t);
      return { method: 'DELETE', path: `/api-system/clusters/${c.id}`, target: { type: 'cluster', id: c.id } };
    },
    restoreCluster: async () => {
      const c = await aCluster(t);
      await t.fetch(`/api-system/clusters/${c.id}`, { method: 'DELETE', token: admin });
      return { method: 'POST', path: `/api-system/clusters/${c.id}/restore`, target: { type: 'cluster', id: c.id } };
    },
    bulkClusters: async () => {
      const c = await aCluster(t);
      return {
        method: 'POST',
        path: '/api-system/clusters/bulk',
        json: { action: 'deactivate', ids: [c.id] },
        target: { type: 'cluster', id: c.id },
        action: 'updateCluster',
      };
    },
    uploadClusterLogo: async () => {
      const c = await aCluster(t);
      return {
        method: 'POST',
        path: `/api-system/clusters/${c.id}/logo`,
        upload: 'logo',
        target: { type: 'cluster', id: c.id },
      };
    },
    uploadClusterAvatar: async () => {
      const c = await aCluster(t);
      return {
        method: 'POST',
        path: `/api-system/clusters/${c.id}/avatar`,
        upload: 'avatar',
        target: { type: 'cluster', id: c.id },
      };
    },
    createBusinessUnit: async () => ({
      method: 'POST',
      path: '/api-system/business-units',
      json: { cluster_id: (await aCluster(t)).id, code: `AU-${uniq()}`, name: 'New BU' },
      target: { type: 'business_unit' },
    }),
    updateBusinessUnit: async () => {
      const b = await aBusinessUnit(t);
      return {
        method: 'PUT',
        path: `/api-system/business-units/${b.id}`,
        json: { cluster_id: b.cluster_id, code: b.code, name: 'Renamed BU' },
        target: { type: 'business_unit', id: b.id },
      };
    },
    bulkBusinessUnits: async () => {
      const b = await aBusinessUnit(t);
      return {
        method: 'POST',
        path: '/api-system/business-units/bulk',
        json: { action: 'delete', ids: [b.id] },
        target: { type: 'business_unit', id: b.id },
        action: 'deleteBusinessUnit',
      };
    },
    deleteBusinessUnit: async () => {
      const b = await aBusinessUnit(t);
      return {
        method: 'DELETE',
        path: `/api-system/business-units/${b.id}`,
        target: { type: 'business_unit', id: b.id },
      };
    },
    restoreBusinessUnit: async () => {
      const b = await aBusinessUnit(t);
      await t.fetch(`/api-system/business-units/${b.id}`, { method: 'DELETE', token: admin });
      return {
        method: 'POST',
        path: `/api-system/business-units/${b.id}/restore`,
        target: { type: 'business_unit', id: b.id },
      };
    },
    uploadBusinessUnitLogo: async () => {
      const b = await aBusinessUnit(t);
      return {
        method: 'POST',
        path: `/api-system/business-units/${b.id}/logo`,
        upload: 'logo',
        target: { type: 'business_unit', id: b.id },
      };
    },
    uploadBusinessUnitAvatar: async () => {
      const b = await aBusinessUnit(t);
      return {
        method: 'POST',
        path: `/api-system/business-units/${b.id}/avatar`,
        upload: 'avatar',
        target: { type: 'business_unit', id: b.id },
      };
    },
    deleteClusterLogo: async () => removalOf('clusters', (await aCluster(t)).id, 'logo'),
    deleteClusterAvatar: async () => removalOf('clusters', (await aCluster(t)).id, 'avatar'),
    deleteBusinessUnitLogo: async () => removalOf('business-units', (await aBusinessUnit(t)).id, 'logo'),
    deleteBusinessUnitAvatar: async () => removalOf('business-units', (await aBusinessUnit(t)).id, 'avatar'),
    importMemberships: async () => {
      const b = await aBusinessUnit(t);
      const user = await aUser(t);
      // A unit takes its members from its cluster's users: the account is one first.
      await aClusterMembership(t, { user_id: user.id, cluster_id: b.cluster_id });
      const written = async () =>
        (await t
          .knex<BusinessUnitMemberRecord>('bu_users')
          .where({ user_id: user.id, business_unit_id: b.id })
          .first('id'))!.id;
      const file = {
        bytes: Buffer.from(`user,business_unit\n${user.username},${b.code}\n`),
        name: 'members.csv',
        type: 'text/csv',
      };
      return {
        method: 'POST',
        path: '/api-system/memberships/import',
        upload: 'file',
        file,
        target: { type: 'business_unit_user', written },
        action: 'addBusinessUnitUser',
      };
    },
    addClusterUser: async () => ({
      method: 'POST',
      path: '/api-system/user/clusters',
      json: { user_id: await someUser(), cluster_id: (await aCluster(t)).id, role: 'user', is_active: true },
      target: { type: 'cluster_user' },
    }),
    updateClusterUser: async () => {
      const m = await post<{ id: string }>('/api-system/user/clusters', {
        user_id: await someUser(),
        cluster_id: (await aCluster(t)).id,
        role: 'user',
        is_active: true,
      });
      return {
        method: 'PUT',
        path: `/api-system/user/clusters/${m.id}`,
        json: { role: 'admin' },
        target: { type: 'cluster_user', id: m.id },
      };
    },
    removeClusterUser: async () => {
      const m = await post<{ id: string }>('/api-system/user/clusters', {
        user_id: await someUser(),
        cluster_id: (await aCluster(t)).id,
        role: 'user',
        is_active: true,
      });
      return {
        method: 'DELETE',
        path: `/api-system/user/clusters/${m.id}`,
        target: { type: 'cluster_user', id: m.id },
      };
    },
    addBusinessUnitUser: async () => ({
      method: 'POST',
      path: '/api-system/user/business-units',
      json: { user_id: await someUser(), business_unit_id: (await aBusinessUnit(t)).id, role: 'user' },
      target: { type: 'business_unit_user' },
    }),
    updateBusinessUnitUser: async () => {
      const m = await post<{ id: string }>('/api-system/user/business-units', {
        user_id: await someUser(),
        business_unit_id: (await aBusinessUnit(t)).id,
        role: 'user',
      });
      return {
        method: 'PATCH',
        path: `/api-system/user/business-units/${m.id}`,
        json: { role: 'admin' },
        target: { type: 'business_unit_user', id: m.id },
      };
    },
    removeBusinessUnitUser: async () => {
      const m = await post<{ id: string }>('/api-system/user/business-units', {
        user_id: await someUser(),
        business_unit_id: (await aBusinessUnit(t)).id,
        role: 'user',
      });
      return {
        method: 'DELETE',
        path: `/api-system/user/business-units/${m.id}`,
        target: { type: 'business_unit_user', id: m.id },
      };
    },
    createPrintTemplateMapping: async () => ({
      method: 'POST',
      path: '/api-system/print-template-mappings',
      json: { document_type: 'IA', report_template_id: await template(), is_default: false },
      target: { type: 'print_template_mapping' },
    }),
    updatePrintTemplateMapping: async () => {
      const m = await aMapping(t);
      return {
        method: 'PUT',
        path: `/api-system/print-template-mappings/${m.id}`,
        json: { display_label: 'Audited' },
        target: { type: 'print_template_mapping', id: m.id },
      };
    },
    bulkPrintTemplateMappings: async () => {
      const m = await aMapping(t);
      return {
        method: 'POST',
        path: '/api-system/print-template-mappings/bulk',
        json: { action: 'deactivate', ids: [m.id] },
        target: { type: 'print_template_mapping', id: m.id },
        action: 'updatePrintTemplateMapping',
      };
    },
    deletePrintTemplateMapping: async () => {
      const m = await aMapping(t);
      return {
        method: 'DELETE',
        path: `/api-system/print-template-mappings/${m.id}`,
        target: { type: 'print_template_mapping', id: m.id },
      };
    },
    createWidget: async () => {
      await t.knex('dashboard_widgets').where({ user_id: adminId, dataset_id: 'users.by-role' }).delete();
      return {
        method: 'POST',
        path: '/api/proxy/api/me/dashboard-widgets',
        json: { dataset_id: 'users.by-role', widget_type: 'pie' },
        target: { type: 'widget' },
      };
    },
    updateWidget: async () => {
      const w = await newWidget();
      return {
        method: 'PATCH',
        path: `/api/proxy/api/me/dashboard-widgets/${w.id}`,
        json: { title: 'Audited' },
        target: { type: 'widget', id: w.id },
      };
    },
    deleteWidget: async () => {
      const w = await newWidget();
      return {
        method: 'DELETE',
        path: `/api/proxy/api/me/dashboard-widgets/${w.id}`,
        target: { type: 'widget', id: w.id },
      };
    },
    createUser: async () => {
      const username = `au-${uniq().toLowerCase()}`;
      return {
        method: 'POST',
        path: '/api-system/users',
        json: { username, email: `${username}@example.com`, password: FACTORY_PASSWORD },
        target: { type: 'user' },
      };
    },
    updateUser: async () => {
      const a = await aUser(t);
      return {
        method: 'PUT',
        path: `/api-system/users/${a.id}`,
        json: {
          username: a.username,
          email: `${a.username}@example.com`,
          firstname: 'Audited',
          middlename: null,
          lastname: null,
        },
        target: { type: 'user', id: a.id },
      };
    },
    bulkUsers: async () => {
      const a = await aUser(t);
      return {
        method: 'POST',
        path: '/api-system/users/bulk',
        json: { action: 'deactivate', ids: [a.id] },
        target: { type: 'user', id: a.id },
        action: 'deactivateUser',
      };
    },
    deactivateUser: async () => {
      const a = await aUser(t);
      return { method: 'POST', path: `/api-system/users/${a.id}/deactivate`, target: { type: 'user', id: a.id } };
    },
    reactivateUser: async () => {
      const a = await aUser(t);
      await t.knex<UserRecord>('users').where({ id: a.id }).update({ is_active: false });
      return { method: 'POST', path: `/api-system/users/${a.id}/reactivate`, target: { type: 'user', id: a.id } };
    },
    resetUserPassword: async () => {
      const a = await aUser(t);
      return {
        method: 'POST',
        path: `/api-system/users/${a.id}/password-reset`,
        json: { password: 'Reset-Andaman-2026' },
        target: { type: 'user', id: a.id },
      };
    },
    unlockUser: async () => {
      const a = await aUser(t);
      await t.knex<LoginAttemptRecord>('login_attempts').insert({
        account_key: a.id,
        client: '203.0.113.7',
        failed_count: 6,
        delayed_until: t.knex.raw("now() + interval '5 minutes'"),
      });
      return { method: 'POST', path: `/api-system/users/${a.id}/unlock`, target: { type: 'user', id: a.id } };
    },
    revokeSuperAdmin: async () => {
      const a = await aUser(t, { is_super_admin: true });
      return { method: 'DELETE', path: `/api-system/users/${a.id}/super-admin`, target: { type: 'user', id: a.id } };
    },
    addUserGrant: async () => {
      const a = await aUser(t);
      return {
        method: 'POST',
        path: `/api-system/users/${a.id}/grants`,
        json: { permission_key: 'cluster.read', cluster_id: (await aCluster(t)).id },
        target: { type: 'user', id: a.id },
      };
    },
    removeUserGrant: async () => {
      const a = await aUser(t);
      const g = await post<{ id: string }>(`/api-system/users/${a.id}/grants`, {
        permission_key: 'user.read',
        cluster_id: null,
      });
      return { method: 'DELETE', path: `/api-system/users/${a.id}/grants/${g.id}`, target: { type: 'user', id: a.id } };
    },
    changeMyPassword: async () => {
      const a = await aUser(t);
      const { token } = await signIn(a.username);
      return {
        method: 'PUT',
        path: '/api-system/me/password',
        json: { current_password: FACTORY_PASSWORD, new_password: 'Phuket-Lagoon-Morning-7' },
        token,
        target: { type: 'user', id: a.id },
      };
    },
    revokeMySession: async () => {
      const a = await aUser(t);
      const other = await signIn(a.username);
      const { token } = await signIn(a.username);
      return {
        method: 'DELETE',
        path: `/api-system/me/sessions/${other.sessionId}`,
        token,
        target: { type: 'session', id: other.sessionId },
      };
    },
    revokeMyOtherSessions: async () => {
      const a = await aUser(t);
      await signIn(a.username);
      const { token } = await signIn(a.username);
      return {
        method: 'POST',
        path: '/api-system/me/sessions/revoke-others',
        token,
        target: { type: 'user', id: a.id },
      };
    },
    revokeUserSession: async () => {
      const a = await aUser(t);
      const { sessionId } = await signIn(a.username);
      return {
        method: 'DELETE',
        path: `/api-system/users/${a.id}/sessions/${sessionId}`,
        target: { type: 'session', id: sessionId! },
      };
    },
    confirmTotpEnrolment: async () => {
      const a = await aUser(t);
      const { token } = await signIn(a.username);
      const { secret } = await post<{ secret: string }>('/api-system/me/second-factors/totp', {}, token);
      return {
        method: 'POST',
        path: '/api-system/me/second-factors/totp/confirm',
        json: { code: codeOf(secret) },
        token,
        target: { type: 'user', id: a.id },
      };
    },
    removeTotp: async () => {
      const a = await steppedUp(await withTotp());
      return {
        method: 'DELETE',
        path: '/api-system/me/second-factors/totp',
        token: a.token,
        target: { type: 'user', id: a.id },
      };
    },
    regenerateRecoveryCodes: async () => {
      const a = await steppedUp(await withTotp());
      return {
        method: 'POST',
        path: '/api-system/me/second-factors/recovery-codes',
        token: a.token,
        target: { type: 'user', id: a.id },
      };
    },
    stepUp: async () => {
      const a = await withTotp();
      return {
        method: 'POST',
        path: '/api-system/me/step-up',
        json: { method: 'recovery_code', code: a.recoveryCodes.pop() },
        token: a.token,
        target: { type: 'session', id: a.sessionId },
      };
    },
    verifySecondFactor: async () => {
      const a = await withTotp();
      const res = await t.fetch('/api/auth/login', {
        method: 'POST',
        json: { username: a.username, password: FACTORY_PASSWORD },
      });
      expect(res.status).toBe(202);
      const { second_factor_token } = (await res.json()) as { second_factor_token: string };
      return {
        method: 'POST',
        path: '/api/auth/second-factor',
        json: { second_factor_token, method: 'recovery_code', code: a.recoveryCodes.pop() },
        token: null,
        action: 'login',
        target: { type: 'session' },
      };
    },
    resetSecondFactors: async () => {
      const a = await withTotp();
      return { method: 'DELETE', path: `/api-system/users/${a.id}/second-factors`, target: { type: 'user', id: a.id } };
    },
    updateSecondFactorPolicy: async () => ({
      method: 'PUT',
      path: '/api-system/second-factor-policy',
      json: { required_for: 'none', sso_sign_ins: 'trusted' },
      target: { type: 'user', id: null },
    }),
    registerPasskey: async () => {
      const a = await aUser(t);
      const { token } = await signIn(a.username);
      const { json } = await passkeyAnswer(token);
      return {
        method: 'POST',
        path: '/api-system/me/second-factors/passkeys',
        json,
        token,
        target: { type: 'user', id: a.id },
      };
    },
    removePasskey: async () => {
      const a = await steppedUp(await withTotp());
      const { json } = await passkeyAnswer(a.token);
      const { passkeys } = await post<{ factors: { passkeys: Array<{ id: string }> } }>(
        '/api-system/me/second-factors/passkeys',
        json,
        a.token,
      ).then((r) => r.factors);
      return {
        method: 'DELETE',
        path: `/api-system/me/second-factors/passkeys/${passkeys[0]!.id}`,
        token: a.token,
        target: { type: 'user', id: a.id },
      };
    },
    signInWithPasskey: async () => {
      const a = await aUser(t);
      const { token } = await signIn(a.username);
      const { json, authenticator } = await passkeyAnswer(token);
      await post('/api-system/me/second-factors/passkeys', json, token);
      const challenge = await post<{ challenge_id: string; options: RequestOptions }>(
        '/api/auth/passkey/options',
        {},
        '',
      );
      return {
        method: 'POST',
        path: '/api/auth/passkey',
        json: {
          challenge_id: challenge.challenge_id,
          response: authenticator.authenticate(challenge.options, PASSKEY_ORIGIN),
        },
        token: null,
        action: 'login',
        target: { type: 'session' },
      };
    },
    revokeUserSessions: async () => {
      const a = await aUser(t);
      await signIn(a.username);
      return {
        method: 'POST',
        path: `/api-system/users/${a.id}/sessions/revoke-all`,
        target: { type: 'user', id: a.id },
      };
    },
    createServiceAccount: async () => ({
      method: 'POST',
      path: '/api-system/service-accounts',
      json: { name: `audit-svc-${uniq().toLowerCase()}` },
      target: { type: 'user' },
    }),
    updateServiceAccount: async () => {
      const sa = await post<{ id: string; name: string }>('/api-system/service-accounts', {
        name: `audit-svc-${uniq().toLowerCase()}`,
      });
      return {
        method: 'PUT',
        path: `/api-system/service-accounts/${sa.id}`,
        json: { name: sa.name, description: 'Point-of-sale sync', is_active: true },
        target: { type: 'user', id: sa.id },
      };
    },
    createApiToken: async () => {
      const sa = await post<{ id: string }>('/api-system/service-accounts', {
        name: `audit-svc-${uniq().toLowerCase()}`,
      });
      return {
        method: 'POST',
        path: `/api-system/service-accounts/${sa.id}/tokens`,
        json: { name: 'sync', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
        target: { type: 'api_token' },
      };
    },
    revokeApiToken: async () => {
      const sa = await post<{ id: string }>('/api-system/service-accounts', {
        name: `audit-svc-${uniq().toLowerCase()}`,
      });
      const token = await post<{ id: string }>(`/api-system/service-accounts/${sa.id}/tokens`, {
        name: 'sync',
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      return {
        method: 'DELETE',
        path: `/api-system/service-accounts/${sa.id}/tokens/${token.id}`,
        target: { type: 'api_token', id: token.id },
      };
    },
    createWebhook: async () => ({
      method: 'POST',
      path: '/api-system/webhooks',
      json: { url: AUDIT_WEBHOOK_URL, event_types: ['updateCluster'] },
      target: { type: 'webhook' },
    }),
    updateWebhook: async () => {
      const hook = await post<{ id: string }>('/api-system/webhooks', newWebhook);
      return {
        method: 'PATCH',
        path: `/api-system/webhooks/${hook.id}`,
        json: { description: 'ERP' },
        target: { type: 'webhook', id: hook.id },
      };
    },
    deleteWebhook: async () => {
      const hook = await post<{ id: string }>('/api-system/webhooks', newWebhook);
      return { method: 'DELETE', path: `/api-system/webhooks/${hook.id}`, target: { type: 'webhook', id: hook.id } };
    },
    rotateWebhookSecret: async () => {
      const hook = await post<{ id: string }>('/api-system/webhooks', newWebhook);
      return {
        method: 'POST',
        path: `/api-system/webhooks/${hook.id}/rotate-secret`,
        target: { type: 'webhook', id: hook.id },
      };
    },
    redeliverWebhookDelivery: async () => {
      const hook = await post<{ id: string }>('/api-system/webhooks', newWebhook);
      const [delivery] = await t
        .knex('webhook_deliveries')
        .insert({ subscription_id: hook.id, event_id: randomUUID(), status: 'failed' })
        .returning<Array<{ id: string }>>('id');
      return {
        method: 'POST',
        path: `/api-system/webhooks/${hook.id}/deliveries/${delivery!.id}/redeliver`,
        target: { type: 'webhook', id: hook.id },
      };
    },
    // A revert is an edit of the record: its one event is the record's update.
    revertAuditEvent: async () => {
      const c = await aCluster(t);
      await t.fetch(`/api-system/clusters/${c.id}`, { method: 'PUT', token: admin, json: { code: c.code, name: 'X' } });
      const [rename] = await t
        .knex<AuditEventRecord>('audit_events')
        .where({ target_id: c.id, action: 'updateCluster' })
        .select('id');
      return {
        method: 'POST',
        path: `/api-system/audit-events/${rename!.id}/revert`,
        action: 'updateCluster',
        target: { type: 'cluster', id: c.id },
      };
    },
  };

  const writes = operationsOf(loadBundledSpec()).filter((op) => op.method !== 'get');

  /**
   * The writes that record nothing: each hands out a challenge, or a secret still to be confirmed, and changes no row an
   * event would name. What is done with it (a confirmed authenticator, a passkey, a sign-in, a step-up) is recorded.
   */
  const RECORD_NOTHING: Record<string, () => Promise<Call>> = {
    startTotpEnrolment: async () => {
      const a = await aUser(t);
      return {
        method: 'POST',
        path: '/api-system/me/second-factors/totp',
        token: (await signIn(a.username)).token,
        target: { type: 'user', id: a.id },
      };
    },
    passkeyRegistrationOptions: async () => {
      const a = await aUser(t);
      return {
        method: 'POST',
        path: '/api-system/me/second-factors/passkeys/options',
        token: (await signIn(a.username)).token,
        target: { type: 'user', id: a.id },
      };
    },
    passkeySignInOptions: async () => ({
      method: 'POST',
      path: '/api/auth/passkey/options',
      json: {},
      token: null,
      target: { type: 'session' },
    }),
    stepUpPasskeyOptions: async () => {
      const a = await aUser(t);
      const { token } = await signIn(a.username);
      await post('/api-system/me/second-factors/passkeys', (await passkeyAnswer(token)).json, token);
      return { method: 'POST', path: '/api-system/me/step-up/options', token, target: { type: 'session' } };
    },
  };

  it('has a row for every write of the contract (a new operation without one fails here)', () => {
    expect(Object.keys({ ...WRITES, ...RECORD_NOTHING }).sort()).toEqual(writes.map((op) => op.operationId!).sort());
  });

  it.each(Object.keys(RECORD_NOTHING))(
    'when %s succeeds, then no event is recorded and no row an event would name has changed',
    async (operationId) => {
      const call = await RECORD_NOTHING[operationId]!();
      const before = await snapshotAudited(t.knex);
      const res = await t.fetch(call.path, { method: call.method, token: call.token ?? undefined, json: call.json });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      expect(await unrecordedChanges(t.knex, before)).toEqual([]);
      const requestId = res.headers.get('x-request-id')!;
      expect(await t.knex('audit_events').where({ request_id: requestId })).toEqual([]);
    },
  );

  it.each(writes.map((op) => op.operationId!).filter((id) => !(id in RECORD_NOTHING)))(
    'when %s succeeds, then exactly one event records it, with its target and the request it came from',
    async (operationId) => {
      const call = await WRITES[operationId]!();
      const before = await snapshotAudited(t.knex);
      const token = call.token === null ? undefined : (call.token ?? admin);
      const file = call.file ?? { bytes: wellFormedPng(), name: 'a.png', type: 'image/png' };
      const res = call.upload
        ? await t.upload(call.path, call.upload, file.bytes, file.name, token, file.type)
        : await t.fetch(call.path, { method: call.method, token, json: call.json });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      expect(await unrecordedChanges(t.knex, before), 'every row the write changed is named by an event').toEqual([]);
      const requestId = res.headers.get('x-request-id')!;
      const events = await t.knex<AuditEventRecord>('audit_events').where({ request_id: requestId });
      expect(events, operationId).toHaveLength(1);
      const event = events[0]!;
      expect(event.action).toBe(call.action ?? operationId);
      expect(event.target_type).toBe(call.target.type);
      if (call.target.written) expect(event.target_id).toBe(await call.target.written());
      else if (call.target.id !== undefined) expect(event.target_id).toBe(call.target.id);
      else if (call.target.type !== 'session') expect(event.target_id).toBe(((await res.json()) as { id: string }).id);
      if (call.target.type === 'user') expect(event.cluster_id, 'an account belongs to no cluster').toBeNull();
      // How a session signed in (`methods: ["password"]`) names a method, not a password; anything else that does is a leak.
      const changes = JSON.stringify(event.changes).replace(/"methods":\{[^}]*\}/, '');
      expect(changes).not.toMatch(/password|demo1234|refresh_token|\$scrypt/);
    },
  );

  it('when a cluster is renamed, then its History shows who, when, and the name before and after', async () => {
    const c = await post<{ id: string; code: string }>('/api-system/clusters', {
      code: `AU-${uniq()}`,
      name: 'Before',
    });
    await t.fetch(`/api-system/clusters/${c.id}`, {
      method: 'PUT',
      token: admin,
      json: { code: c.code, name: 'After' },
    });
    const res = await t.fetch(`/api-system/audit-events?target_type=cluster&target_id=${c.id}`, { token: admin });
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      data: Array<{
        action: string;
        actor_id: string;
        actor_name: string;
        changes: Record<string, { before: unknown; after: unknown }>;
      }>;
      paginate: { total: number };
    };
    expect(page.paginate.total).toBe(2);
    expect(page.data[0]).toMatchObject({
      action: 'updateCluster',
      actor_id: adminId,
      changes: { name: { before: 'Before', after: 'After' } },
    });
    expect(page.data[0]!.actor_name).toBeTruthy();
    expect(page.data[1]).toMatchObject({
      action: 'createCluster',
      changes: { name: { before: null, after: 'Before' } },
    });
  });

  it("when a caller may read one cluster, then it sees only that cluster's events; events of no cluster need user.read", async () => {
    const editor = await t.login('editor-a');
    const { data } = (await (await t.fetch('/api-system/audit-events?perpage=100', { token: editor })).json()) as {
      data: Array<{ cluster_id: string | null }>;
    };
    const clusterA = (
      (await (await t.fetch('/api-system/clusters?search=CL-A', { token: admin })).json()) as {
        data: Array<{ id: string; code: string }>;
      }
    ).data.find((c) => c.code === 'CL-A')!.id;
    expect(data.every((e) => e.cluster_id === clusterA)).toBe(true);
    const operator = await t.login('operator');
    expect((await t.fetch('/api-system/audit-events', { token: operator })).status).toBe(403);

    // An account event (no cluster) next to a cluster event.
    const account = await aUser(t);
    await post(`/api-system/users/${account.id}/deactivate`, undefined);
    const cluster = await aCluster(t);
    const grantee = async (grants: Array<[string, string | null]>) => {
      const a = await aUser(t);
      await t
        .knex<GrantRecord>('permission_grants')
        .insert(grants.map(([key, clusterId]) => ({ user_id: a.id, permission_key: key, cluster_id: clusterId })));
      return t.tokenFor(a.id);
    };
    const sees = async (token: string) => {
      const byTarget = async (q: string) =>
        ((await (await t.fetch(`/api-system/audit-events?${q}`, { token })).json()) as { paginate: { total: number } })
          .paginate.total;
      return {
        account: await byTarget(`target_type=user&target_id=${account.id}&action=deactivateUser`),
        cluster: await byTarget(`target_type=cluster&target_id=${cluster.id}`),
      };
    };
    // cluster.read on all clusters no longer shows account events …
    expect(await sees(await grantee([['cluster.read', null]]))).toEqual({ account: 0, cluster: 1 });
    // … user.read does, and cluster events still need cluster.read on their cluster.
    expect(
      await sees(
        await grantee([
          ['cluster.read', clusterA],
          ['user.read', null],
        ]),
      ),
    ).toEqual({ account: 1, cluster: 0 });
    expect(
      await sees(
        await grantee([
          ['cluster.read', null],
          ['user.read', null],
        ]),
      ),
    ).toEqual({ account: 1, cluster: 1 });
    expect(await sees(await grantee([['cluster.read', cluster.id]]))).toEqual({ account: 0, cluster: 1 });
  });

  it('when anyone tries to change or delete an event, then the database refuses', async () => {
    await expect(t.knex<AuditEventRecord>('audit_events').update({ action: 'rewritten' })).rejects.toThrow(
      /append-only/,
    );
    await expect(t.knex<AuditEventRecord>('audit_events').delete()).rejects.toThrow(/append-only/);
  });

  it('when a write fails, then no event is left behind (the event is in the same transaction)', async () => {
    const c = await post<{ id: string; code: string }>('/api-system/clusters', { code: `AU-${uniq()}`, name: 'Taken' });
    const clash = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token: admin,
      json: { code: c.code, name: 'Taken' },
    });
    expect(clash.status).toBe(409);
    expect(
      await t.knex<AuditEventRecord>('audit_events').where({ request_id: clash.headers.get('x-request-id')! }),
    ).toHaveLength(0);
  });

  it('when a sign-in fails, then the attempt is recorded without the password', async () => {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username: 'viewer', password: 'wrong-password-123' },
    });
    expect(res.status).toBe(401);
    const [event] = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ request_id: res.headers.get('x-request-id')! });
    expect(event).toMatchObject({ action: 'login.failed', target_type: 'session' });
    expect(JSON.stringify(event)).not.toContain('wrong-password-123');
  });
});
