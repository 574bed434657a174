/**
 * Dredd hooks for the contract suite (CommonJS: Dredd requires them). Run by test/contract/runner.ts, which
 * passes the server's own URL (fixtures are created there directly, never through the proxies) and the port of
 * the lenient Prism proxy.
 *
 * For every transaction: find its operation and expected status, sign in as the right account, create the
 * fixture it needs, put real ids into the path, and set the body. Each documented error status is a real
 * negative case (the `cases` table below). Deliberately invalid requests (most 400s) go to the lenient proxy,
 * because the strict one (`--errors`) would answer them with its own 422 instead of forwarding them.
 *
 * Skipped transactions (the rules and their wording live in skips.cjs, which the runner also reads; the suite
 * fails on any other skip):
 *   - the `<operation> > 200 > application/problem+json` transactions (one per operation): Dredd turns each operation's `default`
 *     response into a second 200 transaction that no request can produce; every concrete error status of the
 *     operation has its own transaction here;
 *   - `GET /healthz > 503`: needs a database that stops answering while the server runs (covered by
 *     test/server/health.test.ts);
 *   - `DELETE /api-system/users/{id}/super-admin > 200`: needs a second active super admin, which no operation
 *     creates (covered by test/server/accounts.test.ts and the authorization matrix).
 *
 * Dredd's own body check is switched off (see beforeEachValidation): Prism validates every body against the
 * schemas instead.
 */
'use strict';
const hooks = require('hooks');
const path = require('node:path');
const { createHmac, randomUUID } = require('node:crypto');
const { explainSkip } = require('./skips.cjs');

const SERVER = process.env.CONTRACT_SERVER_URL;
const STRICT_URL = process.env.CONTRACT_STRICT_URL;
const LENIENT_PORT = process.env.CONTRACT_LENIENT_PORT;
const JWT_SECRET = process.env.CONTRACT_JWT_SECRET;
if (!SERVER || !STRICT_URL || !LENIENT_PORT || !JWT_SECRET) {
  throw new Error(
    'CONTRACT_SERVER_URL, CONTRACT_STRICT_URL, CONTRACT_LENIENT_PORT and CONTRACT_JWT_SECRET must be set (run through test/contract/runner.ts)',
  );
}

const spec = require(path.join(__dirname, '..', '..', 'openapi', 'generated', 'openapi.bundled.json'));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** `<path> > <summary>` (Dredd's resource and action names) → the operation. */
const operations = new Map();
for (const [p, item] of Object.entries(spec.paths)) {
  for (const m of METHODS) if (item[m]) operations.set(`${p} > ${item[m].summary}`, { ...item[m], method: m, path: p });
}

const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD || 'admin123';
const DEMO_PASSWORD = process.env.DEMO_PASSWORD || 'demo1234';
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const BAD_TOKEN = 'Bearer not-a-valid-access-token';

let seq = 0;
/** A short unique suffix for codes and names (cluster codes are at most 50 characters). */
const uniq = () => `${Date.now().toString(36).slice(-5)}${(seq++).toString(36)}`.toUpperCase();

// ---------------------------------------------------------------------------------------------------------------
// Direct calls to the server (fixtures)

async function api(method, pathAndQuery, { token, json, form, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    h['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = form;
  }
  const res = await fetch(SERVER + pathAndQuery, { method, headers: h, body });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data, headers: res.headers };
}

/** Like api(), but throws unless the status is the expected one. */
async function must(status, method, pathAndQuery, opts) {
  const res = await api(method, pathAndQuery, opts);
  if (res.status !== status)
    throw new Error(
      `fixture ${method} ${pathAndQuery} answered ${res.status}, not ${status}: ${JSON.stringify(res.data)}`,
    );
  return res.data;
}

const tokens = {};
const seed = {};

let fixtureSignIns = 0;
/**
 * Signs in for a fixture. Each sign-in comes from its own client address (the server trusts X-Forwarded-For from
 * loopback here): the suite signs in dozens of times a minute, and from one address it would meet the per-address
 * sign-in limit (20/20s) that the 429 cases test.
 */
async function login(username, password) {
  return must(200, 'POST', '/api/auth/login', { json: { username, password }, headers: fixtureClient() });
}

/** The next fixture client address (see login). */
function fixtureClient() {
  return { 'X-Forwarded-For': `203.0.113.${(fixtureSignIns++ % 254) + 1}` };
}

const admin = () => tokens.admin;

async function newCluster(overrides = {}) {
  const code = `CT-${uniq()}`;
  return must(201, 'POST', '/api-system/clusters', {
    token: admin(),
    json: { code, name: `Contract ${code}`, max_license_bu: 10, is_active: true, ...overrides },
  });
}

/** The id of the cluster's newest event of this action. */
async function eventOf(clusterId, action) {
  const query = `target_type=cluster&target_id=${clusterId}&action=${action}&perpage=1`;
  return (await must(200, 'GET', `/api-system/audit-events?${query}`, { token: admin() })).data[0].id;
}

/** A new cluster renamed once: the cluster as renamed, and the rename's event. */
async function renamedCluster() {
  const c = await newCluster();
  const cluster = await must(200, 'PUT', `/api-system/clusters/${c.id}`, {
    token: admin(),
    json: { code: c.code, name: `${c.name} renamed`, max_license_bu: c.max_license_bu },
  });
  return { cluster, event: await eventOf(c.id, 'updateCluster') };
}

async function newBusinessUnit(clusterId, overrides = {}) {
  const code = `BT-${uniq()}`;
  return must(201, 'POST', '/api-system/business-units', {
    token: admin(),
    json: {
      cluster_id: clusterId,
      code,
      name: `Contract unit ${code}`,
      max_license_users: 10,
      is_hq: false,
      is_active: true,
      ...overrides,
    },
  });
}

async function newClusterMember(clusterId, userId, extra = {}) {
  return must(201, 'POST', '/api-system/user/clusters', {
    token: admin(),
    json: { user_id: userId, cluster_id: clusterId, role: 'user', ...extra },
  });
}

async function newBusinessUnitMember(buId, userId) {
  return must(201, 'POST', '/api-system/user/business-units', {
    token: admin(),
    json: { user_id: userId, business_unit_id: buId, role: 'user' },
  });
}

async function newMapping(overrides = {}) {
  return must(201, 'POST', '/api-system/print-template-mappings', {
    token: admin(),
    json: {
      document_type: 'PO',
      report_template_id: seed.poTemplateId,
      is_default: false,
      display_label: `Contract mapping ${uniq()}`,
      display_order: 90,
      allow_business_unit: [],
      deny_business_unit: [],
      is_active: true,
      ...overrides,
    },
  });
}

async function newWidget(token = admin()) {
  const list = await must(200, 'GET', '/api/proxy/api/datasets?exclude_pinned=true', { token });
  const items = Array.isArray(list) ? list : list.data || list.items;
  const dataset = items[0];
  if (!dataset) throw new Error('no unpinned dataset left for a widget fixture');
  const widgetType = dataset.shape === 'categorical' ? 'bar' : 'kpi';
  return must(201, 'POST', '/api/proxy/api/me/dashboard-widgets', {
    token,
    json: { dataset_id: dataset.id, widget_type: widgetType, title: dataset.name.slice(0, 100) },
  });
}

const ACCOUNT_PASSWORD = 'Andaman-Sunrise-2026';
const CHANGED_PASSWORD = 'Phuket-Lagoon-Morning-7';

/** A new account through the API (no grants; it must change its initial password ACCOUNT_PASSWORD). */
async function newAccount() {
  const username = `ct-${uniq().toLowerCase()}`;
  return must(201, 'POST', '/api-system/users', {
    token: admin(),
    json: {
      username,
      email: `${username}@example.com`,
      firstname: 'Contract',
      middlename: null,
      lastname: 'Account',
      password: ACCOUNT_PASSWORD,
    },
  });
}

/** A new account that has replaced its initial password and is signed in (its access token and session id). */
async function signedInAccount() {
  const account = await newAccount();
  const first = await login(account.username, ACCOUNT_PASSWORD);
  await must(204, 'PUT', '/api-system/me/password', {
    token: first.access_token,
    json: { current_password: ACCOUNT_PASSWORD, new_password: CHANGED_PASSWORD },
    headers: fixtureClient(),
  });
  const session = await login(account.username, CHANGED_PASSWORD);
  const sessions = await must(200, 'GET', '/api-system/me/sessions', { token: session.access_token });
  return { account, token: session.access_token, sessionId: sessions.data.find((x) => x.current).id };
}

/** The quota of an address without a credential, as runner.ts sets it (RATE_LIMIT_PER_ADDRESS=300/60s). */
const ADDRESS_QUOTA = 300;
const QUOTA_WINDOW_MS = 60_000;

/** `count` requests, `width` at a time. */
async function flood(count, width, one) {
  for (let i = 0; i < count; i += width)
    await Promise.all(Array.from({ length: Math.min(width, count - i) }, () => one()));
}

let spent = null;
let spentAddresses = 0;
/**
 * A client address whose quota (without a credential) is spent for a while yet: a new one once the last one's window
 * is two-thirds over, so that every 429 transaction sent from it meets the refusal, however long the suite runs.
 */
async function spentAddress() {
  if (!spent || Date.now() - spent.at > (QUOTA_WINDOW_MS * 2) / 3) {
    const address = `192.0.2.${++spentAddresses}`;
    const at = Date.now();
    // A token that does not verify is refused before the database is asked, and counts on the address.
    await flood(ADDRESS_QUOTA, 25, () =>
      api('GET', '/api/user/permission/platform', {
        headers: { 'X-Forwarded-For': address, Authorization: BAD_TOKEN },
      }),
    );
    spent = { address, at };
  }
  return spent.address;
}

let floodedClients = 0;
/**
 * Spends the sign-in rate limit of one client address (the server trusts X-Forwarded-For from loopback in this
 * suite) and sends the transaction as that client, so it meets the 429 while the suite's own sign-ins go on.
 */
async function asFloodedClient(t, path) {
  const client = `198.51.100.${++floodedClients}`;
  // Exactly the quota (AUTH_RATE_PER_IP=20/20s, set by runner.ts), so the transaction itself is the first one over it.
  await Promise.all(
    Array.from({ length: 20 }, () =>
      api('POST', path, { json: { refresh_token: 'flood' }, headers: { 'X-Forwarded-For': client } }),
    ),
  );
  header(t, 'X-Forwarded-For', client);
}

// ---------------------------------------------------------------------------------------------------------------
// Single sign-on at the runner's OpenID provider (test/support/oidc-idp.ts), straight against the server.

const IDP = 'contract-idp';
const CALLBACK = () => `${SERVER}/api/auth/sso/${IDP}/callback`;

/**
 * Starts a sign-in and signs in at the provider; answers the provider's redirect back, not yet visited, and the
 * state cookie the start set (the callback accepts only the browser that began the sign-in).
 */
async function ssoCallback() {
  const started = await fetch(`${SERVER}/api/auth/sso/${IDP}/start`, { redirect: 'manual', headers: fixtureClient() });
  let url = started.headers.get('location');
  if (!url) throw new Error(`the sign-in did not start: ${started.status}`);
  const stateCookie = started.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith('sso_state='));
  if (!stateCookie) throw new Error('the sign-in start set no state cookie');
  const cookies = new Map();
  let method = 'GET';
  let body;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(CALLBACK())) return { url, stateCookie };
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim());
    }
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
    } else if (res.status === 200 && /\/interaction\/[^/]+$/.test(new URL(url).pathname)) {
      url = `${url}/login`;
      method = 'POST';
      body = new URLSearchParams({ login: process.env.CONTRACT_IDP_LOGIN });
    } else {
      throw new Error(`the provider answered ${res.status} at ${url}`);
    }
  }
  throw new Error('too many redirects at the provider');
}

