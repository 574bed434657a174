// The shipped nginx configuration (deploy/nginx/platform-admin.conf) in front of two replicas on one PostgreSQL
// database: TLS ends at nginx, the replicas believe its forwarded headers and no client's, sign-in and writes work
// across them, and one replica stopped under a write load loses nothing it acknowledged.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexPkg, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_PASSWORD,
  createPgDatabase,
  integrityViolations,
  startServerProcess,
  type ServerProcess,
} from '../reliability/support.js';
import { ackCount, emptyAcks, missingAcks, startWriteLoad } from '../reliability/write-load.js';
import { clientFetch } from './client.js';
import { startNginx, type Nginx } from './nginx.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Nginx connects to the replicas from here: the one address they trust (TRUST_PROXY). */
const PROXY_ADDRESS = '127.0.0.1';
/** Clients, each on its own loopback address, none of them the proxy's. */
const CLIENT = '127.0.0.2';
const OTHER_CLIENT = '127.0.0.3';
const LOAD_CLIENT = '127.0.0.4';
const WORKERS = 6;

interface LogLine {
  req?: { id?: string; path?: string };
  clientIp?: string;
  operationId?: string;
  accountId?: string;
}

let work: string;
let db: Awaited<ReturnType<typeof createPgDatabase>>;
let knex: Knex;
let replicas: Record<'a' | 'b', ServerProcess>;
let nginx: Nginx;
let ca: Buffer;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-proxy-'));
  db = await createPgDatabase('proxy');
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: path.join(work, 'data'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: PROXY_ADDRESS,
    // Every request's line, with the address the replica resolved.
    LOG_LEVEL: 'info',
  };
  const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  replicas = { a, b };
  nginx = await startNginx(work, [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
  ca = nginx.ca;
  knex = knexPkg.knex({ client: 'pg', connection: db.url, pool: { min: 0, max: 2 } });
}, 90_000);

