// Authorization matrix: every operation of the contract × six callers, with the expected status of each cell.
// The table below must name every operationId of the spec (a new operation without a row fails), and its
// permission key must be the operation's `x-permission`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import { hashPassword } from '../../server/src/modules/auth/passwords.js';
import { hashRefreshToken, signAccessToken } from '../../server/src/modules/auth/tokens.js';
import { engines, startTestServer, type TestServer } from '../server/support/index.js';
import { problemViolations } from './support.js';

type Caller = 'anonymous' | 'expired' | 'tampered' | 'noGrant' | 'otherCluster' | 'granted';
const CALLERS: Caller[] = ['anonymous', 'expired', 'tampered', 'noGrant', 'otherCluster', 'granted'];

/** What a cell sends; `expect` may refine the check of the granted/otherCluster answer (e.g. a filtered list). */
interface Call {
  method: string;
  path: string;
  json?: unknown;
  /** A multipart upload: a 1×1 PNG unless the call names its own file. */
  upload?: { field: string; file?: { bytes: Buffer; name: string; type: string } };
  /** The cluster whose grant the `granted` caller holds (undefined: the grant is platform-wide). */
  clusterId?: string;
  check?: (caller: Caller, res: Response, body: unknown) => void;
}

interface Fixture {
  t: TestServer;
  admin: string;
  /** The cluster the granted caller may act on, and one they may not. */
  target: string;
  other: string;
  newCluster(opts?: { deleted?: boolean }): Promise<string>;
  newBusinessUnit(clusterId: string, opts?: { deleted?: boolean }): Promise<string>;
  /** A new account without grants; every such account has the password `MATRIX_PASSWORD`. */
  newUser(opts?: { superAdmin?: boolean }): Promise<string>;
  /** A live session (signed-in device) of the user. */
  session(userId: string): Promise<string>;
  /** An access token of a new session of the user, issued at `now`. */
  token(userId: string, now?: number): Promise<string>;
  clusterMembership(clusterId: string): Promise<string>;
  buMembership(buId: string): Promise<string>;
  mapping(): Promise<string>;
  reportTemplate(): Promise<string>;
  /** The owner is the granted caller of the row. */
  widget(ownerId: string): Promise<string>;
  signedFileUrl(): Promise<string>;
  refreshToken(): Promise<string>;
}

type Scope = 'public' | 'signin' | 'cluster' | 'platform' | 'anywhere';
interface Row {
  /** x-permission of the operation, or null. */
  key: string | null;
  /** public: no token needed; signin: any signed-in user; cluster: the key on the record's cluster;
   *  platform: the key platform-wide; anywhere: the key on some cluster. */
  scope: Scope;
  ok: number;
  /** Status for a signed-in caller without the grant (signin rows: other users, e.g. 404 for someone else's widget). */
  denied?: number;
  /** Status for the caller holding the key on another cluster only. */
  otherCluster?: number;
  /** Build the call again for each caller (single-use inputs such as refresh tokens). */
  fresh?: boolean;
  call(f: Fixture, granted: { id: string }): Promise<Call>;
}

const MATRIX_PASSWORD = 'Matrix-Lagoon-Password-26';
/** TEST-NET-3: a public address by the webhooks' guard, which no test ever sends to (the matrix runs no dispatcher). */
const MATRIX_WEBHOOK_URL = 'https://203.0.113.10/hooks/platform';
/** A single sign-on provider nothing answers for (the flows against a real one are in test/server/sso.test.ts). */
const MATRIX_PROVIDER = {
  id: 'matrix-idp',
  display_name: 'Matrix IdP',
  issuer: 'http://127.0.0.1:9',
  client_id: 'matrix',
  client_secret: 'matrix',
};
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const excludes = (id: string) => (caller: Caller, _res: Response, body: unknown) => {
  const ids = ((body as { data?: Array<{ id: string; cluster_id?: string }> }).data ?? []).flatMap((r) => [
    r.id,
    r.cluster_id,
  ]);
  if (caller === 'otherCluster') expect(ids, 'a list never shows another cluster').not.toContain(id);
  if (caller === 'granted') expect(ids).toContain(id);
};

/**
 * A bulk action answers 200 to anyone holding its list's key, then checks each row by the single-row rule: the row's
 * status for the granted caller and for the caller granted on another cluster.
 */
const bulkRows =
  (granted: number, otherCluster = granted) =>
  (caller: Caller, _res: Response, body: unknown) => {
    const { results } = body as { results: Array<{ status: number }> };
    expect(results.map((r) => r.status)).toEqual([caller === 'otherCluster' ? otherCluster : granted]);
  };

/** A webhook of the granted caller, straight in the database (a public address: the matrix allows no private one). */
async function webhookOf(f: Fixture, ownerId: string): Promise<string> {
  const [row] = await f.t
    .knex('webhook_subscriptions')
    .insert({
      owner_id: ownerId,
      url: MATRIX_WEBHOOK_URL,
      event_types: JSON.stringify(['updateCluster']),
      cluster_id: f.target,
      secret: `whsec_${randomUUID()}`,
    })
    .returning<Array<{ id: string }>>('id');
  return row!.id;
}

/** A service account holding nothing, straight in the database (service-accounts.test.ts covers its creation). */
async function serviceAccount(f: Fixture): Promise<string> {
  const username = `mx-svc-${randomUUID().slice(0, 8)}`;
  const [row] = await f.t
    .knex('users')
    .insert({ username, email: `${username}@service-account.invalid`, password_hash: '!', kind: 'service' })
    .returning<Array<{ id: string }>>('id');
  return row!.id;
}

/** A webhook's own operations: cluster.read on some cluster passes the contract's rule; anyone but its owner gets 404. */
const webhookRow = (ok: number, call: (f: Fixture, hook: string) => Promise<Omit<Call, 'clusterId'>>): Row => ({
  key: 'cluster.read',
  scope: 'anywhere',
  ok,
  otherCluster: 404,
  call: async (f, granted) => ({ ...(await call(f, await webhookOf(f, granted.id))), clusterId: f.target }),
});

/** Forgets every failed sign-in and second step, so a row's wrong code is judged alone. */
const forgetFailures = (f: Fixture) => f.t.knex('login_attempts').del();