/** A finished sign-in's one-time code. */
async function ssoCode() {
  const { url, stateCookie } = await ssoCallback();
  const res = await fetch(url, { redirect: 'manual', headers: { ...fixtureClient(), cookie: stateCookie } });
  const location = res.headers.get('location') || '';
  const code = new URLSearchParams(location.slice(location.indexOf('?') + 1)).get('sso_code');
  if (!code) throw new Error(`the sign-in did not finish: ${location}`);
  return code;
}

async function newGroupMapping() {
  return must(201, 'POST', '/api-system/sso/group-mappings', {
    token: admin(),
    json: { provider: IDP, group: `g-${uniq()}`, permission_key: 'cluster.read', cluster_id: null },
  });
}

/** Nothing listens there: the server's dispatcher retries its deliveries, which the suite never waits for. */
const WEBHOOK_URL = 'http://127.0.0.1:9/hooks/platform';

async function newWebhook(extra = {}) {
  return must(201, 'POST', '/api-system/webhooks', {
    token: admin(),
    json: { url: WEBHOOK_URL, event_types: ['createCluster'], ...extra },
  });
}

/** A webhook and one delivery of it: the outbox queues it with the cluster's creation. */
async function newWebhookDelivery() {
  const hook = await newWebhook();
  await newCluster();
  const page = await must(200, 'GET', `/api-system/webhooks/${hook.id}/deliveries`, { token: admin() });
  return { hook, delivery: page.data[0] };
}

/** A new service account through the API, holding cluster.read on CL-A when `withGrant`. */
async function newServiceAccount(withGrant = false) {
  const account = await must(201, 'POST', '/api-system/service-accounts', {
    token: admin(),
    json: { name: `ct-svc-${uniq().toLowerCase()}`, description: 'Contract suite' },
  });
  if (withGrant) await newGrant(account.id, 'cluster.read', seed.clusters['CL-A']);
  return account;
}

/** A token body the server accepts: 90 days ahead, narrowed to cluster.read on CL-A. */
function tokenBody() {
  return {
    name: 'Contract sync',
    expires_at: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    scopes: [{ permission_key: 'cluster.read', cluster_id: seed.clusters['CL-A'] }],
  };
}

async function newGrant(userId, key = 'cluster.read', clusterId = null) {
  return must(201, 'POST', `/api-system/users/${userId}/grants`, {
    token: admin(),
    json: { permission_key: key, cluster_id: clusterId },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Images. Prism reads request bodies as UTF-8 text, so a multipart body that goes through it must be ASCII
// (a typical PNG or JPEG would be mangled). The server checks the structure of every upload (one well-formed
// image, sane dimensions), so the WebP below is a real lossless (VP8L) WebP whose every byte happens to be ASCII.

const VP8L_CHUNK = Buffer.concat([
  Buffer.from('VP8L', 'latin1'),
  Buffer.from([32, 0, 0, 0]), // chunk length
  Buffer.from([0x2f, 0x20, 0x20, 0x20, 0x20]), // signature, then 8225 × 129 pixels
  Buffer.from('A'.repeat(27), 'latin1'),
]);
const ASCII_WEBP = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.from([4 + VP8L_CHUNK.length, 0, 0, 0]),
  Buffer.from('WEBP', 'latin1'),
  VP8L_CHUNK,
]);
if (![...ASCII_WEBP].every((b) => b < 0x80)) throw new Error('the proxy-safe WebP must be ASCII');
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
// SOI, a 1 × 1 baseline frame header, a scan header, two bytes of scan data, EOI.
const JPEG_1PX = Buffer.from([
  0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xff, 0xda, 0x00, 0x08,
  0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0x34, 0xff, 0xd9,
]);

function multipart(field, content, filename, contentType) {
  const boundary = `----contract${uniq()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return { body: `${head}${content}\r\n--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads an image straight to the server (binary is fine there) and returns its signed URL. */
async function uploadDirect(kind, id, field, bytes, type, filename) {
  const form = new FormData();
  form.append(field, new Blob([bytes], { type }), filename);
  const data = await must(200, 'POST', `/api-system/${kind}/${id}/${field}`, { token: admin(), form });
  return data.url;
}

// ---------------------------------------------------------------------------------------------------------------
// Transaction helpers

function header(t, name, value) {
  for (const k of Object.keys(t.request.headers))
    if (k.toLowerCase() === name.toLowerCase()) delete t.request.headers[k];
  if (value !== undefined && value !== null) t.request.headers[name] = value;
}

function as(t, who) {
  header(t, 'Authorization', who === null ? undefined : who === 'bad' ? BAD_TOKEN : `Bearer ${tokens[who]}`);
}

/** Replaces path parameters of the operation's template and, optionally, the query string. */
function url(t, params = {}, query) {
  const template = t.operation.path;
  const currentQuery = t.fullPath.includes('?') ? t.fullPath.slice(t.fullPath.indexOf('?') + 1) : '';
  let p = template.replace(/\{(\w+)\}/g, (_, name) => {
    if (!(name in params)) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(params[name]);
  });
  const q =
    query === undefined ? currentQuery : typeof query === 'string' ? query : new URLSearchParams(query).toString();
  if (q) p += `?${q}`;
  t.fullPath = p;
  t.request.uri = p;
}

function id(t, value) {
  url(t, { id: value });
}

function json(t, body) {
  t.request.body = JSON.stringify(body);
  header(t, 'Content-Type', 'application/json');
}

function exampleBody(t) {
  return t.request.body ? JSON.parse(t.request.body) : {};
}

function upload(t, field, content, filename = 'image.webp', type = 'image/webp') {
  const m = multipart(field, content, filename, type);
  t.request.body = m.body;
  header(t, 'Content-Type', m.contentType);
}

/**
 * Sends the transaction straight to the server: Prism's proxy follows a redirect instead of passing it on, so a 302
 * of the sign-in redirects is checked by Dredd alone (status and Location against the contract).
 */
function direct(t) {
  t.port = new URL(SERVER).port;
}

/** Sends the transaction through the lenient proxy: for requests that break the contract on purpose. */
function lenient(t) {
  t.port = LENIENT_PORT;
}

function queryOf(t, changes) {
  const q = new URLSearchParams(t.fullPath.includes('?') ? t.fullPath.slice(t.fullPath.indexOf('?') + 1) : '');
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) q.delete(k);
    else q.set(k, String(v));
  }
  return q.toString();
}

// ---------------------------------------------------------------------------------------------------------------
// Second factor

/** The RFC 6238 code of a base32 secret at `step` (30-second steps, six digits, SHA-1), as an authenticator app shows it. */
function totpCode(secret, step = Math.floor(Date.now() / 30_000)) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * A new account with a confirmed authenticator app: `passwordToken` is the session it enrolled from (a password
 * alone, so it is asked for a step-up), `login` signs in again up to the second step, `recoveryCodes` are its ten.
 */
async function totpAccount() {
  const { account, token } = await signedInAccount();
  const enrolment = await must(200, 'POST', '/api-system/me/second-factors/totp', { token });
  const confirmed = await must(200, 'POST', '/api-system/me/second-factors/totp/confirm', {
    token,
    json: { code: totpCode(enrolment.secret) },
  });
  const recoveryCodes = [...confirmed.recovery_codes];
  const challenge = async () => {
    const res = await api('POST', '/api/auth/login', {
      json: { username: account.username, password: CHANGED_PASSWORD },
      headers: fixtureClient(),
    });
    if (res.status !== 202) throw new Error(`sign-in of ${account.username} answered ${res.status}, not 202`);
    return res.data.second_factor_token;
  };
  const secondStep = async () =>
    (
      await must(200, 'POST', '/api/auth/second-factor', {
        json: { second_factor_token: await challenge(), method: 'recovery_code', code: recoveryCodes.pop() },
        headers: fixtureClient(),
      })
    ).access_token;
  return { account, passwordToken: token, secret: enrolment.secret, recoveryCodes, challenge, secondStep };
}