afterAll(async () => {
  vi.unstubAllGlobals();
  await nginx?.stop();
  await Promise.all([replicas?.a.stop(), replicas?.b.stop()]);
  await knex?.destroy();
  await db?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A request of one client through `base`, with a request id of its own to find it in the replicas' logs. */
async function send(
  from: string,
  base: string,
  method: string,
  p: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const id = `proxy-test-${randomUUID()}`;
  const headers: Record<string, string> = { 'x-request-id': id, ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await clientFetch({ ca, from })(base + p, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { id, res, text: await res.text() };
}

/** The replica that logged request `id`, and its line (pino writes asynchronously: wait for it a moment). */
async function loggedLine(id: string): Promise<{ replica: 'a' | 'b'; line: LogLine }> {
  for (let tries = 0; tries < 100; tries++) {
    for (const name of ['a', 'b'] as const)
      for (const raw of replicas[name].output().split('\n')) {
        if (!raw.includes(id)) continue;
        const line = JSON.parse(raw) as LogLine;
        if (line.req?.id === id) return { replica: name, line };
      }
    await sleep(50);
  }
  throw new Error(`no replica logged request ${id}`);
}

async function signIn(from: string): Promise<string> {
  const { res, text } = await send(from, nginx.tlsUrl, 'POST', '/api/auth/login', {
    body: { username: 'admin', password: ADMIN_PASSWORD },
  });
  expect(res.status, text).toBe(200);
  return (JSON.parse(text) as { access_token: string }).access_token;
}

describe('behind nginx, as two replicas', () => {
  it("when a client names its own address, then the replica logs and audits the address nginx saw, not the client's", async () => {
    const token = await signIn(CLIENT);
    const spoofed = { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.7' };
    const read = await send(CLIENT, nginx.tlsUrl, 'GET', '/api-system/clusters', { token, headers: spoofed });
    expect(read.res.status).toBe(200);
    const readLine = (await loggedLine(read.id)).line;
    expect(readLine.clientIp).toBe(CLIENT);
    expect(readLine.operationId).toBeTruthy();
    expect(readLine.accountId).toBeTruthy();

    // Another client through the same proxy is another address: the replicas tell clients apart, not the proxy.
    const other = await send(OTHER_CLIENT, nginx.plainUrl, 'GET', '/readyz', { headers: spoofed });
    expect(other.res.status).toBe(200);
    expect((await loggedLine(other.id)).line.clientIp).toBe(OTHER_CLIENT);

    // A write's audit record keeps the same address.
    const code = `PX-${randomUUID().slice(0, 8)}`;
    const write = await send(CLIENT, nginx.tlsUrl, 'POST', '/api-system/clusters', {
      token,
      headers: spoofed,
      body: { code, name: `Proxied ${code}` },
    });
    expect(write.res.status, write.text).toBe(201);
    const audit: Array<{ ip: string }> = await knex('audit_events').where({ request_id: write.id }).select('ip');
    expect(audit.length).toBeGreaterThan(0);
    expect(new Set(audit.map((e) => e.ip))).toEqual(new Set([CLIENT]));

    // Straight to a replica, the forwarded headers of a client that is not the proxy count for nothing.
    const direct = await send(CLIENT, replicas.a.url, 'GET', '/readyz', {
      headers: { ...spoofed, 'x-forwarded-proto': 'https' },
    });
    expect((await loggedLine(direct.id)).line.clientIp).toBe(CLIENT);
    expect(direct.res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
  });

  it('when asked over TLS, then HSTS and the upgrade of insecure requests apply; over plain HTTP, neither', async () => {
    const secure = await send(CLIENT, nginx.tlsUrl, 'GET', '/readyz');
    expect(secure.res.status).toBe(200);
    expect(secure.res.headers.get('strict-transport-security')).toMatch(/max-age=[1-9]\d*/);
    expect(secure.res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');

    // The probes answer over plain HTTP, even to a client claiming it came over TLS.
    const plain = await send(CLIENT, nginx.plainUrl, 'GET', '/readyz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(plain.res.status).toBe(200);
    expect(plain.res.headers.get('strict-transport-security')).toBeNull();
    const policy = plain.res.headers.get('content-security-policy');
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toContain('upgrade-insecure-requests');

    // Everything else moves to https.
    const moved = await send(CLIENT, nginx.plainUrl, 'GET', '/api-system/clusters?page=2');
    expect(moved.res.status).toBe(301);
    expect(moved.res.headers.get('location')).toBe('https://127.0.0.1/api-system/clusters?page=2');
  });

  it('when an operator signs in, then a write on one replica is read on the other, with a token from either', async () => {
    const login = await send(CLIENT, nginx.tlsUrl, 'POST', '/api/auth/login', {
      body: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(login.res.status, login.text).toBe(200);
    // The device cookie knows the browser came over TLS.
    expect(login.res.headers.get('set-cookie')).toMatch(/pa_device=.*; Secure/);
    const token = (JSON.parse(login.text) as { access_token: string }).access_token;
    const signedInOn = (await loggedLine(login.id)).replica;

    const code = `RW-${randomUUID().slice(0, 8)}`;
    const created = await send(CLIENT, nginx.tlsUrl, 'POST', '/api-system/clusters', {
      token,
      body: { code, name: `Written ${code}` },
    });
    expect(created.res.status, created.text).toBe(201);
    const { id } = JSON.parse(created.text) as { id: string };
    const writer = (await loggedLine(created.id)).replica;

    // nginx alternates between the replicas: read until the other one answers.
    const reads: Array<'a' | 'b'> = [];
    for (let i = 0; i < 6 && !reads.includes(writer === 'a' ? 'b' : 'a'); i++) {
      const read = await send(CLIENT, nginx.tlsUrl, 'GET', `/api-system/clusters/${id}`, { token });
      expect(read.res.status, read.text).toBe(200);
      expect((JSON.parse(read.text) as { code: string }).code).toBe(code);
      reads.push((await loggedLine(read.id)).replica);
    }
    expect(reads, `written on ${writer}`).toContain(writer === 'a' ? 'b' : 'a');
    // Both replicas took the same token, whichever of them issued it.
    expect(new Set([signedInOn, writer, ...reads])).toEqual(new Set(['a', 'b']));
  });

  it('when a replica is stopped under a write load, then every acknowledged write is in the database', async () => {
    const token = await signIn(CLIENT);
    const userIds = ((await knex('users').select('id').where({ is_super_admin: false })) as Array<{ id: string }>).map(
      (r) => r.id,
    );
    const reportTemplateId = ((await knex('report_templates').select('id').first()) as { id: string }).id;
    // The load speaks to nginx over TLS, trusting the test's certificate.
    vi.stubGlobal('fetch', clientFetch({ ca, from: LOAD_CLIENT }));
    const acks = emptyAcks();
    const load = startWriteLoad({
      targets: [nginx.tlsUrl],
      token,
      workers: WORKERS,
      tag: 'PX',
      userIds,
      reportTemplateId,
      acks,
    });
    await sleep(2_000);
    const beforeStop = load.stats.acked;
    // A rolling restart's stop: SIGTERM; the replica stops taking connections, finishes what it took and exits.
    await replicas.a.stop();
    expect(replicas.a.child.exitCode, 'the replica drained and exited by itself').toBe(0);
    const stoppedAt = load.stats.acked;
    await sleep(3_000);
    await load.stop();
    vi.unstubAllGlobals();
    const afterStop = load.stats.acked - stoppedAt;

    expect(beforeStop).toBeGreaterThan(0);
    expect(afterStop, 'the other replica kept acknowledging writes through nginx').toBeGreaterThan(0);
    expect(await missingAcks(knex, acks)).toEqual([]);
    expect(await integrityViolations(knex)).toEqual([]);
    const failed =
      Object.entries(load.stats.refused)
        .filter(([status]) => Number(status) >= 500)
        .reduce((n, [, count]) => n + count, 0) + load.stats.failedConnections;
    console.log(
      `[proxy] ${load.stats.sent} writes sent through nginx, ${ackCount(acks)} acknowledged and verified (${afterStop} after the stop), refused: ${JSON.stringify(load.stats.refused)}, connections cut: ${load.stats.failedConnections}`,
    );
    // nginx sends what the stopped replica no longer takes to the other one. At most the creates in flight at the
    // moment of the stop fail (502: sent once, never twice), and none of them was acknowledged.
    expect(failed, nginx.output()).toBeLessThanOrEqual(WORKERS);
  });
});