const MATRIX: Record<string, Row> = {
  getHealth: { key: null, scope: 'public', ok: 200, call: async () => ({ method: 'GET', path: '/healthz' }) },
  getReadiness: { key: null, scope: 'public', ok: 200, call: async () => ({ method: 'GET', path: '/readyz' }) },
  login: {
    key: null,
    scope: 'public',
    ok: 200,
    call: async () => ({ method: 'POST', path: '/api/auth/login', json: { username: 'viewer', password: 'demo1234' } }),
  },
  refreshToken: {
    key: null,
    scope: 'public',
    ok: 200,
    fresh: true,
    call: async (f) => ({
      method: 'POST',
      path: '/api/auth/refresh-token',
      json: { refresh_token: await f.refreshToken() },
    }),
  },
  logout: {
    key: null,
    scope: 'public',
    ok: 204,
    call: async (f) => ({ method: 'POST', path: '/api/auth/logout', json: { refresh_token: await f.refreshToken() } }),
  },
  listSsoProviders: {
    key: null,
    scope: 'public',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/auth/sso/providers' }),
  },
  // The matrix's provider cannot be reached: the start and the callback answer their redirect to the login page.
  startSsoSignIn: {
    key: null,
    scope: 'public',
    ok: 302,
    call: async () => ({ method: 'GET', path: `/api/auth/sso/${MATRIX_PROVIDER.id}/start` }),
  },
  completeSsoSignIn: {
    key: null,
    scope: 'public',
    ok: 302,
    call: async () => ({ method: 'GET', path: `/api/auth/sso/${MATRIX_PROVIDER.id}/callback?state=unknown&code=x` }),
  },
  exchangeSsoCode: {
    key: null,
    scope: 'public',
    ok: 200,
    fresh: true,
    // A sign-in the callback finished: its session and one-time code, straight in the database.
    call: async (f) => {
      const userId = await f.newUser();
      const sessionId = randomUUID();
      const code = randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, '');
      await f.t.knex('sessions').insert({
        id: sessionId,
        user_id: userId,
        expires_at: f.t.knex.raw("now() + interval '1 day'"),
        sso_provider: MATRIX_PROVIDER.id,
      });
      await f.t.knex('sso_handoffs').insert({
        code_hash: hashRefreshToken(code),
        user_id: userId,
        session_id: sessionId,
        provider: MATRIX_PROVIDER.id,
        subject: 'matrix',
        expires_at: f.t.knex.raw("now() + interval '1 minute'"),
      });
      return { method: 'POST', path: '/api/auth/sso/exchange', json: { code } };
    },
  },
  logoutSso: {
    key: null,
    scope: 'public',
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: '/api/auth/sso/logout',
      json: { refresh_token: await f.refreshToken() },
    }),
  },
  listSsoGroupMappings: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/sso/group-mappings' }),
  },
  createSsoGroupMapping: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 201,
    // A mapping hands out its key later, so its creator must hold it: the granted caller holds grant.manage.
    call: async () => ({
      method: 'POST',
      path: '/api-system/sso/group-mappings',
      json: { provider: MATRIX_PROVIDER.id, group: `g-${randomUUID()}`, permission_key: 'grant.manage' },
    }),
  },
  deleteSsoGroupMapping: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 204,
    call: async (f) => {
      const [row] = await f.t
        .knex('sso_group_mappings')
        .insert({ provider: MATRIX_PROVIDER.id, group_value: `g-${randomUUID()}`, permission_key: 'cluster.read' })
        .returning<Array<{ id: string }>>('id');
      return { method: 'DELETE', path: `/api-system/sso/group-mappings/${row!.id}` };
    },
  },
  getUserSso: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/users/${await f.newUser()}/sso` }),
  },
  setUserSsoOnly: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({
      method: 'PUT',
      path: `/api-system/users/${await f.newUser()}/sso`,
      json: { sso_only: false },
    }),
  },
  getStoredFile: {
    key: null,
    scope: 'public',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: await f.signedFileUrl() }),
  },
  getPlatformPermissions: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/user/permission/platform' }),
  },
  listWidgets: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async (f, g) => {
      const mine = await f.widget(g.id);
      return {
        method: 'GET',
        path: '/api/proxy/api/me/dashboard-widgets',
        check: (caller, _res, body) => {
          const ids = (body as { items: Array<{ id: string }> }).items.map((w) => w.id);
          if (caller === 'granted') expect(ids).toContain(mine);
          else expect(ids, 'another user never sees the widget').not.toContain(mine);
        },
      };
    },
  },
  createWidget: {
    key: null,
    scope: 'signin',
    ok: 201,
    denied: 201,
    otherCluster: 201,
    call: async () => ({
      method: 'POST',
      path: '/api/proxy/api/me/dashboard-widgets',
      json: { dataset_id: 'users.by-role', widget_type: 'bar' },
    }),
  },
  updateWidget: {
    key: null,
    scope: 'signin',
    ok: 200,
    denied: 404,
    otherCluster: 404,
    call: async (f, g) => ({
      method: 'PATCH',
      path: `/api/proxy/api/me/dashboard-widgets/${await f.widget(g.id)}`,
      json: { title: 'mine' },
    }),
  },
  deleteWidget: {
    key: null,
    scope: 'signin',
    ok: 204,
    denied: 404,
    otherCluster: 404,
    call: async (f, g) => ({ method: 'DELETE', path: `/api/proxy/api/me/dashboard-widgets/${await f.widget(g.id)}` }),
  },
  listDatasets: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/datasets' }),
  },
  getDatasetValues: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/datasets/tenancy.active-clusters/values' }),
  },
  countMyPendingPurchaseRequests: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/my-pending/purchase-requests/count' }),
  },
  countMyPendingPurchaseOrders: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/my-pending/purchase-orders/count' }),
  },
  countMyPendingStoreRequisitions: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/my-pending/store-requisitions/count' }),
  },
  listPendingApprovals: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/approval/pending' }),
  },
  getApprovalSummary: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api/proxy/api/approval/summary' }),
  },

  listClusters: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({
      method: 'GET',
      path: '/api-system/clusters?perpage=-1',
      clusterId: f.target,
      check: excludes(f.target),
    }),
  },
  exportClusters: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/clusters/export', clusterId: f.target }),
  },
  bulkClusters: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    // Holding only cluster.read, neither caller may switch the cluster off.
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/clusters/bulk',
      clusterId: f.target,
      json: { action: 'deactivate', ids: [f.target] },
      check: bulkRows(403),
    }),
  },
  createCluster: {
    key: 'cluster.create',
    scope: 'platform',
    ok: 201,
    call: async () => ({
      method: 'POST',
      path: '/api-system/clusters',
      json: { code: `M-${randomUUID().slice(0, 8)}`, name: 'Matrix cluster' },
    }),
  },
  getCluster: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/clusters/${f.target}`, clusterId: f.target }),
  },
  updateCluster: {
    key: 'cluster.update',
    scope: 'cluster',
    ok: 200,
    call: async (f) => {
      const id = await f.newCluster();
      return {
        method: 'PUT',
        path: `/api-system/clusters/${id}`,
        clusterId: id,
        json: { code: `M-${randomUUID().slice(0, 8)}`, name: 'Renamed' },
      };
    },
  },
  deleteCluster: {
    key: 'cluster.delete',
    scope: 'cluster',
    ok: 204,
    call: async (f) => {
      const id = await f.newCluster();
      return { method: 'DELETE', path: `/api-system/clusters/${id}`, clusterId: id };
    },
  },
  restoreCluster: {
    key: 'cluster.delete',
    scope: 'cluster',
    ok: 200,
    call: async (f) => {
      const id = await f.newCluster({ deleted: true });
      return { method: 'POST', path: `/api-system/clusters/${id}/restore`, clusterId: id };
    },
  },
  uploadClusterLogo: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/clusters/${f.target}/logo`,
      clusterId: f.target,
      upload: { field: 'logo' },
    }),
  },
  uploadClusterAvatar: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/clusters/${f.target}/avatar`,
      clusterId: f.target,
      upload: { field: 'avatar' },
    }),
  },
  deleteClusterLogo: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/clusters/${f.target}/logo`,
      clusterId: f.target,
    }),
  },
  deleteClusterAvatar: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/clusters/${f.target}/avatar`,
      clusterId: f.target,
    }),
  },
  addClusterUser: {
    key: 'cluster.update',
    scope: 'cluster',
    ok: 201,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/user/clusters',
      clusterId: f.target,
      json: { user_id: await f.newUser(), cluster_id: f.target },
    }),
  },
  importMemberships: {
    key: 'cluster.update',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    // A dry run: the caller granted on the business unit's cluster plans the row; another cluster's caller cannot see it.
    call: async (f) => {
      const buId = await f.newBusinessUnit(f.target);
      const { code } = await f.t.knex('business_units').where({ id: buId }).first<{ code: string }>('code');
      const { username } = await f.t
        .knex('users')
        .where({ id: await f.newUser() })
        .first<{ username: string }>('username');
      const cluster = await f.t.knex('clusters').where({ id: f.target }).first<{ code: string }>('code');
      // A unit takes its members from its cluster's users (ADR 0021): the file adds the user to the cluster first.
      const bytes = Buffer.from(`user,business_unit,cluster\n${username},,${cluster.code}\n${username},${code},\n`);
      const check = (caller: Caller, _res: Response, body: unknown) => {
        const [, row] = (body as { rows: Array<{ outcome: string; reason: string | null }> }).rows;
        expect(row).toMatchObject(
          caller === 'granted' ? { outcome: 'added' } : { outcome: 'refused', reason: 'unknown_business_unit' },
        );
      };
      return {
        method: 'POST',
        path: '/api-system/memberships/import?dry_run=true',
        clusterId: f.target,
        upload: { field: 'file', file: { bytes, name: 'members.csv', type: 'text/csv' } },
        check,
      };
    },
  },
  listClusterUsers: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/user/clusters/${f.target}`, clusterId: f.target }),
  },
  exportClusterMembers: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    call: async (f) => ({
      method: 'GET',
      path: `/api-system/user/clusters/export?cluster_id=${f.target}`,
      clusterId: f.target,
    }),
  },
  updateClusterUser: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'PUT',
      path: `/api-system/user/clusters/${await f.clusterMembership(f.target)}`,
      clusterId: f.target,
      json: { role: 'admin' },
    }),
  },
  removeClusterUser: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/user/clusters/${await f.clusterMembership(f.target)}`,
      clusterId: f.target,
    }),
  },
  searchUsers: {
    key: 'cluster.update',
    scope: 'anywhere',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/user?search=a', clusterId: f.target }),
  },
  listBusinessUnits: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    call: async (f) => {
      const bu = await f.newBusinessUnit(f.target);
      return { method: 'GET', path: '/api-system/business-units?perpage=-1', clusterId: f.target, check: excludes(bu) };
    },
  },
  exportBusinessUnits: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/business-units/export', clusterId: f.target }),
  },
  bulkBusinessUnits: {
    key: 'cluster.read',
    scope: 'cluster',
    ok: 200,
    otherCluster: 200,
    // The unit's own cluster is invisible to the other cluster's caller (404), and read-only to the granted one (403).
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/business-units/bulk',
      clusterId: f.target,
      json: { action: 'delete', ids: [await f.newBusinessUnit(f.target)] },
      check: bulkRows(403, 404),
    }),
  },
  createBusinessUnit: {
    key: 'cluster.create',
    scope: 'cluster',
    ok: 201,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/business-units',
      clusterId: f.target,
      json: { cluster_id: f.target, code: `B-${randomUUID().slice(0, 8)}`, name: 'Matrix BU' },
    }),
  },
  getBusinessUnit: {
    key: 'cluster.read',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'GET',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}`,
      clusterId: f.target,
    }),
  },
  updateBusinessUnit: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'PUT',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}`,
      clusterId: f.target,
      json: { cluster_id: f.target, code: `B-${randomUUID().slice(0, 8)}`, name: 'Renamed BU' },
    }),
  },
  deleteBusinessUnit: {
    key: 'cluster.delete',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}`,
      clusterId: f.target,
    }),
  },
  restoreBusinessUnit: {
    key: 'cluster.delete',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target, { deleted: true })}/restore`,
      clusterId: f.target,
    }),
  },
  uploadBusinessUnitLogo: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}/logo`,
      clusterId: f.target,
      upload: { field: 'logo' },
    }),
  },
  uploadBusinessUnitAvatar: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}/avatar`,
      clusterId: f.target,
      upload: { field: 'avatar' },
    }),
  },
  deleteBusinessUnitLogo: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}/logo`,
      clusterId: f.target,
    }),
  },
  deleteBusinessUnitAvatar: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/business-units/${await f.newBusinessUnit(f.target)}/avatar`,
      clusterId: f.target,
    }),
  },
  addBusinessUnitUser: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 201,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/user/business-units',
      clusterId: f.target,
      json: { user_id: await f.newUser(), business_unit_id: await f.newBusinessUnit(f.target) },
    }),
  },
  listBusinessUnitUsers: {
    key: 'cluster.read',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'GET',
      path: `/api-system/user/business-units/${await f.newBusinessUnit(f.target)}`,
      clusterId: f.target,
    }),
  },
  exportBusinessUnitMembers: {
    key: 'cluster.read',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'GET',
      path: `/api-system/user/business-units/export?business_unit_id=${await f.newBusinessUnit(f.target)}`,
      clusterId: f.target,
    }),
  },
  updateBusinessUnitUser: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 200,
    call: async (f) => ({
      method: 'PATCH',
      path: `/api-system/user/business-units/${await f.buMembership(await f.newBusinessUnit(f.target))}`,
      clusterId: f.target,
      json: { role: 'admin' },
    }),
  },
  removeBusinessUnitUser: {
    key: 'cluster.update',
    scope: 'cluster',
    otherCluster: 404,
    ok: 204,
    call: async (f) => ({
      method: 'DELETE',
      path: `/api-system/user/business-units/${await f.buMembership(await f.newBusinessUnit(f.target))}`,
      clusterId: f.target,
    }),
  },
  listPrintTemplateMappings: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/print-template-mappings' }),
  },
  createPrintTemplateMapping: {
    key: 'print_template_mapping.manage',
    scope: 'platform',
    ok: 201,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/print-template-mappings',
      json: { document_type: 'GRN', report_template_id: await f.reportTemplate(), is_default: false },
    }),
  },
  exportPrintTemplateMappings: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/print-template-mappings/export' }),
  },
  listDocumentTypes: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/print-template-mappings/document-types' }),
  },
  resolvePrintTemplateMapping: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async (f) => {
      await f.mapping();
      return { method: 'GET', path: '/api-system/print-template-mappings/resolve?document_type=GRN' };
    },
  },
  getPrintTemplateMapping: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/print-template-mappings/${await f.mapping()}` }),
  },
  updatePrintTemplateMapping: {
    key: 'print_template_mapping.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({
      method: 'PUT',
      path: `/api-system/print-template-mappings/${await f.mapping()}`,
      json: { display_label: 'Matrix' },
    }),
  },
  bulkPrintTemplateMappings: {
    key: 'print_template_mapping.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/print-template-mappings/bulk',
      json: { action: 'deactivate', ids: [await f.mapping()] },
      check: bulkRows(200),
    }),
  },
  deletePrintTemplateMapping: {
    key: 'print_template_mapping.manage',
    scope: 'platform',
    ok: 204,
    call: async (f) => ({ method: 'DELETE', path: `/api-system/print-template-mappings/${await f.mapping()}` }),
  },
  listReportTemplates: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/report-templates' }),
  },
  listWebhookEventTypes: {
    key: 'cluster.read',
    scope: 'anywhere',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/webhooks/event-types', clusterId: f.target }),
  },
  listWebhooks: {
    key: 'cluster.read',
    scope: 'anywhere',
    ok: 200,
    otherCluster: 200,
    call: async (f, granted) => ({
      method: 'GET',
      path: '/api-system/webhooks',
      clusterId: f.target,
      check: excludes(await webhookOf(f, granted.id)),
    }),
  },
  // A webhook scoped to a cluster its creator may not read names a cluster that, to it, is not there.
  createWebhook: {
    key: 'cluster.read',
    scope: 'anywhere',
    ok: 201,
    otherCluster: 404,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/webhooks',
      json: { url: MATRIX_WEBHOOK_URL, event_types: ['updateCluster'], cluster_id: f.target },
      clusterId: f.target,
    }),
  },
  getWebhook: webhookRow(200, async (_f, hook) => ({ method: 'GET', path: `/api-system/webhooks/${hook}` })),
  updateWebhook: webhookRow(200, async (_f, hook) => ({
    method: 'PATCH',
    path: `/api-system/webhooks/${hook}`,
    json: { description: 'Matrix' },
  })),
  deleteWebhook: webhookRow(204, async (_f, hook) => ({ method: 'DELETE', path: `/api-system/webhooks/${hook}` })),
  rotateWebhookSecret: webhookRow(200, async (_f, hook) => ({
    method: 'POST',
    path: `/api-system/webhooks/${hook}/rotate-secret`,
  })),
  listWebhookDeliveries: webhookRow(200, async (_f, hook) => ({
    method: 'GET',
    path: `/api-system/webhooks/${hook}/deliveries`,
  })),
  redeliverWebhookDelivery: webhookRow(202, async (f, hook) => {
    const [row] = await f.t
      .knex('webhook_deliveries')
      .insert({ subscription_id: hook, event_id: randomUUID(), status: 'failed' })
      .returning<Array<{ id: string }>>('id');
    return { method: 'POST', path: `/api-system/webhooks/${hook}/deliveries/${row!.id}/redeliver` };
  }),
  listAuditEvents: {
    key: 'cluster.read',
    scope: 'anywhere',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/audit-events', clusterId: f.target }),
  },
  exportAuditEvents: {
    key: 'cluster.read',
    scope: 'anywhere',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/audit-events/export', clusterId: f.target }),
  },
  // Open to any signed-in caller by the contract; the record's own update permission decides: the granted caller is
  // given cluster.read and cluster.update on the renamed cluster, and anyone else may not even see the event.
  revertAuditEvent: {
    key: null,
    scope: 'signin',
    ok: 200,
    denied: 404,
    call: async (f, granted) => {
      const clusterId = await f.newCluster();
      const put = await f.t.fetch(`/api-system/clusters/${clusterId}`, {
        method: 'PUT',
        token: f.admin,
        json: { code: `MR-${randomUUID().slice(0, 8)}`, name: 'Matrix renamed' },
      });
      expect(put.status).toBe(200);
      const page = await f.t.fetch(`/api-system/audit-events?target_id=${clusterId}&action=updateCluster`, {
        token: f.admin,
      });
      const [event] = ((await page.json()) as { data: Array<{ id: string }> }).data;
      await f.t.knex('permission_grants').insert(
        (['cluster.read', 'cluster.update'] as const).map((key) => ({
          user_id: granted.id,
          permission_key: key,
          cluster_id: clusterId,
        })),
      );
      return { method: 'POST', path: `/api-system/audit-events/${event!.id}/revert` };
    },
  },
  listCurrencies: {
    key: 'cluster.read',
    scope: 'anywhere',
    ok: 200,
    otherCluster: 200,
    call: async (f) => ({ method: 'GET', path: '/api-system/currencies', clusterId: f.target }),
  },
  listUsers: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/users' }),
  },
  exportUsers: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/users/export' }),
  },
  getUser: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/users/${await f.newUser()}` }),
  },
  createUser: {
    key: 'user.manage',
    scope: 'platform',
    ok: 201,
    call: async () => {
      const username = `mx-new-${randomUUID().slice(0, 8)}`;
      return {
        method: 'POST',
        path: '/api-system/users',
        json: { username, email: `${username}@example.com`, password: MATRIX_PASSWORD },
      };
    },
  },
  updateUser: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => {
      const id = await f.newUser();
      const username = `mx-ed-${randomUUID().slice(0, 8)}`;
      return {
        method: 'PUT',
        path: `/api-system/users/${id}`,
        json: { username, email: `${username}@example.com`, firstname: 'Matrix', middlename: null, lastname: null },
      };
    },
  },
  // user.read lets the caller send the request; each row needs user.manage.
  bulkUsers: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: '/api-system/users/bulk',
      json: { action: 'deactivate', ids: [await f.newUser()] },
      check: bulkRows(403),
    }),
  },
  deactivateUser: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'POST', path: `/api-system/users/${await f.newUser()}/deactivate` }),
  },
  reactivateUser: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => {
      const id = await f.newUser();
      await f.t.knex('users').where({ id }).update({ is_active: false });
      return { method: 'POST', path: `/api-system/users/${id}/reactivate` };
    },
  },
  resetUserPassword: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/users/${await f.newUser()}/password-reset`,
      json: { password: 'Reset-Matrix-Lagoon-26' },
    }),
  },
  unlockUser: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'POST', path: `/api-system/users/${await f.newUser()}/unlock` }),
  },
  listUserSessions: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => {
      const id = await f.newUser();
      await f.session(id);
      return { method: 'GET', path: `/api-system/users/${id}/sessions` };
    },
  },
  revokeUserSession: {
    key: 'user.manage',
    scope: 'platform',
    ok: 204,
    fresh: true,
    call: async (f) => {
      const id = await f.newUser();
      return { method: 'DELETE', path: `/api-system/users/${id}/sessions/${await f.session(id)}` };
    },
  },
  revokeUserSessions: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => {
      const id = await f.newUser();
      await f.session(id);
      return { method: 'POST', path: `/api-system/users/${id}/sessions/revoke-all` };
    },
  },
  revokeSuperAdmin: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 200,
    // Only a super admin may demote one: the granted caller is one as well as holding grant.manage.
    call: async (f, g) => {
      await f.t.knex('users').where({ id: g.id }).update({ is_super_admin: true });
      return { method: 'DELETE', path: `/api-system/users/${await f.newUser({ superAdmin: true })}/super-admin` };
    },
  },
  listUserGrants: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/users/${await f.newUser()}/grants` }),
  },
  addUserGrant: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 201,
    // The granted caller holds grant.manage on all clusters, so it may give exactly that.
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/users/${await f.newUser()}/grants`,
      json: { permission_key: 'grant.manage', cluster_id: null },
    }),
  },
  removeUserGrant: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 204,
    call: async (f) => {
      const id = await f.newUser();
      const [row] = await f.t
        .knex('permission_grants')
        .insert({ user_id: id, permission_key: 'grant.manage', cluster_id: null })
        .returning<Array<{ id: string }>>('id');
      return { method: 'DELETE', path: `/api-system/users/${id}/grants/${row!.id}` };
    },
  },
  listServiceAccounts: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/service-accounts' }),
  },
  createServiceAccount: {
    key: 'user.manage',
    scope: 'platform',
    ok: 201,
    fresh: true,
    call: async () => ({
      method: 'POST',
      path: '/api-system/service-accounts',
      json: { name: `mx-svc-${randomUUID().slice(0, 8)}` },
    }),
  },
  getServiceAccount: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/service-accounts/${await serviceAccount(f)}` }),
  },
  updateServiceAccount: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({
      method: 'PUT',
      path: `/api-system/service-accounts/${await serviceAccount(f)}`,
      json: { name: `mx-svc-${randomUUID().slice(0, 8)}`, description: null, is_active: true },
    }),
  },
  listApiTokens: {
    key: 'user.read',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/service-accounts/${await serviceAccount(f)}/tokens` }),
  },
  createApiToken: {
    key: 'user.manage',
    scope: 'platform',
    ok: 201,
    call: async (f) => ({
      method: 'POST',
      path: `/api-system/service-accounts/${await serviceAccount(f)}/tokens`,
      json: { name: 'matrix', expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    }),
  },
  revokeApiToken: {
    key: 'user.manage',
    scope: 'platform',
    ok: 204,
    call: async (f) => {
      const id = await serviceAccount(f);
      const [row] = await f.t
        .knex('api_tokens')
        .insert({
          user_id: id,
          name: 'matrix',
          lookup: randomUUID().replace(/-/g, '').slice(0, 12),
          token_hash: randomUUID(),
          expires_at: f.t.knex.raw("now() + interval '1 day'"),
        })
        .returning<Array<{ id: string }>>('id');
      return { method: 'DELETE', path: `/api-system/service-accounts/${id}/tokens/${row!.id}` };
    },
  },
  // Every caller changes its own password (each matrix account has MATRIX_PASSWORD).
  changeMyPassword: {
    key: null,
    scope: 'signin',
    ok: 204,
    call: async () => ({
      method: 'PUT',
      path: '/api-system/me/password',
      json: { current_password: MATRIX_PASSWORD, new_password: 'Phuket-Lagoon-Morning-7' },
    }),
  },
  listMySessions: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/me/sessions' }),
  },
  revokeMySession: {
    key: null,
    scope: 'signin',
    ok: 204,
    denied: 404,
    otherCluster: 404,
    call: async (f, g) => ({ method: 'DELETE', path: `/api-system/me/sessions/${await f.session(g.id)}` }),
  },
  revokeMyOtherSessions: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'POST', path: '/api-system/me/sessions/revoke-others' }),
  },
  // The second factor. Wrong codes count as failed sign-ins of this one client (127.0.0.1), so the rows that send one
  // start each call with the client's failures forgotten: what they check is who reaches the operation, not the delay.
  // No matrix account has a factor, so none is asked for a step-up (second-factor.test.ts covers it):
  // what is checked here is who reaches each operation, and that a request naming nothing real is refused cleanly.
  verifySecondFactor: {
    key: null,
    scope: 'public',
    ok: 401,
    fresh: true,
    call: async (f) => {
      await forgetFailures(f);
      return {
        method: 'POST',
        path: '/api/auth/second-factor',
        json: { second_factor_token: 'x'.repeat(43), method: 'totp', code: '123456' },
      };
    },
  },
  // No Origin header and no WEBAUTHN_ORIGINS: the server cannot tell which console asks, and says so.
  passkeySignInOptions: {
    key: null,
    scope: 'public',
    ok: 400,
    call: async () => ({ method: 'POST', path: '/api/auth/passkey/options', json: {} }),
  },
  signInWithPasskey: {
    key: null,
    scope: 'public',
    ok: 401,
    fresh: true,
    call: async (f) => {
      await forgetFailures(f);
      return {
        method: 'POST',
        path: '/api/auth/passkey',
        json: {
          challenge_id: randomUUID(),
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            clientExtensionResults: {},
            response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
          },
        },
      };
    },
  },
  getSecondFactorPolicy: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/second-factor-policy' }),
  },
  updateSecondFactorPolicy: {
    key: 'grant.manage',
    scope: 'platform',
    ok: 200,
    // Only a super admin may change it: the granted caller is one as well as holding grant.manage.
    call: async (f, g) => {
      await f.t.knex('users').where({ id: g.id }).update({ is_super_admin: true });
      return {
        method: 'PUT',
        path: '/api-system/second-factor-policy',
        json: { required_for: 'none', sso_sign_ins: 'trusted' },
      };
    },
  },
  getUserSecondFactors: {
    key: 'user.manage',
    scope: 'platform',
    ok: 200,
    call: async (f) => ({ method: 'GET', path: `/api-system/users/${await f.newUser()}/second-factors` }),
  },
  resetSecondFactors: {
    key: 'user.manage',
    scope: 'platform',
    ok: 204,
    call: async (f) => ({ method: 'DELETE', path: `/api-system/users/${await f.newUser()}/second-factors` }),
  },
  getMySecondFactors: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'GET', path: '/api-system/me/second-factors' }),
  },
  startTotpEnrolment: {
    key: null,
    scope: 'signin',
    ok: 200,
    call: async () => ({ method: 'POST', path: '/api-system/me/second-factors/totp' }),
  },
  // Nothing to confirm: no setup was started.
  confirmTotpEnrolment: {
    key: null,
    scope: 'signin',
    ok: 404,
    call: async () => ({
      method: 'POST',
      path: '/api-system/me/second-factors/totp/confirm',
      json: { code: '000000' },
    }),
  },
  removeTotp: {
    key: null,
    scope: 'signin',
    ok: 404,
    call: async () => ({ method: 'DELETE', path: '/api-system/me/second-factors/totp' }),
  },
  regenerateRecoveryCodes: {
    key: null,
    scope: 'signin',
    ok: 409,
    call: async () => ({ method: 'POST', path: '/api-system/me/second-factors/recovery-codes' }),
  },
  passkeyRegistrationOptions: {
    key: null,
    scope: 'signin',
    ok: 400,
    call: async () => ({ method: 'POST', path: '/api-system/me/second-factors/passkeys/options' }),
  },
  registerPasskey: {
    key: null,
    scope: 'signin',
    ok: 400,
    call: async () => ({
      method: 'POST',
      path: '/api-system/me/second-factors/passkeys',
      json: {
        challenge_id: randomUUID(),
        name: 'Matrix key',
        response: {
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          clientExtensionResults: {},
          response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
        },
      },
    }),
  },
  removePasskey: {
    key: null,
    scope: 'signin',
    ok: 404,
    call: async () => ({ method: 'DELETE', path: `/api-system/me/second-factors/passkeys/${randomUUID()}` }),
  },
  stepUpPasskeyOptions: {
    key: null,
    scope: 'signin',
    ok: 409,
    call: async () => ({ method: 'POST', path: '/api-system/me/step-up/options' }),
  },
  stepUp: {
    key: null,
    scope: 'signin',
    // The matrix's callers have no second factor: nothing to confirm with (and no failure counted).
    ok: 409,
    call: async () => ({ method: 'POST', path: '/api-system/me/step-up', json: { method: 'totp', code: '123456' } }),
  },
};

function expected(row: Row, caller: Caller): number {
  if (row.scope === 'public') return row.ok;
  if (caller === 'anonymous' || caller === 'expired' || caller === 'tampered') return 401;
  if (caller === 'granted') return row.ok;
  if (row.scope === 'signin')
    return caller === 'noGrant' ? (row.denied ?? row.ok) : (row.otherCluster ?? row.denied ?? row.ok);
  if (caller === 'noGrant') return row.denied ?? 403;
  return row.otherCluster ?? 403;
}

describe.each(engines())('authorization matrix on %s', (engine) => {
  let t: TestServer;
  let f: Fixture;
  beforeAll(async () => {
    t = await startTestServer(engine, { env: { OIDC_PROVIDERS: JSON.stringify([MATRIX_PROVIDER]) } });
    const admin = await t.login('admin');
    const api = async (method: string, path: string, json?: unknown) => {
      const res = await t.fetch(path, { method, token: admin, json });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
      return text ? (JSON.parse(text) as { id: string }) : ({} as { id: string });
    };
    const newCluster: Fixture['newCluster'] = async (opts = {}) => {
      const { id } = await api('POST', '/api-system/clusters', {
        code: `MX-${randomUUID().slice(0, 8)}`,
        name: 'Matrix fixture',
      });
      if (opts.deleted) await api('DELETE', `/api-system/clusters/${id}`);
      return id;
    };
    // One hash for every matrix account: hashing is deliberately slow.
    const passwordHash = await hashPassword(MATRIX_PASSWORD);
    const newUser: Fixture['newUser'] = async (opts = {}) => {
      const username = `mx-${randomUUID().slice(0, 8)}`;
      const [row] = await t
        .knex('users')
        .insert({
          username,
          email: `${username}@example.com`,
          password_hash: passwordHash,
          is_super_admin: !!opts.superAdmin,
        })
        .returning<Array<{ id: string }>>('id');
      return row!.id;
    };
    const target = await newCluster();
    const other = await newCluster();
    f = {
      t,
      admin,
      target,
      other,
      newCluster,
      async newBusinessUnit(clusterId, opts = {}) {
        const { id } = await api('POST', '/api-system/business-units', {
          cluster_id: clusterId,
          code: `MB-${randomUUID().slice(0, 8)}`,
          name: 'Matrix BU',
        });
        if (opts.deleted) await api('DELETE', `/api-system/business-units/${id}`);
        return id;
      },
      newUser,
      async session(userId) {
        const [row] = await t
          .knex('sessions')
          .insert({ id: randomUUID(), user_id: userId, expires_at: t.knex.raw("now() + interval '1 day'") })
          .returning<Array<{ id: string }>>('id');
        return row!.id;
      },
      async token(userId, now = Date.now()) {
        return signAccessToken(t.config.jwtSecret, userId, now, await this.session(userId));
      },
      async clusterMembership(clusterId) {
        return (await api('POST', '/api-system/user/clusters', { user_id: await newUser(), cluster_id: clusterId })).id;
      },
      async buMembership(buId) {
        return (
          await api('POST', '/api-system/user/business-units', { user_id: await newUser(), business_unit_id: buId })
        ).id;
      },
      async reportTemplate() {
        return ((await t.knex('report_templates').select('id').where({ kind: 'print' }).first()) as { id: string }).id;
      },
      async mapping() {
        return (
          await api('POST', '/api-system/print-template-mappings', {
            document_type: 'GRN',
            report_template_id: await this.reportTemplate(),
            is_default: true,
          })
        ).id;
      },
      async widget(ownerId) {
        const [row] = await t
          .knex('dashboard_widgets')
          .insert({ user_id: ownerId, dataset_id: `tenancy.active-clusters`, widget_type: 'kpi', order_index: 10 })
          .onConflict(['user_id', 'dataset_id'])
          .merge()
          .returning<Array<{ id: string }>>('id');
        return row!.id;
      },
      async signedFileUrl() {
        const res = await t.upload(`/api-system/clusters/${other}/logo`, 'logo', PNG_1X1, 'a.png', admin, 'image/png');
        const body = (await res.json()) as { url: string };
        const u = new URL(body.url, t.baseUrl);
        return u.pathname + u.search;
      },
      async refreshToken() {
        const res = await t.fetch('/api/auth/login', {
          method: 'POST',
          json: { username: 'viewer', password: 'demo1234' },
        });
        return ((await res.json()) as { refresh_token: string }).refresh_token;
      },
    };
  });
  afterAll(() => t?.close());

  it('has a row for every operation of the contract, with its x-permission', () => {
    const ops = operationsOf(loadBundledSpec());
    expect(Object.keys(MATRIX).sort()).toEqual(ops.map((o) => o.operationId!).sort());
    for (const op of ops) {
      const row = MATRIX[op.operationId!]!;
      const declared = op['x-permission'];
      expect(row.key, op.operationId).toBe(declared === 'signed-in' ? null : (declared ?? null));
      expect(row.scope === 'public', `${op.operationId} is public exactly when the contract says security: []`).toBe(
        Array.isArray(op.security) && op.security.length === 0,
      );
      expect(
        row.scope === 'signin',
        `${op.operationId} is open to any signed-in caller exactly when it says x-permission: signed-in`,
      ).toBe(declared === 'signed-in');
      if (row.key)
        expect(op['x-permission-scope'], op.operationId).toBe(row.scope === 'platform' ? 'platform' : 'cluster');
    }
  });

  it('gives every caller of every operation the expected status', async () => {
    let cells = 0;
    const wrong: string[] = [];
    for (const [operationId, row] of Object.entries(MATRIX)) {
      // Fresh users per row: one without any grant, one with the key on the other cluster, one with the key on the target.
      const ids = { noGrant: await f.newUser(), otherCluster: await f.newUser(), granted: await f.newUser() };
      const call = await row.call(f, { id: ids.granted });
      if (row.key) {
        await t
          .knex('permission_grants')
          .insert({ user_id: ids.otherCluster, permission_key: row.key, cluster_id: f.other });
        await t.knex('permission_grants').insert({
          user_id: ids.granted,
          permission_key: row.key,
          cluster_id: row.scope === 'platform' ? null : (call.clusterId ?? null),
        });
      }
      const tokens: Record<Caller, string | undefined> = {
        anonymous: undefined,
        expired: await f.token(ids.granted, Date.now() - 3_600_000),
        tampered: await (async () => {
          const real = await f.token(ids.granted);
          const [h, , s] = real.split('.');
          const adminId = ((await t.knex('users').select('id').where({ username: 'admin' }).first()) as { id: string })
            .id;
          const payload = Buffer.from(
            JSON.stringify({
              sub: adminId,
              iss: 'platform-admin',
              aud: 'platform-admin-api',
              iat: Math.floor(Date.now() / 1000),
              exp: Math.floor(Date.now() / 1000) + 600,
            }),
          ).toString('base64url');
          return `${h}.${payload}.${s}`;
        })(),
        noGrant: await f.token(ids.noGrant),
        otherCluster: await f.token(ids.otherCluster),
        granted: await f.token(ids.granted),
      };
      // The granted caller goes last: denied calls must leave the record as it was for it.
      for (const caller of CALLERS) {
        if (row.fresh && caller !== CALLERS[0]) Object.assign(call, await row.call(f, { id: ids.granted }));
        const file = call.upload?.file ?? { bytes: PNG_1X1, name: 'a.png', type: 'image/png' };
        const res = call.upload
          ? await t.upload(call.path, call.upload.field, file.bytes, file.name, tokens[caller], file.type)
          : await t.fetch(call.path, {
              method: call.method,
              token: tokens[caller],
              json: call.json,
              redirect: 'manual',
            });
        cells++;
        const want = expected(row, caller);
        const text = await res.clone().text();
        if (res.status !== want)
          wrong.push(`${operationId} × ${caller}: ${res.status} (want ${want}) ${text.slice(0, 160)}`);
        if (res.status >= 400)
          wrong.push(...(await problemViolations(res)).map((v) => `${operationId} × ${caller}: ${v}`));
        else if (call.check && res.status === want) {
          try {
            call.check(caller, res, text ? JSON.parse(text) : undefined);
          } catch (err) {
            wrong.push(`${operationId} × ${caller}: ${String(err)}`);
          }
        }
      }
    }
    console.log(
      `[matrix] ${engine}: ${cells} cells checked (${Object.keys(MATRIX).length} operations × ${CALLERS.length} callers)`,
    );
    expect(wrong).toEqual([]);
    expect(cells).toBe(Object.keys(MATRIX).length * CALLERS.length);
  });

  it('refuses a help desk every operation on the super admin or on an account holding a key it lacks (403, nothing changes)', async () => {
    // user.read, user.manage and grant.manage pass every operation's own check, and cluster.read on all clusters
    // would let the granting rule alone hand out or take back cluster.read: what refuses is the delegation rule.
    const helpDesk = await f.newUser();
    await t.knex('permission_grants').insert(
      ['user.read', 'user.manage', 'grant.manage', 'cluster.read'].map((key) => ({
        user_id: helpDesk,
        permission_key: key,
        cluster_id: null,
      })),
    );
    const token = await f.token(helpDesk);
    const targets: Record<string, () => Promise<string>> = {
      'the super admin': () => f.newUser({ superAdmin: true }),
      'an account holding cluster.update on a cluster': async () => {
        const id = await f.newUser();
        await t
          .knex('permission_grants')
          .insert({ user_id: id, permission_key: 'cluster.update', cluster_id: f.target });
        return id;
      },
    };
    const grantOf = async (id: string) => {
      const [row] = await t
        .knex('permission_grants')
        .insert({ user_id: id, permission_key: 'cluster.read', cluster_id: f.target })
        .returning<Array<{ id: string }>>('id');
      return row!.id;
    };
    const operations: Record<string, (id: string) => Promise<{ method: string; path: string; json?: unknown }>> = {
      updateUser: async (id) => {
        const username = `mx-hd-${randomUUID().slice(0, 8)}`;
        return {
          method: 'PUT',
          path: `/api-system/users/${id}`,
          json: { username, email: `${username}@example.com`, firstname: null, middlename: null, lastname: null },
        };
      },
      deactivateUser: async (id) => ({ method: 'POST', path: `/api-system/users/${id}/deactivate` }),
      reactivateUser: async (id) => {
        await t.knex('users').where({ id }).update({ is_active: false });
        return { method: 'POST', path: `/api-system/users/${id}/reactivate` };
      },
      resetUserPassword: async (id) => ({
        method: 'POST',
        path: `/api-system/users/${id}/password-reset`,
        json: { password: 'Reset-Matrix-Lagoon-26' },
      }),
      unlockUser: async (id) => ({ method: 'POST', path: `/api-system/users/${id}/unlock` }),
      listUserSessions: async (id) => ({ method: 'GET', path: `/api-system/users/${id}/sessions` }),
      revokeUserSession: async (id) => ({
        method: 'DELETE',
        path: `/api-system/users/${id}/sessions/${await f.session(id)}`,
      }),
      revokeUserSessions: async (id) => ({ method: 'POST', path: `/api-system/users/${id}/sessions/revoke-all` }),
      setUserSsoOnly: async (id) => ({ method: 'PUT', path: `/api-system/users/${id}/sso`, json: { sso_only: true } }),
      addUserGrant: async (id) => ({
        method: 'POST',
        path: `/api-system/users/${id}/grants`,
        json: { permission_key: 'cluster.read', cluster_id: f.target },
      }),
      removeUserGrant: async (id) => ({
        method: 'DELETE',
        path: `/api-system/users/${id}/grants/${await grantOf(id)}`,
      }),
      bulkUsers: async (id) => ({
        method: 'POST',
        path: '/api-system/users/bulk',
        json: { action: 'deactivate', ids: [id] },
      }),
    };
    /** The account's row and grants, to compare before and after a refused call. */
    const account = async (id: string): Promise<string> => {
      const user: unknown = await t.knex('users').where({ id }).first();
      const grants: unknown = await t.knex('permission_grants').where({ user_id: id }).orderBy('id');
      return JSON.stringify({ user, grants });
    };
    const wrong: string[] = [];
    for (const [who, newTarget] of Object.entries(targets)) {
      for (const [operationId, build] of Object.entries(operations)) {
        const id = await newTarget();
        const call = await build(id);
        const before = await account(id);
        const res = await t.fetch(call.path, { method: call.method, token, json: call.json });
        const text = await res.text();
        const status =
          operationId === 'bulkUsers' && res.status === 200
            ? (JSON.parse(text) as { results: Array<{ status: number }> }).results[0]!.status
            : res.status;
        if (status !== 403) wrong.push(`${operationId} on ${who}: ${status} (want 403) ${text.slice(0, 160)}`);
        if ((await account(id)) !== before) wrong.push(`${operationId} on ${who}: the account changed`);
        await t.knex('users').where({ id }).update({ is_super_admin: false });
      }
    }
    expect(wrong).toEqual([]);
  });

  it("never lets a caller reach another user's widget or another cluster's memberships by id (IDOR)", async () => {
    const alice = await f.newUser();
    const bob = await f.newUser();
    const [aliceToken, bobToken] = [await f.token(alice), await f.token(bob)];
    const widget = await f.widget(alice);
    for (const [method, json] of [
      ['PATCH', { title: 'stolen', order_index: 1 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.fetch(`/api/proxy/api/me/dashboard-widgets/${widget}`, { method, token: bobToken, json });
      expect(res.status).toBe(404);
    }
    const row: unknown = await t.knex('dashboard_widgets').where({ id: widget }).first();
    expect(row).toMatchObject({ user_id: alice, title: null });
    expect(
      (
        (await (await t.fetch('/api/proxy/api/me/dashboard-widgets', { token: aliceToken })).json()) as {
          count: number;
        }
      ).count,
    ).toBe(1);

    // An editor of the other cluster, holding every cluster key there, with ids of the target cluster.
    const editor = await f.newUser();
    for (const key of ['cluster.read', 'cluster.create', 'cluster.update', 'cluster.delete']) {
      await t.knex('permission_grants').insert({ user_id: editor, permission_key: key, cluster_id: f.other });
    }
    const token = await f.token(editor);
    const targetBu = await f.newBusinessUnit(f.target);
    const otherBu = await f.newBusinessUnit(f.other);
    const clusterMember = await f.clusterMembership(f.target);
    const buMember = await f.buMembership(targetBu);
    const attempts: Array<[string, string, unknown]> = [
      ['PUT', `/api-system/user/clusters/${clusterMember}`, { role: 'admin' }],
      ['DELETE', `/api-system/user/clusters/${clusterMember}`, undefined],
      ['PATCH', `/api-system/user/business-units/${buMember}`, { role: 'admin' }],
      ['DELETE', `/api-system/user/business-units/${buMember}`, undefined],
      ['GET', `/api-system/user/business-units/${targetBu}`, undefined],
      ['GET', `/api-system/user/clusters/${f.target}`, undefined],
      ['POST', '/api-system/user/business-units', { user_id: editor, business_unit_id: targetBu }],
      ['POST', '/api-system/user/clusters', { user_id: editor, cluster_id: f.target }],
      // Moving a BU of my cluster into theirs, or theirs into mine, needs the grant on both.
      [
        'PUT',
        `/api-system/business-units/${otherBu}`,
        { cluster_id: f.target, code: `MV-${randomUUID().slice(0, 6)}`, name: 'moved' },
      ],
      [
        'PUT',
        `/api-system/business-units/${targetBu}`,
        { cluster_id: f.other, code: `MV-${randomUUID().slice(0, 6)}`, name: 'moved' },
      ],
      ['GET', `/api-system/business-units?cluster_id=${f.target}`, undefined],
    ];
    for (const [method, path, json] of attempts) {
      const res = await t.fetch(path, { method, token, json });
      // Refused either way: 404 when the id names a record inside their cluster (as for a missing id), 403 otherwise.
      expect([403, 404], `${method} ${path}`).toContain(res.status);
    }
    expect(await t.knex('cluster_users').where({ id: clusterMember }).first()).toMatchObject({ role: 'user' });
    expect(await t.knex('bu_users').where({ id: buMember }).first()).toMatchObject({ role: 'user' });
    expect(await t.knex('business_units').where({ id: otherBu }).first()).toMatchObject({ cluster_id: f.other });
    expect(await t.knex('business_units').where({ id: targetBu }).first()).toMatchObject({ cluster_id: f.target });
    // A token with an alg of none is never accepted.
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: editor, iss: 'platform-admin', aud: 'platform-admin-api' })).toString('base64url')}.`;
    expect((await t.fetch('/api/user/permission/platform', { token: none })).status).toBe(401);
    // Nor one signed with another secret.
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(editor)
      .setIssuer('platform-admin')
      .setAudience('platform-admin-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expect((await t.fetch('/api/user/permission/platform', { token: forged })).status).toBe(401);
  });
});