/** What a case changed for its transaction only (a global policy), undone once the transaction is done. */
const undoAfterTransaction = new Map();
function undoAfter(t, undo) {
  undoAfterTransaction.set(t.name, undo);
}

/** The provider's account of the suite, with an authenticator app set up on its product account (once). */
let ssoTotpAccount = null;
function ssoAccountWithTotp() {
  ssoTotpAccount ??= (async () => {
    const { access_token: token } = await must(200, 'POST', '/api/auth/sso/exchange', {
      json: { code: await ssoCode() },
      headers: fixtureClient(),
    });
    const enrolment = await must(200, 'POST', '/api-system/me/second-factors/totp', { token });
    await must(200, 'POST', '/api-system/me/second-factors/totp/confirm', {
      token,
      json: { code: totpCode(enrolment.secret) },
    });
  })();
  return ssoTotpAccount;
}

const setSsoSignIns = (ssoSignIns) =>
  must(200, 'PUT', '/api-system/second-factor-policy', {
    token: admin(),
    json: { required_for: 'none', sso_sign_ins: ssoSignIns },
  });

/** A sign-in step sent as a client of its own, so the suite's other sign-ins keep their quota. */
function ownClient(t) {
  header(t, 'X-Forwarded-For', fixtureClient()['X-Forwarded-For']);
}

