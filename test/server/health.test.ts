import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/src/config.js';
import { createDatabase, DatabaseUnreachableError, SchemaNewerError } from '../../server/src/db/index.js';
import { start, startupWarnings } from '../../server/src/main.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

describe('configuration', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when nothing is set, then the documented local defaults apply', () => {
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir,
      database: { engine: 'pglite', dir: path.join(dataDir, 'db') },
      admin: { username: 'admin', password: 'admin123' },
      demoPassword: 'demo1234',
      seedDemo: true,
      storage: { driver: 'local', dir: path.join(dataDir, 'uploads') },
      validateResponses: true,
    });
  });

  it('when JWT_SECRET is absent, then a secret is generated once and kept across restarts', () => {
    const a = loadConfig({ DATA_DIR: dataDir });
    const b = loadConfig({ DATA_DIR: dataDir });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.jwtSecret).toBe(a.jwtSecret);
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(a.jwtSecret);
  });

  it('when DATABASE_URL and STORAGE=gcs are set, then PostgreSQL and the bucket are selected', () => {
    const c = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://u@db:5432/app',
      STORAGE: 'gcs',
      GCS_BUCKET: 'b',
      GCS_API_ENDPOINT: 'http://127.0.0.1:1',
    });
    expect(c.database).toEqual({ engine: 'postgres', url: 'postgres://u@db:5432/app' });
    expect(c.storage).toEqual({ driver: 'gcs', bucket: 'b', keyFile: null, apiEndpoint: 'http://127.0.0.1:1' });
  });

  it('when several settings are wrong, then one error lists each of them', () => {
    let err: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        STORAGE: 's3',
        LOG_LEVEL: 'loud',
        VALIDATE_RESPONSES: 'maybe',
        JWT_SECRET: 'short',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toHaveLength(6);
    for (const name of ['PORT', 'DATABASE_URL', 'STORAGE', 'LOG_LEVEL', 'VALIDATE_RESPONSES', 'JWT_SECRET']) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });

  it('when OIDC_PROVIDERS is wrong, then each bad entry is named with what to write', () => {
    const problemsOf = (raw: string) => {
      try {
        loadConfig({ DATA_DIR: dataDir, OIDC_PROVIDERS: raw });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problemsOf('{not json')).toEqual([
      expect.stringMatching(/^OIDC_PROVIDERS must be a JSON array like .*it is not JSON$/),
    ]);
    expect(problemsOf('{"id":"x"}')).toEqual([expect.stringMatching(/^OIDC_PROVIDERS must be a JSON array/)]);
    const entries = [
      { id: 'Entra ID', issuer: 'https://login.example.com', client_id: 'a' },
      { id: 'plain', issuer: 'http://idp.example.com', client_id: 'a' },
      { id: 'noclient', issuer: 'https://login.example.com' },
      { id: 'domains', issuer: 'https://login.example.com', client_id: 'a', allowed_email_domains: ['not a domain'] },
      { id: 'ok', issuer: 'https://login.example.com', client_id: 'a' },
      { id: 'ok', issuer: 'https://login.example.com', client_id: 'b' },
    ];
    expect(problemsOf(JSON.stringify(entries))).toEqual([
      expect.stringMatching(/^OIDC_PROVIDERS\[0\]\.id must be lower-case letters/),
      expect.stringMatching(/^OIDC_PROVIDERS\[1\]\.issuer must be the provider's https issuer URL/),
      expect.stringMatching(/^OIDC_PROVIDERS\[2\]\.client_id is required/),
      expect.stringMatching(
        /^OIDC_PROVIDERS\[3\]\.allowed_email_domains must list domains .*"not a domain" is not one/,
      ),
      'OIDC_PROVIDERS[5].id "ok" is used twice',
    ]);
    const [loopback] = loadConfig({
      DATA_DIR: dataDir,
      OIDC_PROVIDERS: JSON.stringify([{ id: 'local', issuer: 'http://127.0.0.1:8080', client_id: 'a' }]),
    }).oidcProviders;
    expect(loopback).toMatchObject({
      id: 'local',
      displayName: 'local',
      scopes: ['openid', 'email', 'profile'],
      jitProvisioning: false,
      clientSecret: null,
      clockToleranceSeconds: 30,
    });
  });

  it('when STORAGE=gcs lacks its bucket, then that is named', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, STORAGE: 'gcs' })).toThrow(/GCS_BUCKET is required/);
  });

  it('when NODE_ENV=production, then JWT_SECRET and ADMIN_PASSWORD are required, no demo is seeded unless asked, and responses are not validated by default', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required/);
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).toThrow(/ADMIN_PASSWORD is required/);
    const production = {
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      JWT_SECRET: 'p'.repeat(40),
      ADMIN_PASSWORD: 'strong-pass',
    };
    const c = loadConfig(production);
    expect(c.seedDemo).toBe(false);
    expect(c.validateResponses).toBe(false);
    // Asking for the demo in production needs its own password, never the documented default.
    expect(() => loadConfig({ ...production, SEED_DEMO: 'true' })).toThrow(
      /DEMO_PASSWORD is required when NODE_ENV=production and SEED_DEMO=true/,
    );
    expect(loadConfig({ ...production, SEED_DEMO: 'true', DEMO_PASSWORD: 'other-pass' })).toMatchObject({
      seedDemo: true,
      demoPassword: 'other-pass',
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO must be true or false/);
  });
});

