/**
 * Shared harness for server tests: the real app over real HTTP on port 0, on PGlite (in memory) and, when
 * TEST_DATABASE_URL is set, on a fresh PostgreSQL database that is dropped on close.
 *
 *   describe.each(engines())('clusters on %s', (engine) => {
 *     let t: TestServer;
 *     beforeAll(async () => { t = await startTestServer(engine); });
 *     afterAll(() => t.close());
 *     it('when …, then …', async () => {
 *       const api = t.client(await t.login('admin'));
 *       const { data, response } = await api.GET('/api-system/clusters', { params: { query: { perpage: 5 } } });
 *     });
 *   });
 *
 * Test data comes from `test/support/factory.ts` (aCluster, aBusinessUnit, aUserWith, aMapping, …; `bodyOf<T>(res)`
 * for a typed response body), rows read straight from the database are typed by `test/support/records.ts`, and
 * `test/support/matchers.ts` types vitest's asymmetric matchers.
 */
import { configurePasswordHashGate } from '../../../server/src/modules/auth/throttle.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import createClient, { type Client } from 'openapi-fetch';
import type { Knex } from 'knex';
import pg from 'pg';
import type { paths } from '../../../openapi/generated/schema.js';
import { createApp, type AppDeps } from '../../../server/src/app.js';
import { loadConfig, type Config } from '../../../server/src/config.js';
import { createDatabase, dumpTemplate, migrateLatest, type Database } from '../../../server/src/db/index.js';
import { openChangeFeed, type ChangeFeed } from '../../../server/src/db/changes.js';
import { seedIfEmpty } from '../../../server/src/db/seed/index.js';
import { templateForNewDatabase } from '../../../server/src/db/template.js';
import { createLogger } from '../../../server/src/http/logging.js';
import { signAccessToken } from '../../../server/src/modules/auth/tokens.js';
import { createLocalStorage } from '../../../server/src/storage/local.js';
import { createRateLimitStore, type RateLimitStore } from '../../../server/src/http/rate-limit-store.js';
import type { StoragePort } from '../../../server/src/storage/port.js';

export type Engine = 'pglite' | 'postgres';
export type ApiClient = Client<paths>;

/** ['pglite'], plus 'postgres' when TEST_DATABASE_URL is set. */
export function engines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestServerOptions {
  /** Extra environment for loadConfig (e.g. { ADMIN_USERNAME: 'root' }). */
  env?: Record<string, string>;
  /** Replaces the local storage in a temp dir (e.g. a GCS adapter against the fake). */
  storage?: StoragePort;
  /** Skip the demo seed (empty database after migrations). */
  seed?: boolean;
  /** Replaces some operations' handlers (tests of the request pipeline). */
  handlerOverrides?: AppDeps['handlerOverrides'];
  /** Spans for this server's requests, statements and storage calls (tracing tests). */
  tracing?: AppDeps['tracing'];
  /** Receives every line the server logs, at its most verbose level (tests that no secret reaches the log). */
  logSink?: (line: string) => void;
}

export interface TestServer {
  engine: Engine;
  baseUrl: string;
  config: Config;
  knex: Knex;
  storage: StoragePort;
  /** The server's change feed (LISTEN on PostgreSQL, the instance's listen on PGlite). */
  changes: ChangeFeed;
  /** Signs in through POST /api/auth/login; the password defaults to ADMIN_PASSWORD for the admin, DEMO_PASSWORD otherwise. */
  login(username: string, password?: string): Promise<string>;
  /**
   * An access token for the account without its password: opens a session (a signed-in device) for it, as a sign-in
   * would, and signs a token naming that session. For accounts a test made straight in the database.
   */
  tokenFor(userId: string): Promise<string>;
  /** Typed openapi-fetch client over the contract's `paths`, authenticated when a token is given. */
  client(token?: string): ApiClient;
  /** Plain fetch against the server: `t.fetch('/api-system/clusters', { token })`. */
  fetch(pathAndQuery: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  /** multipart/form-data POST of one file: `t.upload('/api-system/clusters/<id>/logo', 'logo', bytes, 'a.png', token)`. */
  upload(
    pathAndQuery: string,
    field: string,
    bytes: Buffer | Uint8Array,
    filename: string,
    token?: string,
    contentType?: string,
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Resolves once the server's change feed announces a change of `table` (of this user's rows when `userId` is given).
 * A test that changes a cached row straight in the database awaits it: on PostgreSQL the notification arrives after
 * the commit, so the next request could otherwise still be answered from the cache. The server's caches subscribed
 * first, so they have heard it when this resolves. Call it before the write.
 */
export function changeHeard(t: TestServer, table: string, userId?: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no change of ${table}${userId ? `:${userId}` : ''} was announced within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const off = t.changes.subscribe({
      onChange: (change) => {
        if (change.table === table && (userId === undefined || change.id === userId)) done();
      },
      // Notifications may have been missed: every cache was dropped, which serves the waiting test as well.
      onReset: done,
    });
  });
}