function bearer(t, token) {
  header(t, 'Authorization', `Bearer ${token}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Negative cases shared by many operations

const generic = {
  /** A token the server cannot verify (Prism only checks that a bearer token is there, so this reaches the server). */
  401: async (t) => as(t, 'bad'),
  /** A random, well-formed id that no record has (the example body, valid by the contract, stays). */
  404: async (t) => {
    if (!/\{id\}/.test(t.operation.path)) throw new Error(`no generic 404 for ${t.operation.operationId}`);
    id(t, NO_SUCH_ID);
  },
  /**
   * Sent from a client address that has spent its quota, with a credential that does not authenticate (so counted on
   * the address: an anonymous caller's quota), through the lenient proxy (the example request, whatever its body).
   * Sign-in's quotas are met on the /api/auth operations; a credential's own quota, which the same middleware counts
   * and refuses alike, by test/server/rate-limit.test.ts on every operation (spending it here would cost thousands
   * of requests that each load the caller).
   */
  429: async (t) => {
    if (t.operation.security === undefined || t.operation.security.length > 0) as(t, 'bad');
    header(t, 'X-Forwarded-For', await spentAddress());
    lenient(t);
  },
  /** A malformed path id (contract: uuid), or else an undocumented query parameter → 400 from the validator. */
  400: async (t) => {
    if (/\{id\}/.test(t.operation.path)) id(t, 'not-a-uuid');
    else url(t, {}, queryOf(t, { unknown_parameter: 'x' }));
    lenient(t);
  },
};

/** The success case's request, sent by an account that lacks the permission → 403. */
function deny(who) {
  return async (t) => {
    await positive(t);
    as(t, who);
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Per operation: `ok` prepares the success transaction (and is reused by the generic negatives to get a valid
// path and body); other keys are statuses with their own negative case.

const cases = {
  getHealth: {},
  // The second factor: every account that sets one up is a new one, so the demo's admin never needs a step-up.
  verifySecondFactor: {
    // Counted on sign-in's own quota per client, as the password is.
    429: async (t) => asFloodedClient(t, '/api/auth/second-factor'),
    ok: async (t) => {
      const a = await totpAccount();
      ownClient(t);
      json(t, { second_factor_token: await a.challenge(), method: 'recovery_code', code: a.recoveryCodes.pop() });
    },
    400: async (t) => {
      ownClient(t);
      json(t, { second_factor_token: 'x'.repeat(43), method: 'sms', code: '123456' });
      lenient(t);
    },
    401: async (t) => {
      ownClient(t);
      json(t, { second_factor_token: 'x'.repeat(43), method: 'totp', code: '123456' });
    },
  },
  passkeySignInOptions: {
    429: async (t) => asFloodedClient(t, '/api/auth/passkey/options'),
    ok: async (t) => {
      ownClient(t);
      json(t, {});
    },
    400: async (t) => {
      ownClient(t);
      json(t, { second_factor_token: 42 });
      lenient(t);
    },
    401: async (t) => {
      ownClient(t);
      json(t, { second_factor_token: 'x'.repeat(43) });
    },
  },
  signInWithPasskey: {
    429: async (t) => asFloodedClient(t, '/api/auth/passkey'),
    400: async (t) => {
      ownClient(t);
      json(t, { challenge_id: 'not-a-uuid' });
      lenient(t);
    },
    // An answer to a challenge the server never made.
    401: async (t) => {
      ownClient(t);
      json(t, { ...exampleBody(t), challenge_id: randomUUID() });
    },
  },
  getSecondFactorPolicy: {},
  updateSecondFactorPolicy: {
    // The policy the suite runs under, set again: every later transaction still signs in without a second factor.
    ok: async (t) => json(t, { required_for: 'none', sso_sign_ins: 'trusted' }),
    403: async (t) => {
      json(t, { required_for: 'none', sso_sign_ins: 'trusted' });
      as(t, 'operator');
    },
  },
  getUserSecondFactors: {
    ok: async (t) => id(t, (await newAccount()).id),
    403: deny('operator'),
  },
  resetSecondFactors: {
    ok: async (t) => id(t, (await totpAccount()).account.id),
    403: deny('operator'),
  },
  getMySecondFactors: {},
  startTotpEnrolment: {
    ok: async (t) => bearer(t, (await signedInAccount()).token),
    409: async (t) => bearer(t, await (await totpAccount()).secondStep()),
  },
  confirmTotpEnrolment: {
    ok: async (t) => {
      const { token } = await signedInAccount();
      const enrolment = await must(200, 'POST', '/api-system/me/second-factors/totp', { token });
      bearer(t, token);
      json(t, { code: totpCode(enrolment.secret) });
    },
    400: async (t) => {
      const { token } = await signedInAccount();
      await must(200, 'POST', '/api-system/me/second-factors/totp', { token });
      bearer(t, token);
      json(t, { code: '00000' });
      lenient(t);
    },
    404: async (t) => {
      bearer(t, (await signedInAccount()).token);
      json(t, { code: '123456' });
    },
  },
  removeTotp: {
    ok: async (t) => bearer(t, await (await totpAccount()).secondStep()),
    403: async (t) => bearer(t, (await totpAccount()).passwordToken),
    404: async (t) => bearer(t, (await signedInAccount()).token),
  },
  regenerateRecoveryCodes: {
    ok: async (t) => bearer(t, await (await totpAccount()).secondStep()),
    403: async (t) => bearer(t, (await totpAccount()).passwordToken),
    409: async (t) => bearer(t, (await signedInAccount()).token),
  },
  passkeyRegistrationOptions: {
    ok: async (t) => bearer(t, (await signedInAccount()).token),
  },
  registerPasskey: {
    // An answer to a challenge the server never made.
    400: async (t) => {
      bearer(t, (await signedInAccount()).token);
      json(t, { ...exampleBody(t), challenge_id: randomUUID() });
    },
    403: async (t) => {
      bearer(t, (await totpAccount()).passwordToken);
      json(t, { ...exampleBody(t), challenge_id: randomUUID() });
    },
  },
  removePasskey: {
    400: async (t) => {
      url(t, { passkeyId: 'not-a-uuid' });
      lenient(t);
    },
    404: async (t) => {
      url(t, { passkeyId: NO_SUCH_ID });
      bearer(t, (await signedInAccount()).token);
    },
    403: async (t) => {
      url(t, { passkeyId: NO_SUCH_ID });
      bearer(t, (await totpAccount()).passwordToken);
    },
  },
  stepUpPasskeyOptions: {
    409: async (t) => bearer(t, (await signedInAccount()).token),
  },
  stepUp: {
    ok: async (t) => {
      const a = await totpAccount();
      bearer(t, a.passwordToken);
      json(t, { method: 'recovery_code', code: a.recoveryCodes.pop() });
    },
    // An account with no second factor has nothing to confirm with.
    409: async (t) => bearer(t, (await signedInAccount()).token),
  },
  login: {
    ok: async (t) => json(t, { username: 'admin', password: ADMIN_PASSWORD }),
    // The right password of an account with an authenticator app: the second step is asked for.
    202: async (t) => {
      const { account } = await totpAccount();
      header(t, 'X-Forwarded-For', fixtureClient()['X-Forwarded-For']);
      json(t, { username: account.username, password: CHANGED_PASSWORD });
    },
    400: async (t) => {
      json(t, { password: 'no username or email' });
      lenient(t);
    },
    // Failures delay their client over every account it tries, so each failing case comes from a client of its own.
    401: async (t) => {
      header(t, 'X-Forwarded-For', `198.51.100.${++floodedClients}`);
      json(t, { username: `nobody-${uniq().toLowerCase()}`, password: 'wrong-password' });
    },
    429: async (t) => {
      const username = `locked-${uniq().toLowerCase()}`;
      const client = `198.51.100.${++floodedClients}`;
      for (let i = 0; i < 5; i++)
        await api('POST', '/api/auth/login', {
          json: { username, password: 'wrong-password' },
          headers: { 'X-Forwarded-For': client },
        });
      header(t, 'X-Forwarded-For', client);
      json(t, { username, password: 'wrong-password' });
    },
  },
  refreshToken: {
    ok: async (t) => json(t, { refresh_token: (await login('viewer', DEMO_PASSWORD)).refresh_token }),
    400: async (t) => {
      json(t, {});
      lenient(t);
    },
    401: async (t) => json(t, { refresh_token: 'not-a-refresh-token-we-ever-issued' }),
    429: async (t) => {
      json(t, { refresh_token: 'not-a-refresh-token-we-ever-issued' });
      await asFloodedClient(t, '/api/auth/refresh-token');
    },
  },
  logout: {
    ok: async (t) => json(t, { refresh_token: (await login('viewer', DEMO_PASSWORD)).refresh_token }),
    400: async (t) => {
      json(t, {});
      lenient(t);
    },
    429: async (t) => {
      json(t, { refresh_token: 'not-a-refresh-token-we-ever-issued' });
      await asFloodedClient(t, '/api/auth/logout');
    },
  },
  listSsoProviders: {
    429: async (t) => asFloodedClient(t, '/api/auth/sso/providers'),
  },
  startSsoSignIn: {
    ok: async (t) => {
      url(t, { provider: IDP }, 'return_to=%2Fclusters');
      direct(t);
    },
    400: async (t) => {
      url(t, { provider: IDP }, 'return_to=https%3A%2F%2Fevil.example');
      lenient(t);
    },
    404: async (t) => url(t, { provider: 'nobody' }, ''),
    429: async (t) => {
      url(t, { provider: IDP }, '');
      await asFloodedClient(t, `/api/auth/sso/${IDP}/start`);
    },
  },
  completeSsoSignIn: {
    // The provider's redirect back after a real sign-in there.
    ok: async (t) => {
      const { url: callback, stateCookie } = await ssoCallback();
      url(t, { provider: IDP }, new URL(callback).search.slice(1));
      header(t, 'Cookie', stateCookie);
      direct(t);
    },
    400: async (t) => {
      url(t, { provider: IDP }, `state=${'s'.repeat(201)}`);
      lenient(t);
    },
    404: async (t) => url(t, { provider: 'nobody' }, 'state=x&code=y'),
    429: async (t) => {
      url(t, { provider: IDP }, 'state=x&code=y');
      await asFloodedClient(t, `/api/auth/sso/${IDP}/callback`);
    },
  },
  exchangeSsoCode: {
    ok: async (t) => json(t, { code: await ssoCode() }),
    // The policy asks single sign-ons for the second factor too, and the provider's account has an authenticator app:
    // the second step is asked for. The suite's own policy (trusted) is back once the transaction is done.
    202: async (t) => {
      await ssoAccountWithTotp();
      await setSsoSignIns('second-factor');
      undoAfter(t, () => setSsoSignIns('trusted'));
      json(t, { code: await ssoCode() });
    },
    400: async (t) => {
      json(t, {});
      lenient(t);
    },
    401: async (t) => json(t, { code: 'a-code-this-service-never-issued-0123456789' }),
    429: async (t) => {
      json(t, { code: 'a-code-this-service-never-issued-0123456789' });
      await asFloodedClient(t, '/api/auth/sso/exchange');
    },
  },
  logoutSso: {
    ok: async (t) => json(t, { refresh_token: (await login('viewer', DEMO_PASSWORD)).refresh_token }),
    400: async (t) => {
      json(t, {});
      lenient(t);
    },
    429: async (t) => {
      json(t, { refresh_token: 'not-a-refresh-token-we-ever-issued' });
      await asFloodedClient(t, '/api/auth/sso/logout');
    },
  },
  listSsoGroupMappings: {
    403: deny('operator'),
  },
  createSsoGroupMapping: {
    ok: async (t) => json(t, { provider: IDP, group: `g-${uniq()}`, permission_key: 'cluster.read', cluster_id: null }),
    // A provider that is not configured.
    400: async (t) => json(t, { provider: 'nobody', group: 'g', permission_key: 'cluster.read', cluster_id: null }),
    403: deny('operator'),
    404: async (t) =>
      json(t, { provider: IDP, group: `g-${uniq()}`, permission_key: 'cluster.read', cluster_id: NO_SUCH_ID }),
    409: async (t) => {
      const m = await newGroupMapping();
      json(t, { provider: IDP, group: m.group, permission_key: m.permission_key, cluster_id: null });
    },
  },
  deleteSsoGroupMapping: {
    ok: async (t) => id(t, (await newGroupMapping()).id),
    403: deny('operator'),
  },
  listWebhookEventTypes: { 403: deny('operator') },
  listWebhooks: { 403: deny('operator') },
  createWebhook: {
    ok: async (t) =>
      json(t, {
        url: WEBHOOK_URL,
        description: 'Partner ERP sync',
        event_types: ['updateCluster', 'createBusinessUnit'],
        cluster_id: seed.clusters['CL-A'],
      }),
    // Not http(s): the server's guard, not the schema, refuses it.
    400: async (t) => json(t, { url: 'ftp://127.0.0.1/hooks', event_types: ['updateCluster'] }),
    403: deny('operator'),
    404: async (t) => json(t, { url: WEBHOOK_URL, event_types: ['updateCluster'], cluster_id: NO_SUCH_ID }),
  },
  getWebhook: {
    ok: async (t) => id(t, (await newWebhook()).id),
    403: deny('operator'),
  },
  updateWebhook: {
    ok: async (t) => {
      id(t, (await newWebhook()).id);
      json(t, { is_active: true });
    },
    403: deny('operator'),
    412: async (t) => {
      id(t, (await newWebhook()).id);
      json(t, { is_active: true });
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  deleteWebhook: {
    ok: async (t) => id(t, (await newWebhook()).id),
    403: deny('operator'),
  },
  rotateWebhookSecret: {
    ok: async (t) => id(t, (await newWebhook()).id),
    403: deny('operator'),
  },
  listWebhookDeliveries: {
    ok: async (t) => id(t, (await newWebhookDelivery()).hook.id),
    403: deny('operator'),
  },
  redeliverWebhookDelivery: {
    ok: async (t) => {
      const { hook, delivery } = await newWebhookDelivery();
      url(t, { id: hook.id, deliveryId: delivery.id });
    },
    400: async (t) => {
      url(t, { id: 'not-a-uuid', deliveryId: NO_SUCH_ID });
      lenient(t);
    },
    403: deny('operator'),
    404: async (t) => url(t, { id: (await newWebhook()).id, deliveryId: NO_SUCH_ID }),
    // A disabled webhook sends nothing until it is turned back on.
    409: async (t) => {
      const { hook, delivery } = await newWebhookDelivery();
      await must(200, 'PATCH', `/api-system/webhooks/${hook.id}`, { token: admin(), json: { is_active: false } });
      url(t, { id: hook.id, deliveryId: delivery.id });
    },
  },
  getUserSso: {
    ok: async (t) => id(t, (await newAccount()).id),
    403: deny('operator'),
  },
  setUserSsoOnly: {
    ok: async (t) => {
      id(t, (await newAccount()).id);
      json(t, { sso_only: false });
    },
    403: deny('operator'),
    // An account never linked to a provider cannot be made SSO-only.
    409: async (t) => {
      id(t, (await newAccount()).id);
      json(t, { sso_only: true });
    },
  },
  getPlatformPermissions: {},
  listWidgets: {},
  createWidget: {
    ok: async (t) => {
      const list = await must(200, 'GET', '/api/proxy/api/datasets?exclude_pinned=true', { token: tokens.operator });
      const items = Array.isArray(list) ? list : list.data || list.items;
      const dataset = items[0];
      as(t, 'operator');
      json(t, {
        dataset_id: dataset.id,
        widget_type: dataset.shape === 'categorical' ? 'bar' : 'kpi',
        title: `Contract ${dataset.name}`.slice(0, 100),
      });
    },
    // A dataset id that is well-formed but not in the catalog: rejected by the server, not by the contract.
    400: async (t) => json(t, { dataset_id: 'contract.no-such-dataset', widget_type: 'kpi', title: 'Nothing' }),
    409: async (t) => {
      as(t, 'admin');
      const widget = await newWidget();
      json(t, { dataset_id: widget.dataset_id, widget_type: widget.widget_type, title: 'Pinned twice' });
    },
  },
  deleteWidget: {
    ok: async (t) => id(t, (await newWidget()).id),
  },
  updateWidget: {
    ok: async (t) => {
      id(t, (await newWidget()).id);
      json(t, { order_index: 20, title: 'Renamed by the contract suite' });
    },
    412: async (t) => {
      id(t, (await newWidget()).id);
      json(t, { title: 'Stale' });
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  listDatasets: {
    400: async (t) => {
      url(t, {}, 'exclude_pinned=perhaps');
      lenient(t);
    },
  },
  getDatasetValues: {
    ok: async (t) => id(t, 'tenancy.active-clusters'),
    400: async (t) => {
      id(t, 'Not A Dataset Id!');
      lenient(t);
    },
    // A platform-wide figure, asked for by a caller without a platform-wide grant.
    403: async (t) => {
      id(t, 'users.by-role');
      as(t, 'operator');
    },
    404: async (t) => id(t, 'contract.no-such-dataset'),
  },
  countMyPendingPurchaseRequests: {},
  countMyPendingPurchaseOrders: {},
  countMyPendingStoreRequisitions: {},
  listPendingApprovals: {},
  getApprovalSummary: {},

  listClusters: {
    ok: async (t) => url(t, {}, 'page=1&perpage=10&search=andaman&sort=created_at:desc&is_active=true&deleted=exclude'),
    400: async (t) => {
      url(t, {}, 'sort=no_such_field:asc');
      lenient(t);
    },
    403: deny('mapper'),
  },
  exportClusters: {
    ok: async (t) => url(t, {}, 'search=andaman&sort=created_at:desc&is_active=true&deleted=exclude'),
    400: async (t) => {
      url(t, {}, 'sort=no_such_field:asc');
      lenient(t);
    },
    403: deny('mapper'),
  },
  createCluster: {
    ok: async (t) => {
      const code = `CC-${uniq()}`;
      json(t, { ...exampleBody(t), code, name: `Contract created ${code}` });
    },
    400: async (t) => {
      json(t, { name: 'A cluster without a code' });
      lenient(t);
    },
    403: deny('viewer'),
    // Live clusters are unique by code and name together.
    409: async (t) => json(t, { ...exampleBody(t), code: 'CL-A', name: 'Andaman Hotels Group' }),
  },
  getCluster: {
    ok: async (t) => id(t, seed.clusters['CL-A']),
    403: deny('mapper'),
  },
  updateCluster: {
    ok: async (t) => {
      const c = await newCluster();
      id(t, c.id);
      json(t, { ...exampleBody(t), code: c.code, name: `${c.name} renamed`, max_license_bu: 6 });
    },
    403: deny('editor-a'), // editor-a may update CL-A only; the fixture is another cluster
    404: async (t) => {
      id(t, NO_SUCH_ID);
      json(t, { ...exampleBody(t), code: `CX-${uniq()}` });
    },
    409: async (t) => {
      const c = await newCluster();
      id(t, c.id);
      json(t, { ...exampleBody(t), code: 'CL-B', name: 'Bangkok Boutique Collection' });
    },
    412: async (t) => {
      const c = await newCluster();
      id(t, c.id);
      json(t, { ...exampleBody(t), code: c.code, name: c.name });
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  bulkClusters: {
    ok: async (t) => json(t, { action: 'delete', ids: [(await newCluster()).id] }),
    // An empty selection is a bad request, not an empty result.
    400: async (t) => {
      json(t, { action: 'delete', ids: [] });
      lenient(t);
    },
    403: deny('mapper'),
  },
  deleteCluster: {
    ok: async (t) => id(t, (await newCluster()).id),
    403: deny('viewer'),
  },
  restoreCluster: {
    ok: async (t) => {
      const c = await newCluster();
      await must(204, 'DELETE', `/api-system/clusters/${c.id}`, { token: admin() });
      id(t, c.id);
    },
    403: deny('viewer'),
    409: async (t) => {
      const c = await newCluster();
      await must(204, 'DELETE', `/api-system/clusters/${c.id}`, { token: admin() });
      await newCluster({ code: c.code, name: c.name });
      id(t, c.id);
    },
  },
  uploadClusterLogo: uploadCases('clusters', 'logo'),
  uploadClusterAvatar: uploadCases('clusters', 'avatar'),
  deleteClusterLogo: removalCases('clusters', 'logo'),
  deleteClusterAvatar: removalCases('clusters', 'avatar'),
  importMemberships: {
    ok: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id);
      const account = await newAccount();
      upload(
        t,
        'file',
        `user,business_unit,role,active\n${account.username},${bu.code},admin,true\n`,
        'members.csv',
        'text/csv',
      );
    },
    // A file without its header line: valid by the contract, refused by the server naming line 1.
    400: async (t) => upload(t, 'file', 'somchai@example.com,A-PKT,admin,true\n', 'members.csv', 'text/csv'),
    401: async (t) => {
      upload(t, 'file', 'user,business_unit\nsomchai@example.com,A-PKT\n', 'members.csv', 'text/csv');
      as(t, 'bad');
    },
    // viewer reads every cluster but holds cluster.update on none.
    403: deny('viewer'),
    // One byte over 5 MB.
    413: async (t) =>
      upload(t, 'file', `user,business_unit\n${'x'.repeat(5 * 1024 * 1024 + 1 - 19)}`, 'members.csv', 'text/csv'),
  },
  addClusterUser: {
    ok: async (t) => {
      const c = await newCluster();
      json(t, { user_id: seed.users.john, cluster_id: c.id, role: 'user', is_active: true });
    },
    400: async (t) => {
      json(t, { user_id: seed.users.john });
      lenient(t);
    },
    403: async (t) => {
      json(t, { user_id: seed.users.john, cluster_id: seed.clusters['CL-B'], role: 'user', is_active: true });
      as(t, 'editor-a');
    },
    404: async (t) =>
      json(t, { user_id: NO_SUCH_ID, cluster_id: seed.clusters['CL-A'], role: 'user', is_active: true }),
    409: async (t) =>
      json(t, { user_id: seed.users['editor-a'], cluster_id: seed.clusters['CL-A'], role: 'user', is_active: true }),
  },
  listClusterUsers: {
    ok: async (t) => id(t, seed.clusters['CL-A']),
    403: deny('mapper'),
  },
  exportClusterMembers: {
    ok: async (t) => url(t, {}, `cluster_id=${seed.clusters['CL-A']}`),
    403: deny('mapper'),
    404: async (t) => url(t, {}, `cluster_id=${NO_SUCH_ID}`),
  },
  updateClusterUser: {
    ok: async (t) => {
      const c = await newCluster();
      const bu = await newBusinessUnit(c.id);
      const m = await newClusterMember(c.id, seed.users.john);
      id(t, m.id);
      json(t, { role: 'admin', parent_bu_id: bu.id });
    },
    412: async (t) => {
      const m = await newClusterMember((await newCluster()).id, seed.users.john);
      id(t, m.id);
      json(t, { role: 'admin' });
      header(t, 'If-Match', 'W/"stale-version"');
    },
    403: deny('viewer'),
    404: async (t) => {
      id(t, NO_SUCH_ID);
      json(t, { role: 'admin' });
    },
    // The parent business unit belongs to another cluster.
    409: async (t) => {
      const c = await newCluster();
      const m = await newClusterMember(c.id, seed.users.john);
      id(t, m.id);
      json(t, { parent_bu_id: seed.businessUnits['B-HQ'] });
    },
  },
  removeClusterUser: {
    ok: async (t) => {
      const c = await newCluster();
      id(t, (await newClusterMember(c.id, seed.users.john)).id);
    },
    403: deny('viewer'),
  },
  searchUsers: {
    ok: async (t) => url(t, {}, { page: 1, perpage: 10, search: 'o', exclude_cluster_id: seed.clusters['CL-A'] }),
    400: async (t) => {
      url(t, {}, 'perpage=100000');
      lenient(t);
    },
    403: deny('viewer'),
    // Leaving out the members of a cluster the caller cannot read is refused as a missing cluster.
    404: async (t) => {
      as(t, 'editor-a');
      url(t, {}, { page: 1, perpage: 10, exclude_cluster_id: seed.clusters['CL-B'] });
    },
  },

  listBusinessUnits: {
    ok: async (t) =>
      url(
        t,
        {},
        {
          page: 1,
          perpage: 10,
          search: 'andaman',
          sort: 'name:asc',
          is_active: true,
          deleted: 'exclude',
          cluster_id: seed.clusters['CL-A'],
        },
      ),
    400: async (t) => {
      url(t, {}, 'sort=no_such_field:asc');
      lenient(t);
    },
    403: deny('mapper'),
  },
  exportBusinessUnits: {
    ok: async (t) => url(t, {}, `cluster_id=${seed.clusters['CL-A']}&sort=name:asc&page=1&perpage=10`),
    400: async (t) => {
      url(t, {}, 'sort=no_such_field:asc');
      lenient(t);
    },
    403: deny('mapper'),
  },
  createBusinessUnit: {
    ok: async (t) => {
      const c = await newCluster();
      json(t, { ...exampleBody(t), cluster_id: c.id, code: `BC-${uniq()}` });
    },
    400: async (t) => {
      json(t, { name: 'A unit without a cluster or code' });
      lenient(t);
    },
    403: async (t) => {
      json(t, { ...exampleBody(t), cluster_id: seed.clusters['CL-B'], code: `BC-${uniq()}` });
      as(t, 'editor-a');
    },
    // Licence cap: a cluster allowed no business units at all.
    409: async (t) => {
      const c = await newCluster({ max_license_bu: 0 });
      json(t, { ...exampleBody(t), cluster_id: c.id, code: `BC-${uniq()}` });
    },
  },
  getBusinessUnit: {
    ok: async (t) => id(t, seed.businessUnits['A-PKT']),
    // operator may read no cluster at all; editor-a (CL-A only) would get the 404 of a missing id for B-HQ.
    403: async (t) => {
      id(t, seed.businessUnits['B-HQ']);
      as(t, 'operator');
    },
  },
  updateBusinessUnit: {
    ok: async (t) => {
      const c = await newCluster();
      const bu = await newBusinessUnit(c.id);
      id(t, bu.id);
      json(t, { ...exampleBody(t), cluster_id: c.id, code: bu.code });
    },
    403: async (t) => {
      id(t, seed.businessUnits['B-HQ']);
      json(t, { ...exampleBody(t), cluster_id: seed.clusters['CL-B'], code: 'B-HQ' });
      as(t, 'viewer');
    },
    404: async (t) => {
      id(t, NO_SUCH_ID);
      json(t, { ...exampleBody(t), cluster_id: seed.clusters['CL-A'], code: `BX-${uniq()}` });
    },
    // Another live unit of the same cluster holds the code.
    409: async (t) => {
      const c = await newCluster();
      const a = await newBusinessUnit(c.id);
      const b = await newBusinessUnit(c.id);
      id(t, b.id);
      json(t, { ...exampleBody(t), cluster_id: c.id, code: a.code });
    },
    412: async (t) => {
      const c = await newCluster();
      const bu = await newBusinessUnit(c.id);
      id(t, bu.id);
      json(t, { ...exampleBody(t), cluster_id: c.id, code: bu.code });
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  bulkBusinessUnits: {
    ok: async (t) => json(t, { action: 'deactivate', ids: [(await newBusinessUnit((await newCluster()).id)).id] }),
    400: async (t) => {
      json(t, { action: 'archive', ids: [NO_SUCH_ID] });
      lenient(t);
    },
    403: deny('mapper'),
  },
  deleteBusinessUnit: {
    ok: async (t) => id(t, (await newBusinessUnit((await newCluster()).id)).id),
    403: deny('viewer'),
  },
  restoreBusinessUnit: {
    ok: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id);
      await must(204, 'DELETE', `/api-system/business-units/${bu.id}`, { token: admin() });
      id(t, bu.id);
    },
    403: deny('viewer'),
    // Its cluster is deleted: restore the cluster first.
    409: async (t) => {
      const c = await newCluster();
      const bu = await newBusinessUnit(c.id);
      await must(204, 'DELETE', `/api-system/business-units/${bu.id}`, { token: admin() });
      await must(204, 'DELETE', `/api-system/clusters/${c.id}`, { token: admin() });
      id(t, bu.id);
    },
  },
  uploadBusinessUnitLogo: uploadCases('business-units', 'logo'),
  uploadBusinessUnitAvatar: uploadCases('business-units', 'avatar'),
  deleteBusinessUnitLogo: removalCases('business-units', 'logo'),
  deleteBusinessUnitAvatar: removalCases('business-units', 'avatar'),
  addBusinessUnitUser: {
    ok: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id);
      json(t, { user_id: seed.users.john, business_unit_id: bu.id, role: 'user' });
    },
    400: async (t) => {
      json(t, { user_id: seed.users.john });
      lenient(t);
    },
    403: async (t) => {
      json(t, { user_id: seed.users.john, business_unit_id: seed.businessUnits['B-HQ'], role: 'user' });
      as(t, 'viewer');
    },
    404: async (t) => json(t, { user_id: seed.users.john, business_unit_id: NO_SUCH_ID, role: 'user' }),
    // Licence cap: a unit allowed no users.
    409: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id, { max_license_users: 0 });
      json(t, { user_id: seed.users.john, business_unit_id: bu.id, role: 'user' });
    },
  },
  listBusinessUnitUsers: {
    ok: async (t) => id(t, seed.businessUnits['A-PKT']),
    403: async (t) => {
      id(t, seed.businessUnits['B-HQ']);
      as(t, 'operator');
    },
  },
  exportBusinessUnitMembers: {
    ok: async (t) => url(t, {}, `business_unit_id=${seed.businessUnits['A-PKT']}`),
    403: async (t) => {
      url(t, {}, `business_unit_id=${seed.businessUnits['B-HQ']}`);
      as(t, 'operator');
    },
    404: async (t) => url(t, {}, `business_unit_id=${NO_SUCH_ID}`),
  },
  removeBusinessUnitUser: {
    ok: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id);
      id(t, (await newBusinessUnitMember(bu.id, seed.users.john)).id);
    },
    403: deny('viewer'),
  },
  updateBusinessUnitUser: {
    ok: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id);
      id(t, (await newBusinessUnitMember(bu.id, seed.users.john)).id);
      json(t, { role: 'admin', is_active: true });
    },
    412: async (t) => {
      const bu = await newBusinessUnit((await newCluster()).id);
      id(t, (await newBusinessUnitMember(bu.id, seed.users.john)).id);
      json(t, { role: 'admin' });
      header(t, 'If-Match', 'W/"stale-version"');
    },
    403: deny('viewer'),
  },

  listPrintTemplateMappings: {
    ok: async (t) =>
      url(t, {}, 'document_type=PO&active_only=true&page=1&perpage=10&sort=document_type:asc,display_order:asc'),
    400: async (t) => {
      url(t, {}, 'sort=no_such_field:asc');
      lenient(t);
    },
  },
  createPrintTemplateMapping: {
    ok: async (t) => {
      as(t, 'mapper');
      json(t, {
        ...exampleBody(t),
        report_template_id: seed.poTemplateId,
        is_default: false,
        deny_business_unit: ['A-KBI'],
      });
    },
    400: async (t) => {
      json(t, { ...exampleBody(t), report_template_id: seed.poTemplateId, document_type: 'NOT-A-TYPE' });
      lenient(t);
    },
    403: async (t) => {
      json(t, { ...exampleBody(t), report_template_id: seed.poTemplateId });
      as(t, 'viewer');
    },
  },
  exportPrintTemplateMappings: {
    ok: async (t) => url(t, {}, 'document_type=PO&active_only=true&sort=document_type:asc,display_order:asc'),
    400: async (t) => {
      url(t, {}, 'sort=no_such_field:asc');
      lenient(t);
    },
  },
  listDocumentTypes: {},
  resolvePrintTemplateMapping: {
    ok: async (t) => url(t, {}, 'document_type=PO&bu_code=A-PKT&explain=true'),
    400: async (t) => {
      url(t, {}, 'document_type=&bu_code=A-PKT');
      lenient(t);
    },
    404: async (t) => url(t, {}, 'document_type=NO-SUCH-TYPE&bu_code=A-PKT'),
  },
  getPrintTemplateMapping: {
    ok: async (t) => id(t, (await newMapping()).id),
  },
  updatePrintTemplateMapping: {
    ok: async (t) => {
      id(t, (await newMapping()).id);
      as(t, 'mapper');
    },
    403: deny('viewer'),
    412: async (t) => {
      id(t, (await newMapping()).id);
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  bulkPrintTemplateMappings: {
    ok: async (t) => {
      json(t, { action: 'deactivate', ids: [(await newMapping()).id] });
      as(t, 'mapper');
    },
    // Mappings have no restore.
    400: async (t) => {
      json(t, { action: 'restore', ids: [NO_SUCH_ID] });
      lenient(t);
    },
    403: deny('operator'),
  },
  deletePrintTemplateMapping: {
    ok: async (t) => {
      id(t, (await newMapping()).id);
      as(t, 'mapper');
    },
    403: deny('operator'),
  },
  listReportTemplates: {
    ok: async (t) => url(t, {}, 'kind=print&report_group=PO&page=1&perpage=10'),
    400: async (t) => {
      url(t, {}, 'kind=not-a-kind');
      lenient(t);
    },
  },
  listAuditEvents: {
    400: async (t) => {
      url(t, {}, 'target_type=planet');
      lenient(t);
    },
    403: deny('operator'),
  },
  exportAuditEvents: {
    400: async (t) => {
      url(t, {}, 'target_type=planet');
      lenient(t);
    },
    403: deny('operator'),
  },
  revertAuditEvent: {
    ok: async (t) => id(t, (await renamedCluster()).event),
    403: deny('viewer'), // viewer reads every cluster, so sees the event, but may update none
    // A create is not a field change.
    409: async (t) => id(t, await eventOf((await newCluster()).id, 'createCluster')),
    // Renamed again after the event: the name is no longer the one the event wrote.
    412: async (t) => {
      const { cluster, event } = await renamedCluster();
      await must(200, 'PUT', `/api-system/clusters/${cluster.id}`, {
        token: admin(),
        json: { code: cluster.code, name: `${cluster.name} again` },
      });
      id(t, event);
    },
  },
  listCurrencies: {
    400: async (t) => {
      url(t, {}, 'active_only=perhaps');
      lenient(t);
    },
    403: deny('mapper'),
  },
  listUsers: {
    ok: async (t) =>
      url(t, {}, 'page=1&perpage=10&search=e&sort=username:asc,created_at:desc&is_active=true&has_grants=true'),
    400: async (t) => {
      url(t, {}, 'sort=password_hash:asc');
      lenient(t);
    },
    403: deny('operator'),
  },
  exportUsers: {
    ok: async (t) => url(t, {}, 'search=e&sort=username:asc,created_at:desc&is_active=true&has_grants=true'),
    400: async (t) => {
      url(t, {}, 'sort=password_hash:asc');
      lenient(t);
    },
    403: deny('operator'),
  },
  createUser: {
    ok: async (t) => {
      const username = `ct-${uniq().toLowerCase()}`;
      json(t, { ...exampleBody(t), username, email: `${username}@example.com` });
    },
    // Valid by the contract, refused by the password rules.
    400: async (t) => {
      const username = `ct-${uniq().toLowerCase()}`;
      json(t, { ...exampleBody(t), username, email: `${username}@example.com`, password: 'too-short' });
    },
    403: deny('operator'),
    409: async (t) =>
      json(t, { ...exampleBody(t), username: 'viewer', email: `ct-${uniq().toLowerCase()}@example.com` }),
  },
  getUser: {
    ok: async (t) => id(t, (await newAccount()).id),
    403: deny('operator'),
  },
  updateUser: {
    ok: async (t) => {
      const a = await newAccount();
      id(t, a.id);
      json(t, { ...exampleBody(t), username: a.username, email: `renamed-${a.username}@example.com` });
    },
    403: deny('operator'),
    409: async (t) => {
      const a = await newAccount();
      id(t, a.id);
      json(t, { ...exampleBody(t), username: 'viewer', email: a.email });
    },
    412: async (t) => {
      const a = await newAccount();
      id(t, a.id);
      json(t, { ...exampleBody(t), username: a.username, email: a.email });
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  bulkUsers: {
    ok: async (t) => json(t, { action: 'deactivate', ids: [(await newAccount()).id] }),
    // The same id twice.
    400: async (t) => {
      json(t, { action: 'deactivate', ids: [NO_SUCH_ID, NO_SUCH_ID] });
      lenient(t);
    },
    403: deny('operator'),
  },
  deactivateUser: {
    ok: async (t) => id(t, (await newAccount()).id),
    403: deny('operator'),
    // The super admin deactivating its own account.
    409: async (t) => id(t, seed.users.admin),
  },
  reactivateUser: {
    ok: async (t) => {
      const a = await newAccount();
      await must(200, 'POST', `/api-system/users/${a.id}/deactivate`, { token: admin() });
      id(t, a.id);
    },
    403: deny('operator'),
  },
  resetUserPassword: {
    ok: async (t) => id(t, (await newAccount()).id),
    // Valid by the contract, refused by the password rules.
    400: async (t) => {
      id(t, (await newAccount()).id);
      json(t, { password: 'too-short' });
    },
    403: deny('operator'),
  },
  unlockUser: {
    ok: async (t) => id(t, (await newAccount()).id),
    403: deny('operator'),
  },
  listUserSessions: {
    ok: async (t) => id(t, (await signedInAccount()).account.id),
    403: deny('operator'),
  },
  revokeUserSession: {
    ok: async (t) => {
      const { account, sessionId } = await signedInAccount();
      url(t, { id: account.id, sessionId });
    },
    // A session that is not the account's (the generic cases name only {id}).
    404: async (t) => url(t, { id: (await signedInAccount()).account.id, sessionId: NO_SUCH_ID }),
    400: async (t) => {
      url(t, { id: 'not-a-uuid', sessionId: NO_SUCH_ID });
      lenient(t);
    },
    403: deny('operator'),
  },
  revokeUserSessions: {
    ok: async (t) => id(t, (await signedInAccount()).account.id),
    403: deny('operator'),
  },
  revokeSuperAdmin: {
    // The demo data's admin is the only super admin of the suite's database (200 is skipped: see skips.cjs).
    403: async (t) => {
      id(t, seed.users.admin);
      as(t, 'operator');
    },
    409: async (t) => id(t, seed.users.admin),
  },
  listUserGrants: {
    ok: async (t) => {
      const a = await newAccount();
      await newGrant(a.id, 'cluster.update', seed.clusters['CL-A']);
      id(t, a.id);
    },
    403: deny('operator'),
  },
  addUserGrant: {
    ok: async (t) => {
      id(t, (await newAccount()).id);
      json(t, { permission_key: 'cluster.update', cluster_id: seed.clusters['CL-A'] });
    },
    // A platform key on one cluster: valid by the contract, refused by the server.
    400: async (t) => {
      id(t, (await newAccount()).id);
      json(t, { permission_key: 'user.manage', cluster_id: seed.clusters['CL-A'] });
    },
    403: deny('operator'),
    404: async (t) => {
      id(t, (await newAccount()).id);
      json(t, { permission_key: 'cluster.read', cluster_id: NO_SUCH_ID });
    },
    409: async (t) => {
      const a = await newAccount();
      await newGrant(a.id, 'cluster.read', null);
      id(t, a.id);
      json(t, { permission_key: 'cluster.read', cluster_id: null });
    },
  },
  removeUserGrant: {
    ok: async (t) => {
      const a = await newAccount();
      url(t, { id: a.id, grantId: (await newGrant(a.id)).id });
    },
    400: async (t) => {
      url(t, { id: 'not-a-uuid', grantId: NO_SUCH_ID });
      lenient(t);
    },
    401: async (t) => {
      const a = await newAccount();
      url(t, { id: a.id, grantId: (await newGrant(a.id)).id });
      as(t, 'bad');
    },
    403: deny('operator'),
    // A grant of another account.
    404: async (t) => {
      const [a, b] = [await newAccount(), await newAccount()];
      url(t, { id: a.id, grantId: (await newGrant(b.id)).id });
    },
  },
  listServiceAccounts: {
    ok: async (t) => url(t, {}, 'page=1&perpage=10&search=ct-svc&is_active=true'),
    403: deny('operator'),
  },
  createServiceAccount: {
    ok: async (t) => json(t, { ...exampleBody(t), name: `ct-svc-${uniq().toLowerCase()}` }),
    // Not a name by the contract's pattern: the server's validator refuses it.
    400: async (t) => {
      json(t, { name: 'Not A Name' });
      lenient(t);
    },
    403: deny('operator'),
    409: async (t) => json(t, { ...exampleBody(t), name: 'viewer' }),
  },
  getServiceAccount: {
    ok: async (t) => id(t, (await newServiceAccount()).id),
    403: deny('operator'),
  },
  updateServiceAccount: {
    ok: async (t) => {
      const a = await newServiceAccount();
      id(t, a.id);
      json(t, { ...exampleBody(t), name: `${a.name}-renamed` });
    },
    403: deny('operator'),
    409: async (t) => {
      id(t, (await newServiceAccount()).id);
      json(t, { ...exampleBody(t), name: 'viewer' });
    },
    412: async (t) => {
      const a = await newServiceAccount();
      id(t, a.id);
      json(t, { ...exampleBody(t), name: a.name });
      header(t, 'If-Match', 'W/"stale-version"');
    },
  },
  listApiTokens: {
    ok: async (t) => {
      const a = await newServiceAccount(true);
      await must(201, 'POST', `/api-system/service-accounts/${a.id}/tokens`, { token: admin(), json: tokenBody() });
      id(t, a.id);
    },
    403: deny('operator'),
  },
  createApiToken: {
    ok: async (t) => {
      id(t, (await newServiceAccount(true)).id);
      json(t, tokenBody());
    },
    // Valid by the contract, refused by the server: more than a year ahead.
    400: async (t) => {
      id(t, (await newServiceAccount(true)).id);
      json(t, { ...tokenBody(), expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() });
    },
    403: deny('operator'),
    404: async (t) => {
      id(t, NO_SUCH_ID);
      json(t, tokenBody());
    },
    // The account is deactivated.
    409: async (t) => {
      const a = await newServiceAccount(true);
      await must(200, 'PUT', `/api-system/service-accounts/${a.id}`, {
        token: admin(),
        json: { name: a.name, description: null, is_active: false },
      });
      id(t, a.id);
      json(t, tokenBody());
    },
  },
  revokeApiToken: {
    ok: async (t) => {
      const a = await newServiceAccount(true);
      const token = await must(201, 'POST', `/api-system/service-accounts/${a.id}/tokens`, {
        token: admin(),
        json: tokenBody(),
      });
      url(t, { id: a.id, credentialId: token.id });
    },
    400: async (t) => {
      url(t, { id: 'not-a-uuid', credentialId: NO_SUCH_ID });
      lenient(t);
    },
    403: deny('operator'),
    // Another account's token.
    404: async (t) => {
      const [a, b] = [await newServiceAccount(true), await newServiceAccount(true)];
      const token = await must(201, 'POST', `/api-system/service-accounts/${b.id}/tokens`, {
        token: admin(),
        json: tokenBody(),
      });
      url(t, { id: a.id, credentialId: token.id });
    },
  },
  // A password change checks the current password as a sign-in does, so its client's failures (the suite's wrong
  // sign-ins from loopback among them) could delay it: each comes from a fixture client of its own.
  changeMyPassword: {
    ok: async (t) => {
      const a = await newAccount();
      header(t, 'Authorization', `Bearer ${(await login(a.username, ACCOUNT_PASSWORD)).access_token}`);
      header(t, 'X-Forwarded-For', fixtureClient()['X-Forwarded-For']);
      json(t, { current_password: ACCOUNT_PASSWORD, new_password: CHANGED_PASSWORD });
    },
    // Valid by the contract, refused by the password rules.
    400: async (t) => {
      const a = await newAccount();
      header(t, 'Authorization', `Bearer ${(await login(a.username, ACCOUNT_PASSWORD)).access_token}`);
      header(t, 'X-Forwarded-For', fixtureClient()['X-Forwarded-For']);
      json(t, { current_password: ACCOUNT_PASSWORD, new_password: 'too-short' });
    },
    // Four wrong current passwords from one client, the fifth delays it: then even the right one waits.
    429: async (t) => {
      const a = await newAccount();
      const token = (await login(a.username, ACCOUNT_PASSWORD)).access_token;
      const client = `198.51.100.${++floodedClients}`;
      for (let i = 0; i < 5; i++) {
        await api('PUT', '/api-system/me/password', {
          token,
          json: { current_password: `wrong-guess-${i}`, new_password: CHANGED_PASSWORD },
          headers: { 'X-Forwarded-For': client },
        });
      }
      header(t, 'Authorization', `Bearer ${token}`);
      header(t, 'X-Forwarded-For', client);
      json(t, { current_password: ACCOUNT_PASSWORD, new_password: CHANGED_PASSWORD });
    },
  },
  listMySessions: {
    ok: async (t) => header(t, 'Authorization', `Bearer ${(await signedInAccount()).token}`),
  },
  revokeMySession: {
    // The caller ends another of its own sessions.
    ok: async (t) => {
      const me = await signedInAccount();
      const other = await login(me.account.username, CHANGED_PASSWORD);
      header(t, 'Authorization', `Bearer ${other.access_token}`);
      id(t, me.sessionId);
    },
    // Another account's session is not there.
    404: async (t) => {
      const [me, someone] = [await signedInAccount(), await signedInAccount()];
      header(t, 'Authorization', `Bearer ${me.token}`);
      id(t, someone.sessionId);
    },
  },
  revokeMyOtherSessions: {
    ok: async (t) => {
      const me = await signedInAccount();
      await login(me.account.username, CHANGED_PASSWORD);
      header(t, 'Authorization', `Bearer ${me.token}`);
    },
  },
  getStoredFile: {
    ok: async (t) => {
      const type = t.expectedContentType;
      const bytes = type === 'image/png' ? PNG_1PX : type === 'image/jpeg' ? JPEG_1PX : ASCII_WEBP;
      const c = await newCluster();
      fileUrl(t, await uploadDirect('clusters', c.id, 'logo', bytes, type, 'image'));
    },
    // Without the signature the URL breaks the contract (required query parameters).
    400: async (t) => {
      const c = await newCluster();
      const signed = await uploadDirect('clusters', c.id, 'logo', ASCII_WEBP, 'image/webp', 'logo.webp');
      fileUrl(t, signed.slice(0, signed.indexOf('?')) + '?expires=soon');
      lenient(t);
    },
    403: async (t) => {
      const c = await newCluster();
      const signed = await uploadDirect('clusters', c.id, 'logo', ASCII_WEBP, 'image/webp', 'logo.webp');
      fileUrl(t, signed.replace(/signature=[^&]+/, 'signature=forged'));
    },
    // A correctly signed URL whose expiry has passed. Signed like the local storage adapter does (HMAC-SHA256 of
    // "<key>\n<expires>" with "files:<JWT_SECRET>"), since a real URL lives an hour.
    410: async (t) => {
      const c = await newCluster();
      const signed = new URL(
        await uploadDirect('clusters', c.id, 'logo', ASCII_WEBP, 'image/webp', 'logo.webp'),
        SERVER,
      );
      const key = decodeURIComponent(signed.pathname.replace(/^\/files\//, ''));
      const expires = Math.floor(Date.now() / 1000) - 60;
      const signature = createHmac('sha256', `files:${JWT_SECRET}`).update(`${key}\n${expires}`).digest('base64url');
      fileUrl(t, `${signed.pathname}?expires=${expires}&signature=${signature}`);
    },
    // A correctly signed URL of an image that was removed (a replaced one stays for the history; removal deletes it).
    404: async (t) => {
      const c = await newCluster();
      const old = await uploadDirect('clusters', c.id, 'logo', ASCII_WEBP, 'image/webp', 'logo.webp');
      await must(204, 'DELETE', `/api-system/clusters/${c.id}/logo`, { token: admin() });
      fileUrl(t, old);
    },
  },
};

function fileUrl(t, signed) {
  const u = new URL(signed, SERVER);
  t.fullPath = u.pathname + u.search;
  t.request.uri = t.fullPath;
}

/** Logo/avatar uploads of clusters or business units. */
function uploadCases(kind, field) {
  const target = async () => (kind === 'clusters' ? newCluster() : newBusinessUnit((await newCluster()).id));
  return {
    ok: async (t) => {
      id(t, (await target()).id);
      upload(t, field, ASCII_WEBP.toString('latin1'));
    },
    // The image in the wrong form field: the contract requires the field, so only the lenient proxy forwards it.
    400: async (t) => {
      id(t, (await target()).id);
      upload(t, field === 'logo' ? 'avatar' : 'logo', ASCII_WEBP.toString('latin1'));
      lenient(t);
    },
    401: async (t) => {
      id(t, (await target()).id);
      upload(t, field, ASCII_WEBP.toString('latin1'));
      as(t, 'bad');
    },
    // viewer reads every cluster but may change none (a caller with no grant on the cluster gets the 404 of a missing id).
    403: async (t) => {
      id(t, kind === 'clusters' ? seed.clusters['CL-B'] : seed.businessUnits['B-HQ']);
      upload(t, field, ASCII_WEBP.toString('latin1'));
      as(t, 'viewer');
    },
    404: async (t) => {
      id(t, NO_SUCH_ID);
      upload(t, field, ASCII_WEBP.toString('latin1'));
    },
    // One byte over 5 MB (ASCII, so it survives the proxy).
    413: async (t) => {
      id(t, (await target()).id);
      upload(t, field, 'RIFF0000WEBP' + 'x'.repeat(5 * 1024 * 1024 + 1 - 12));
    },
    // Text, whatever the declared type says.
    415: async (t) => {
      id(t, (await target()).id);
      upload(t, field, 'this is plain text, not an image', 'logo.png', 'image/png');
    },
  };
}

/** Logo/avatar removals of clusters or business units: the record holds an image first. */
function removalCases(kind, field) {
  const target = async () => {
    const record = kind === 'clusters' ? await newCluster() : await newBusinessUnit((await newCluster()).id);
    await uploadDirect(kind, record.id, field, ASCII_WEBP, 'image/webp', `${field}.webp`);
    return record;
  };
  return {
    ok: async (t) => id(t, (await target()).id),
    // viewer reads every cluster but may change none.
    403: async (t) => {
      id(t, kind === 'clusters' ? seed.clusters['CL-B'] : seed.businessUnits['B-HQ']);
      as(t, 'viewer');
    },
    412: async (t) => {
      id(t, (await target()).id);
      header(t, 'If-Match', 'W/"stale-version"');
    },
  };
}

/** Prepares the success case of the transaction's operation (path ids, body, account). */
async function positive(t) {
  const c = cases[t.operation.operationId] || {};
  if (c.ok) await c.ok(t);
}

// ---------------------------------------------------------------------------------------------------------------

/** Dredd starts together with the server and the proxies: wait until all of them answer. */
async function waitUntilUp(target, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(target);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${target} did not answer within ${timeoutMs} ms: ${err}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

hooks.beforeAll(async (transactions, done) => {
  try {
    await waitUntilUp(`${SERVER}/healthz`);
    await waitUntilUp(`${STRICT_URL}/healthz`);
    await waitUntilUp(`http://127.0.0.1:${LENIENT_PORT}/healthz`);
    tokens.admin = (await login('admin', ADMIN_PASSWORD)).access_token;
    for (const u of ['viewer', 'editor-a', 'mapper', 'operator'])
      tokens[u] = (await login(u, DEMO_PASSWORD)).access_token;

    const clusters = await must(200, 'GET', '/api-system/clusters?perpage=100', { token: admin() });
    seed.clusters = Object.fromEntries(clusters.data.map((c) => [c.code, c.id]));
    const bus = await must(200, 'GET', '/api-system/business-units?perpage=100', { token: admin() });
    seed.businessUnits = Object.fromEntries(bus.data.map((b) => [b.code, b.id]));
    const users = await must(200, 'GET', '/api-system/user?perpage=100', { token: admin() });
    seed.users = Object.fromEntries(users.data.map((u) => [u.username, u.id]));
    const templates = await must(200, 'GET', '/api-system/report-templates?kind=print&report_group=PO&perpage=100', {
      token: admin(),
    });
    seed.poTemplateId = templates.data[0].id;
    done();
  } catch (err) {
    // Without sign-in and seed data nothing can run: stop with the reason instead of failing every transaction.
    done(err);
  }
});