describe.each(engines())('health and app basics on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t?.close());

  it('when /healthz is called without a token, then the service and database report ok with the version', async () => {
    const { data, response } = await t.client().GET('/healthz');
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'ok', database: 'ok', version: t.config.version });
  });

  it('when a request carries X-Request-Id, then the response echoes it; otherwise a new id is sent', async () => {
    const mine = await t.fetch('/healthz', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const fresh = await t.fetch('/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when any response is sent, then security headers from helmet are present', async () => {
    const res = await t.fetch('/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('when a JSON body is larger than 1 MB, then a 413 problem is returned', async () => {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username: 'admin', password: 'x'.repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when the body has the wrong media type, then a 415 problem is returned', async () => {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'username=admin',
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when /readyz is called without a token, then the service is ready with every migration applied', async () => {
    const { data, response } = await t.client().GET('/readyz');
    expect(response.status).toBe(200);
    const applied = (await t.knex('knex_migrations').count({ n: '*' }).first()) as { n: number | string };
    expect(data).toMatchObject({
      status: 'ready',
      database: 'ok',
      migrations: { applied: Number(applied.n) },
      version: t.config.version,
    });
    expect(data!.migrations.latest).toMatch(/^\d{4}_/);
  });

  it('when the database holds a migration this server does not know, or lacks one, then /readyz answers 503 saying which', async () => {
    const other = await startTestServer(engine, { seed: false });
    try {
      await other
        .knex('knex_migrations')
        .insert({ name: '9999_from_a_newer_version', batch: 99, migration_time: new Date() });
      let res = await other.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/9999_from_a_newer_version.*newer version/);
      expect((await other.fetch('/healthz')).status, 'liveness does not depend on the schema').toBe(200);

      await other.knex('knex_migrations').where({ name: '9999_from_a_newer_version' }).delete();
      const latest = (await other.knex('knex_migrations').orderBy('id', 'desc').first()) as { name: string };
      await other.knex('knex_migrations').where({ name: latest.name }).delete();
      res = await other.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(((await res.json()) as { detail: string }).detail).toContain(
        `lacks 1 migration of this version (${latest.name})`,
      );
    } finally {
      await other.close();
    }
  });

  it('when the database is gone, then /healthz answers 503 problem', async () => {
    const other = await startTestServer('pglite');
    await other.knex.destroy();
    try {
      const res = await other.fetch('/healthz');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const ready = await other.fetch('/readyz');
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { detail: string }).detail).toBe('The service cannot reach its database.');
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});

describe('contract enforcement of responses', () => {
  it('when a handler answers with a body the contract does not allow, then the response is refused with a 500 problem naming the contract', async () => {
    let t: TestServer | null = null;
    try {
      // A body with a field the contract does not have: the response validator must catch it.
      const getHealth = async () => ({
        status: 200 as const,
        body: { status: 'ok', database: 'ok', version: '1', extra: true } as never,
      });
      t = await startTestServer('pglite', { handlerOverrides: { getHealth } });
      const res = await t.fetch('/healthz');
      expect(res.status).toBe(500);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/does not match the API contract/);
    } finally {
      await t?.close();
    }
  });
});

describe('http helpers', () => {
  it('when list queries are parsed, then defaults, bounds, -1 and the sort whitelist apply', async () => {
    const { parseListQuery, paginateInfo } = await import('../../server/src/core/list-query.js');
    const sortable = { code: 'clusters.code', created_at: 'clusters.created_at' };
    expect(parseListQuery({}, { sortable })).toMatchObject({
      page: 1,
      perpage: 10,
      limit: 10,
      offset: 0,
      sort: [{ column: 'clusters.created_at', direction: 'desc' }],
    });
    expect(parseListQuery({ page: 3, perpage: 20, sort: 'code:asc,created_at:desc' }, { sortable })).toMatchObject({
      offset: 40,
      limit: 20,
      sort: [{ field: 'code' }, { field: 'created_at' }],
    });
    expect(parseListQuery({ perpage: -1 }, { sortable })).toMatchObject({ perpage: -1, limit: undefined, page: 1 });
    expect(() => parseListQuery({ sort: 'password:asc' }, { sortable })).toThrow(/unknown sort/);
    expect(() => parseListQuery({ sort: 'code:sideways' }, { sortable })).toThrow(/unknown sort/);
    expect(paginateInfo(0, { page: 1, perpage: 10 })).toEqual({ total: 0, page: 1, perpage: 10, pages: 1 });
    expect(paginateInfo(21, { page: 2, perpage: 10 })).toEqual({ total: 21, page: 2, perpage: 10, pages: 3 });
    expect(paginateInfo(21, { page: 1, perpage: -1 })).toEqual({ total: 21, page: 1, perpage: -1, pages: 1 });
  });

  it('when If-Match is absent, matching or stale, then the write proceeds, proceeds or fails with 412', async () => {
    const { ifMatch, etagOf } = await import('../../server/src/core/etag.js');
    const row = { id: 'a0000000-0000-4000-8000-000000000000', updated_at: new Date('2026-01-01T00:00:00Z') };
    expect(etagOf(row)).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(() => ifMatch(undefined)(row)).not.toThrow();
    expect(() => ifMatch(etagOf(row))(row)).not.toThrow();
    expect(() => ifMatch('*')(row)).not.toThrow();
    const newer = { ...row, updated_at: new Date('2026-01-01T00:00:01Z') };
    expect(() => ifMatch(etagOf(row))(newer)).toThrow(expect.objectContaining({ status: 412 }));
  });

  it('when database errors reach the renderer, then unique → 409 and malformed values → 400, anything unknown → 500', async () => {
    const { mapError } = await import('../../server/src/http/problem.js');
    expect(mapError({ code: '23505', message: 'duplicate key' }).status).toBe(409);
    expect(mapError({ code: '22P02', message: 'invalid input syntax for type uuid' }).status).toBe(400);
    expect(mapError(new Error('boom'))).toEqual({ status: 500, detail: 'An unexpected error occurred' });
  });

  it('when a request with credentials is logged, then the password, tokens and Authorization header are redacted', async () => {
    const { pino } = await import('pino');
    const { REDACT_PATHS } = await import('../../server/src/http/logging.js');
    const lines: string[] = [];
    const log = pino(
      { redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
      { write: (l: string) => void lines.push(l) },
    );
    log.info(
      {
        req: { headers: { authorization: 'Bearer abc.def.ghi' } },
        body: { username: 'admin', password: 'admin123', refresh_token: 'rt-secret' },
      },
      'x',
    );
    log.info({ access_token: 'at-secret' }, 'y');
    const out = lines.join('');
    for (const secret of ['abc.def.ghi', 'admin123', 'rt-secret', 'at-secret']) expect(out).not.toContain(secret);
    expect(out).toContain('admin');
  });
});

describe('process lifecycle', () => {
  it('when started and a request is in flight during stop, then the request completes and the database is released', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-main-'));
    try {
      const running = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' });
      const inflight = fetch(`${running.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin123' }),
      });
      await new Promise((r) => setTimeout(r, 20));
      const stopping = running.stop();
      const res = await inflight;
      expect(res.status).toBe(200);
      await stopping;
      await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
      // the lock is released: a new start on the same directory works and keeps the data (no re-seed)
      const again = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' });
      try {
        const token = (
          (await (
            await fetch(`${again.url}/api/auth/login`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ username: 'admin', password: 'admin123' }),
            })
          ).json()) as { access_token: string }
        ).access_token;
        expect(
          (await fetch(`${again.url}/api/user/permission/platform`, { headers: { Authorization: `Bearer ${token}` } }))
            .status,
        ).toBe(200);
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when the port is taken, then start fails at once with EADDRINUSE, before the database is created or seeded', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-port-first-'));
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const started = Date.now();
      await expect(
        start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(Date.now() - started).toBeLessThan(2_000);
      const { existsSync } = await import('node:fs');
      expect(existsSync(path.join(dataDir, 'db')), 'no database was created').toBe(false);
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when DATABASE_URL names a server that does not answer, then start fails with one line saying what was tried and what to check', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-unreachable-'));
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    try {
      const err = await start({
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
        DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/platform`,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseUnreachableError);
      const message = (err as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain(`postgres://app:***@127.0.0.1:${port}/platform`);
      expect(message).not.toContain('s3cret');
      expect(message).toMatch(/connection refused.*Check DATABASE_URL/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when the database was migrated by a newer version, then start refuses with a message naming the unknown migration', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-newer-'));
    try {
      const first = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' });
      await first.stop();
      const db = await createDatabase({ database: { engine: 'pglite', dir: path.join(dataDir, 'db') } });
      await db
        .knex('knex_migrations')
        .insert({ name: '9999_from_a_newer_version', batch: 99, migration_time: new Date() });
      await db.close();
      const err = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SchemaNewerError);
      expect((err as Error).message).toMatch(/schema is newer than this server.*9999_from_a_newer_version/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when JWT_SECRET is not set outside production, then a start-up warning says what it means for replicas', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-warn-'));
    try {
      const [warning] = startupWarnings(loadConfig({ DATA_DIR: dataDir }));
      expect(warning).toMatch(
        /JWT_SECRET is not set.*Replicas.*refuse each other's tokens.*same JWT_SECRET on every replica/,
      );
      expect(startupWarnings(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'k'.repeat(40) }))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when the port is taken, then start fails with EADDRINUSE and releases the data directory', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-port-'));
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(
        start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const { existsSync } = await import('node:fs');
      expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