/** A new, empty database on the TEST_DATABASE_URL server, and a way to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

// PGlite's initdb is the slow part of a start (seconds). Each test worker builds its templates once, from the
// cluster `npm install` saved when there is one, and every in-memory server starts from a copy of them.
// Seeded only with the default credentials of loadConfig.
const templates = new Map<'seeded' | 'empty', Promise<Blob>>();
function pgliteTemplate(kind: 'seeded' | 'empty', config: Config): Promise<Blob> {
  let p = templates.get(kind);
  if (!p) {
    p = (async () => {
      const db = await createDatabase(
        { database: { engine: 'pglite', dir: null } },
        { pgliteTemplate: templateForNewDatabase(null) },
      );
      try {
        await migrateLatest(db.knex);
        if (kind === 'seeded') await seedIfEmpty(db.knex, config);
        return await dumpTemplate(db);
      } finally {
        await db.close();
      }
    })();
    templates.set(kind, p);
  }
  return p;
}

const SEED_ENV = ['ADMIN_USERNAME', 'ADMIN_PASSWORD', 'DEMO_PASSWORD'];

export async function startTestServer(engine: Engine = 'pglite', opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-test-'));
  const config0 = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    VALIDATE_RESPONSES: 'true',
    // Suites sign in many users from 127.0.0.1 in quick succession: far above the production sign-in rates, so only
    // the tests of sign-in protection (which set their own) meet a 429.
    AUTH_RATE_PER_IP: '100000/1s',
    AUTH_HASH_QUEUE: '10000',
    // Likewise every other operation: one account or address sends thousands of requests a minute here. The tests of
    // the rate limits set their own.
    RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
    RATE_LIMIT_PER_ADDRESS: '1000000/1s',
    ...opts.env,
  });
  let pgDb: { url: string; drop: () => Promise<void> } | null = null;
  if (engine === 'postgres') {
    if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    pgDb = await createPostgresDatabase();
  }
  const config: Config = {
    ...config0,
    port: 0,
    database: pgDb ? { engine: 'postgres', url: pgDb.url } : { engine: 'pglite', dir: null },
  };

  let db: Database | null = null;
  let changes: ChangeFeed | null = null;
  let server: Server | null = null;
  let rateLimits: RateLimitStore | null = null;
  const cleanup = async () => {
    if (server)
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        server!.closeAllConnections();
      });
    await rateLimits?.close();
    // Before the database is dropped: its LISTEN connection would be one more session in the way.
    await changes?.close();
    await db?.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (engine === 'pglite') {
      const kind = opts.seed !== false && !SEED_ENV.some((k) => opts.env?.[k] !== undefined) ? 'seeded' : 'empty';
      db = await createDatabase(config, { pgliteTemplate: await pgliteTemplate(kind, config) });
    } else {
      db = await createDatabase(config);
    }
    await migrateLatest(db.knex);
    if (opts.seed !== false) await seedIfEmpty(db.knex, config);
    const storage =
      opts.storage ?? createLocalStorage({ dir: path.join(dataDir, 'uploads'), secret: `files:${config.jwtSecret}` });
    const logger = opts.logSink
      ? createLogger('trace', { write: (line: string) => void opts.logSink!(line) })
      : createLogger(config.logLevel);
    changes = await openChangeFeed(db, { logger });
    // The test process plays main.ts's part: it sets the password-hash gate, here from this server's configuration.
    configurePasswordHashGate(config.signIn.hashConcurrency, config.signIn.hashQueue);
    // In memory, or in the Redis of RATE_LIMIT_REDIS_URL when a test sets one.
    rateLimits = createRateLimitStore({ ...config.rateLimits, logger });
    const app = createApp({
      config,
      db,
      storage,
      logger,
      handlerOverrides: opts.handlerOverrides,
      changes,
      rateLimits,
      ...(opts.tracing ? { tracing: opts.tracing } : {}),
    });
    server = createServer(app);
    // As in production (server/src/main.ts): an idle keep-alive socket outlives the client's own idle timeout, so a
    // client never reuses a socket the server is closing at that moment (a slow, busy machine hits that race).
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(0, '127.0.0.1', () => resolve());
    });
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const knex = db.knex;

    const doFetch: TestServer['fetch'] = (pathAndQuery, init = {}) => {
      const { token, json, headers, ...rest } = init;
      const h = new Headers(headers);
      if (token) h.set('Authorization', `Bearer ${token}`);
      let body = rest.body;
      if (json !== undefined) {
        h.set('Content-Type', 'application/json');
        body = JSON.stringify(json);
      }
      return fetch(baseUrl + pathAndQuery, { ...rest, headers: h, body });
    };

    let closed = false;
    return {
      engine,
      baseUrl,
      config,
      knex,
      storage,
      changes,
      async login(username, password) {
        const pw = password ?? (username === config.admin.username ? config.admin.password : config.demoPassword);
        const res = await doFetch('/api/auth/login', { method: 'POST', json: { username, password: pw } });
        if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { access_token: string }).access_token;
      },
      async tokenFor(userId) {
        const sessionId = randomUUID();
        await knex('sessions').insert({
          id: sessionId,
          user_id: userId,
          expires_at: knex.raw("now() + interval '1 day'"),
        });
        return signAccessToken(config.jwtSecret, userId, Date.now(), sessionId);
      },
      client(token) {
        return createClient<paths>({ baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {} });
      },
      fetch: doFetch,
      upload(pathAndQuery, field, bytes, filename, token, contentType = 'application/octet-stream') {
        const form = new FormData();
        form.append(field, new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
        return doFetch(pathAndQuery, { method: 'POST', body: form, token });
      },
      async close() {
        if (closed) return;
        closed = true;
        await cleanup();
      },
    };
  } catch (err) {
    await cleanup().catch(() => undefined);
    throw err;
  }
}
