// A request's log line, as an operator reads it: who called (the account), from where (the client address under
// TRUST_PROXY), which operation, and for a refusal or a failure the problem the client was told; a refused sign-in is a
// warning naming the account tried. No password, token, cookie or signed-URL signature ever reaches the log.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.js';
import { createLogger } from '../../server/src/http/logging.js';
import { aCluster, adminToken } from '../support/factory.js';
import { wellFormedPng } from '../support/images.js';
import { startTestServer, type TestServer } from './support/index.js';

interface LogLine {
  level: number;
  msg: string;
  req?: { id: string; method: string; path: string };
  res?: { statusCode: number };
  operationId?: string;
  accountId?: string;
  clientIp?: string;
  problem?: { title: string; detail: string };
  signIn?: { login: string | null; accountId: string | null };
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;
const PASSWORD = 'admin123';
const WRONG_PASSWORD = 'wrong-password-5531';
// An address the proxy in front of the server (TRUST_PROXY=1) says the client has.
const CLIENT = '203.0.113.7';

describe('request log lines', () => {
  let t: TestServer;
  let server: Server;
  let baseUrl: string;
  const written: string[] = [];
  let adminId: string;

  beforeAll(async () => {
    t = await startTestServer('pglite', { env: { TRUST_PROXY: '1' } });
    // The same app on the same database, logging at info into lines this test reads.
    const app = createApp({
      config: t.config,
      db: { knex: t.knex },
      storage: t.storage,
      changes: t.changes,
      logger: createLogger('info', { write: (line: string) => void written.push(line) }),
      handlerOverrides: {
        getPlatformPermissions: () => Promise.reject(new Error('the permission store is unreachable')),
      },
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    adminId = ((await t.knex('users').select('id').where({ username: 'admin' }).first()) as { id: string }).id;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
    await t?.close();
  });

  function call(path: string, init: RequestInit & { token?: string; json?: unknown } = {}): Promise<Response> {
    const { token, json, headers, ...rest } = init;
    const h = new Headers(headers);
    h.set('X-Forwarded-For', CLIENT);
    if (token) h.set('Authorization', `Bearer ${token}`);
    if (json !== undefined) h.set('Content-Type', 'application/json');
    return fetch(baseUrl + path, { ...rest, headers: h, body: json === undefined ? rest.body : JSON.stringify(json) });
  }

  /** The log line of the answered request (it is written once the answer is finished, so it may come a moment later). */
  async function lineOf(res: Response): Promise<LogLine> {
    await res.arrayBuffer().catch(() => undefined);
    const id = res.headers.get('x-request-id');
    for (let i = 0; i < 100; i++) {
      const found = written.map((l) => JSON.parse(l) as LogLine).find((l) => l.req?.id === id && l.res);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no log line for request ${id}`);
  }

  it('names the operation, the account, the client address, the problem; a refused sign-in is a warning; no secret is logged', async () => {
    const secrets = [PASSWORD, WRONG_PASSWORD];

    const signIn = await call('/api/auth/login', { method: 'POST', json: { username: 'admin', password: PASSWORD } });
    expect(signIn.status).toBe(200);
    const pair = (await signIn.clone().json()) as { access_token: string; refresh_token: string };
    const deviceCookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    secrets.push(pair.access_token, pair.refresh_token, pair.access_token.split('.')[2]!, deviceCookie.split('=')[1]!);
    expect(await lineOf(signIn)).toMatchObject({
      level: INFO,
      operationId: 'login',
      clientIp: CLIENT,
      res: { statusCode: 200 },
    });

    // A wrong password: a warning with the account tried and the client address, the password nowhere.
    const refused = await call('/api/auth/login', {
      method: 'POST',
      json: { username: 'Admin', password: WRONG_PASSWORD },
      headers: { Cookie: deviceCookie },
    });
    expect(refused.status).toBe(401);
    const refusedLine = await lineOf(refused);
    expect(refusedLine).toMatchObject({
      level: WARN,
      operationId: 'login',
      clientIp: CLIENT,
      res: { statusCode: 401 },
      problem: { title: 'Unauthorized' },
      signIn: { login: 'admin', accountId: adminId },
    });
    expect(refusedLine.problem?.detail).toMatch(/\S/);
    expect(refusedLine.accountId).toBeUndefined();

    // A login that names no account may be a password typed into the wrong field: it is not repeated.
    const typedPassword = 'Secret-In-The-Login-Field-77';
    secrets.push(typedPassword);
    const unknown = await call('/api/auth/login', {
      method: 'POST',
      json: { username: typedPassword, password: WRONG_PASSWORD },
    });
    expect(unknown.status).toBe(401);
    expect(await lineOf(unknown)).toMatchObject({ level: WARN, signIn: { login: null, accountId: null } });

    // A malformed sign-in is a client error like any other, not a refused sign-in.
    const malformed = await call('/api/auth/login', { method: 'POST', json: { password: PASSWORD } });
    expect(malformed.status).toBe(400);
    const malformedLine = await lineOf(malformed);
    expect(malformedLine).toMatchObject({ level: INFO, operationId: 'login', problem: { title: 'Bad Request' } });
    expect(malformedLine.signIn).toBeUndefined();

    const refreshed = await call('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: pair.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.clone().json()) as { access_token: string; refresh_token: string };
    secrets.push(next.access_token, next.refresh_token);
    expect(await lineOf(refreshed)).toMatchObject({ level: INFO, operationId: 'refreshToken', clientIp: CLIENT });

    // An authenticated call names the caller's account.
    const list = await call('/api-system/clusters?perpage=5', { token: next.access_token });
    expect(list.status).toBe(200);
    const listLine = await lineOf(list);
    expect(listLine).toMatchObject({
      level: INFO,
      operationId: 'listClusters',
      accountId: adminId,
      clientIp: CLIENT,
      req: { method: 'GET', path: '/api-system/clusters' },
    });
    expect(listLine.problem).toBeUndefined();

    // A refusal carries the problem's title and detail, at info.
    const missing = await call('/api-system/clusters/00000000-0000-4000-8000-000000000000', {
      token: next.access_token,
    });
    expect(missing.status).toBe(404);
    const missingProblem = (await missing.clone().json()) as { detail: string };
    expect(await lineOf(missing)).toMatchObject({
      level: INFO,
      operationId: 'getCluster',
      accountId: adminId,
      problem: { title: 'Not Found', detail: missingProblem.detail },
    });

    // A server fault is an error line, with the generic problem the client saw.
    const fault = await call('/api/user/permission/platform', { token: next.access_token });
    expect(fault.status).toBe(500);
    expect(await lineOf(fault)).toMatchObject({
      level: ERROR,
      operationId: 'getPlatformPermissions',
      accountId: adminId,
      problem: { title: 'Internal Server Error', detail: 'An unexpected error occurred' },
    });

    // An upload, and the signed URL it answers with: the signature stays out of the log.
    const cluster = await aCluster(t, {}, { as: await adminToken(t) });
    const form = new FormData();
    form.append('logo', new Blob([new Uint8Array(wellFormedPng())], { type: 'image/png' }), 'logo.png');
    const upload = await call(`/api-system/clusters/${cluster.id}/logo`, {
      method: 'POST',
      token: next.access_token,
      body: form,
    });
    expect(upload.status).toBe(200);
    const { url } = (await upload.clone().json()) as { url: string };
    const query = new URL(url, baseUrl).search.slice(1);
    expect(query).not.toBe('');
    secrets.push(query);
    expect(await lineOf(upload)).toMatchObject({ operationId: 'uploadClusterLogo', accountId: adminId });
    const file = await call(new URL(url, baseUrl).pathname + '?' + query);
    expect(file.status).toBe(200);
    expect(await lineOf(file)).toMatchObject({ operationId: 'getStoredFile', clientIp: CLIENT });

    // Without a proxy's word, the client address is the peer's.
    const direct = await fetch(`${baseUrl}/api-system/clusters`);
    expect(direct.status).toBe(401);
    expect(await lineOf(direct)).toMatchObject({ clientIp: '127.0.0.1', problem: { title: 'Unauthorized' } });

    const logout = await call('/api/auth/logout', { method: 'POST', json: { refresh_token: next.refresh_token } });
    expect(logout.status).toBe(204);
    await lineOf(logout);

    const log = written.join('');
    for (const secret of secrets) expect(log.includes(secret), `the log contains ${secret.slice(0, 12)}…`).toBe(false);
    // No request or response headers at all: neither the Authorization header, nor a cookie sent or set.
    expect(log).not.toMatch(/"headers"|"set-cookie"|"authorization"|"cookie"/i);
  });

  it('when a client is delayed after repeated failures, then its refused sign-in is a warning too, naming the account', async () => {
    let delayed: Response | undefined;
    for (let i = 0; i < 8 && !delayed; i++) {
      const res = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
        body: JSON.stringify({ username: 'admin', password: WRONG_PASSWORD }),
      });
      if (res.status === 429) delayed = res;
      else await lineOf(res);
    }
    expect(delayed, 'a delayed sign-in').toBeDefined();
    expect(await lineOf(delayed!)).toMatchObject({
      level: WARN,
      operationId: 'login',
      clientIp: '198.51.100.9',
      res: { statusCode: 429 },
      problem: { title: 'Too Many Requests' },
      signIn: { login: 'admin', accountId: adminId },
    });
    expect(written.join('')).not.toContain(WRONG_PASSWORD);
  });
});