hooks.beforeEach((t, done) => {
  prepare(t).then(
    () => done(),
    (err) => {
      t.fail = `hook failed: ${err && err.stack ? err.stack : err}`;
      done();
    },
  );
});

async function prepare(t) {
  const op = operations.get(`${t.origin.resourceName} > ${t.origin.actionName}`);
  if (!op) throw new Error(`no operation for ${t.name}`);
  t.operation = op;
  const status = String(t.expected.statusCode);
  const contentType = t.expected.headers && (t.expected.headers['Content-Type'] || t.expected.headers['content-type']);
  t.expectedContentType = contentType || null;
  const reason = explainSkip({ operationId: op.operationId, expectedStatus: status, contentType: contentType || null });
  if (reason) {
    t.skip = true;
    return;
  }
  // Signed in as the super admin unless the case says otherwise; no If-Match unless the case tests it.
  const secured = !(Array.isArray(op.security) && op.security.length === 0);
  as(t, secured ? 'admin' : null);
  header(t, 'If-Match', undefined);

  const c = cases[op.operationId] || {};
  // A 2xx, or a 302 (the sign-in redirects), is the operation's success, unless the operation has a case of its own
  // for that status (sign-in's 202: the second step is asked for).
  if (c[status]) {
    await c[status](t);
  } else if (status.startsWith('2') || status === '302') {
    if (c.ok) await c.ok(t);
  } else if (generic[status]) {
    await generic[status](t);
  } else {
    throw new Error(`no negative case for ${op.operationId} ${status}`);
  }
}

