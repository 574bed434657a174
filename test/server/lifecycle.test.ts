// The process's life: start and stop with a request in flight, and the ways a start fails (the port taken, the
// database unreachable or migrated by a newer version), each saying why and leaving nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDatabase, DatabaseUnreachableError, SchemaNewerError } from '../../server/src/db/index.js';
import { start } from '../../server/src/main.js';

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
