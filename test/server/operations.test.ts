// The operator's database tools: `npm run migrate -- up|status|down` on the configured database, and
// `npm run backup` / `npm run restore` of the embedded one (refused while a server holds it).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupError, backup, restore } from '../../server/src/cli/backup.js';
import { migrate } from '../../server/src/cli/migrate.js';
import { start } from '../../server/src/main.js';
import { migrations } from '../../server/src/db/migrations/index.js';
import { createPostgresDatabase } from './support/index.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-ops-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const names = migrations.map((m) => m.name);
const latest = names[names.length - 1]!;

async function login(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const databases: Array<[string, () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }>]> = [
  [
    'the embedded database',
    async () => ({ env: { DATA_DIR: mkdtempSync(path.join(work, 'migrate-')) }, drop: async () => undefined }),
  ],
];
if (process.env.TEST_DATABASE_URL) {
  databases.push([
    'PostgreSQL',
    async () => {
      const db = await createPostgresDatabase();
      return { env: { DATA_DIR: mkdtempSync(path.join(work, 'migrate-pg-')), DATABASE_URL: db.url }, drop: db.drop };
    },
  ]);
}

describe.each(databases)('npm run migrate on %s', (_name, makeDatabase) => {
  it('when run up, status and down, then it applies every migration, reports the schema current, and rolls back the latest one', async () => {
    const { env, drop } = await makeDatabase();
    try {
      const up = await migrate('up', env);
      expect(up.exitCode).toBe(0);
      expect(up.output.join('\n')).toMatch(/^Database: /);
      expect(up.output.join('\n')).toContain(`Applied (${names.length}): ${names.join(', ')}`);

      const status = await migrate('status', env);
      expect(status.exitCode).toBe(0);
      expect(status.output).toContain('The schema is current.');

      const down = await migrate('down', env);
      expect(down.exitCode).toBe(0);
      expect(down.output).toContain(`Rolled back ${latest}.`);

      const behind = await migrate('status', env);
      expect(behind.exitCode, 'status fails while a migration is pending').toBe(1);
      expect(behind.output).toContain(`Pending (1): ${latest}`);

      expect((await migrate('up', env)).output).toContain(`Applied ${latest}.`);
      expect((await migrate('up', env)).output).toContain('Already up to date.');
      expect((await migrate('sideways', env)).exitCode).toBe(2);
    } finally {
      await drop();
    }
  }, 120_000);
});

describe('npm run migrate and a running server', () => {
  it('when the server holds the embedded database, then migrate refuses, naming the process', async () => {
    const dataDir = mkdtempSync(path.join(work, 'held-'));
    const running = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    try {
      await expect(migrate('status', { DATA_DIR: dataDir })).rejects.toThrow(
        new RegExp(`already used by process ${process.pid}`),
      );
    } finally {
      await running.stop();
    }
  }, 120_000);
});

describe('npm run backup and restore of the embedded database', () => {
  it('when backed up, changed and restored, then the data is as it was at the backup; while the server runs both refuse', async () => {
    const dataDir = mkdtempSync(path.join(work, 'backup-'));
    const env = { DATA_DIR: dataDir };
    const serverEnv = { ...env, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' };
    const file = path.join(work, 'backups', 'one.tar.gz');

    // A cluster that exists at the time of the backup.
    let running = await start(serverEnv);
    let token = await login(running.url);
    const created = await fetch(`${running.url}/api-system/clusters`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        code: 'CL-BAK',
        name: 'Backed-up cluster',
        alias_name: 'BAK',
        max_license_bu: 3,
        is_active: true,
      }),
    });
    expect(created.status).toBe(201);
    const cluster = (await created.json()) as { id: string };

    // While the server holds the data directory: a clear refusal, no half copy.
    await expect(backup(file, env)).rejects.toThrow(
      /The server \(process \d+\) has the embedded database .* open.*stop it, then back up/,
    );
    expect(existsSync(file)).toBe(false);
    await running.stop();

    const made = await backup(file, env);
    expect(made.file).toBe(file);
    expect(made.summary).toMatch(new RegExp(`^${names.length} migrations, \\d+ users$`));

    // Changed after the backup: the cluster is deleted for good.
    running = await start(serverEnv);
    token = await login(running.url);
    expect(
      (
        await fetch(`${running.url}/api-system/clusters/${cluster.id}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(204);
    await expect(restore(file, { force: true }, env)).rejects.toThrow(/stop it, then restore/);
    await running.stop();

    await expect(restore(file, {}, env), 'an existing database is replaced only with --force').rejects.toThrow(
      BackupError,
    );
    const restored = await restore(file, { force: true }, env);
    expect(restored.keptAside).toMatch(/db\.before-restore-/);
    expect(readdirSync(dataDir).filter((n) => n.startsWith('db.before-restore-'))).toHaveLength(1);

    running = await start(serverEnv);
    try {
      token = await login(running.url);
      const back = await fetch(`${running.url}/api-system/clusters/${cluster.id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(back.status).toBe(200);
      expect(await back.json()).toMatchObject({ code: 'CL-BAK', deleted_at: null });
    } finally {
      await running.stop();
    }
  }, 180_000);

  it('when DATABASE_URL is set, then backup and restore point at pg_dump and pg_restore', async () => {
    const env = { DATA_DIR: work, DATABASE_URL: 'postgres://app@db.example:5432/platform' };
    await expect(backup(path.join(work, 'x.tar.gz'), env)).rejects.toThrow(/pg_dump/);
    await expect(restore(path.join(work, 'x.tar.gz'), {}, env)).rejects.toThrow(/pg_restore/);
  });
});