/**
 * Before Dredd's own checks: Dredd compares the Content-Type header literally (`application/json` ≠
 * `application/json; charset=utf-8`), so the expected value takes the real parameters when the media type itself
 * matches. And Dredd's body check on OAS 3 compares keys with the *example* (optional and nullable fields in an
 * example would fail a valid response); body validation against the schema is Prism's job, so it is left to Prism.
 */
hooks.beforeEachValidation((t, done) => {
  const expected = t.expected.headers || {};
  const key = Object.keys(expected).find((k) => k.toLowerCase() === 'content-type');
  const real = t.real && t.real.headers ? t.real.headers['content-type'] : undefined;
  if (
    key &&
    real &&
    real.split(';')[0].trim().toLowerCase() === String(expected[key]).split(';')[0].trim().toLowerCase()
  )
    expected[key] = real;
  delete t.expected.body;
  delete t.expected.bodySchema;
  done();
});

hooks.afterEach((t, done) => {
  const undo = undoAfterTransaction.get(t.name);
  if (!undo) return done();
  undoAfterTransaction.delete(t.name);
  undo().then(
    () => done(),
    (err) => {
      t.fail = `undoing the case's change failed: ${err && err.stack ? err.stack : err}`;
      done();
    },
  );
});

/** A response the lenient proxy found in breach of the contract fails the transaction (the strict one answers 500). */
hooks.afterEach((t, done) => {
  const raw = t.real && t.real.headers && t.real.headers['sl-violations'];
  if (raw) {
    let violations = [];
    try {
      violations = JSON.parse(raw);
    } catch {
      violations = [{ location: ['response'], message: raw, severity: 'Error' }];
    }
    const bad = violations.filter(
      (v) => Array.isArray(v.location) && v.location[0] === 'response' && v.severity === 'Error',
    );
    if (bad.length > 0) {
      t.fail = `Prism: the response breaks the contract: ${bad.map((v) => `${v.location.join('.')} ${v.message}`).join('; ')}`;
    }
  }
  done();
});
