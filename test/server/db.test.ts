import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  createDatabase,
  migrateLatest,
  migrateRollbackAll,
  migrationSource,
  countFrom,
  toCount,
  DataDirLockedError,
  type Database,
} from '../../server/src/db/index.js';
import { acquireDirLock } from '../../server/src/db/lock.js';
import { seedIfEmpty } from '../../server/src/db/seed/index.js';
import { savedEmptyTemplate } from '../../server/src/db/template.js';
import type { DatabaseConfig } from '../../server/src/config.js';
import { type BusinessUnitRecord, type ClusterRecord, rawRows, type UserRecord } from '../support/records.js';
import { createPostgresDatabase, engines, type Engine } from './support/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TABLES = [
  'users',
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_subscriptions',
  'permission_grants',
  'refresh_tokens',
  'sessions',
  'login_attempts',
  'currencies',
  'clusters',
  'business_units',
  'cluster_users',
  'bu_users',
  'report_templates',
  'print_template_mappings',
  'dashboard_widgets',
  'documents',
  'document_pending_approvers',
  'audit_events',
  'user_identities',
  'sso_sign_ins',
  'sso_handoffs',
  'sso_group_mappings',
  'api_tokens',
  'user_totp',
  'user_recovery_codes',
  'user_passkeys',
  'sign_in_challenges',
  'webauthn_challenges',
  'second_factor_policy',
];

async function openEmpty(engine: Engine): Promise<{ db: Database; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const db = await createDatabase(
      { database: { engine: 'pglite', dir: null } },
      { pgliteTemplate: savedEmptyTemplate() },
    );
    return { db, drop: async () => db.close() };
  }
  const pgDb = await createPostgresDatabase();
  const db = await createDatabase({ database: { engine: 'postgres', url: pgDb.url } satisfies DatabaseConfig });
  return {
    db,
    async drop() {
      await db.close();
      await pgDb.drop();
    },
  };
}

async function publicTables(db: Database): Promise<string[]> {
  const rows = await rawRows<{ tablename: string }>(
    db.knex.raw(
      "select tablename from pg_tables where schemaname = 'public' and tablename not like 'knex_%' order by 1",
    ),
  );
  return rows.map((r) => r.tablename);
}

describe.each(engines())('database schema on %s', (engine) => {
  let h: { db: Database; drop(): Promise<void> };
  beforeAll(async () => {
    h = await openEmpty(engine);
  });
  afterAll(() => h?.drop());

  it('when migrating up, down and up again, then every table appears, disappears and reappears', async () => {
    await migrateLatest(h.db.knex);
    expect(await publicTables(h.db)).toEqual([...TABLES].sort());
    await migrateRollbackAll(h.db.knex);
    expect(await publicTables(h.db)).toEqual([]);
    await migrateLatest(h.db.knex);
    expect(await publicTables(h.db)).toEqual([...TABLES].sort());
  });

  it('when live business units share a code, then the migration that makes codes unique stops and names them, and drops nothing', async () => {
    await migrateLatest(h.db.knex);
    await h.db.knex.migrate.down({ migrationSource, name: '0005_unique_bu_code' });
    const clusters = await h.db
      .knex<ClusterRecord>('clusters')
      .insert([
        { code: 'MIG-A', name: 'Mig A' },
        { code: 'MIG-B', name: 'Mig B' },
      ])
      .returning('id');
    const [a, b] = clusters.map((r) => (r as { id: string }).id);
    await h.db.knex<BusinessUnitRecord>('business_units').insert([
      { cluster_id: a, code: 'MIG-DUP', name: 'First' },
      { cluster_id: b, code: 'MIG-DUP', name: 'Second' },
    ]);
    await expect(migrateLatest(h.db.knex)).rejects.toThrow(/MIG-DUP \(MIG-A\/First, MIG-B\/Second\)/);
    expect(
      toCount(
        (await h.db.knex<BusinessUnitRecord>('business_units').where({ code: 'MIG-DUP' }).count({ n: '*' }))[0]!.n,
      ),
    ).toBe(2);
    await h.db
      .knex<BusinessUnitRecord>('business_units')
      .where({ code: 'MIG-DUP', name: 'Second' })
      .update({ code: 'MIG-DUP-2' });
    await migrateLatest(h.db.knex);
    await expect(
      h.db.knex<BusinessUnitRecord>('business_units').insert({ cluster_id: b, code: 'MIG-DUP', name: 'Third' }),
    ).rejects.toMatchObject({ code: '23505' });
    await h.db.knex<BusinessUnitRecord>('business_units').whereIn('cluster_id', [a!, b!]).delete();
    await h.db.knex<ClusterRecord>('clusters').whereIn('id', [a!, b!]).delete();
  });

  it('when the schema is in place, then the trigram indexes for the user search exist', async () => {
    await migrateLatest(h.db.knex);
    const rows = await rawRows<{ indexname: string }>(
      h.db.knex.raw(
        "select indexname, indexdef from pg_indexes where tablename = 'users' and indexdef like '%gin_trgm_ops%'",
      ),
    );
    expect(rows.map((r) => r.indexname).sort()).toEqual([
      'users_email_trgm',
      'users_firstname_trgm',
      'users_lastname_trgm',
      'users_username_trgm',
    ]);
  });

  it('when two live clusters share code and name, then the second insert is a unique violation; after a soft delete it is allowed', async () => {
    await migrateLatest(h.db.knex);
    const code = `UQ-${randomBytes(3).toString('hex')}`;
    await h.db.knex<ClusterRecord>('clusters').insert({ code, name: 'Same' });
    await expect(h.db.knex<ClusterRecord>('clusters').insert({ code, name: 'Same' })).rejects.toMatchObject({
      code: '23505',
    });
    await h.db.knex<ClusterRecord>('clusters').where({ code }).update({ deleted_at: h.db.knex.fn.now() });
    await expect(h.db.knex<ClusterRecord>('clusters').insert({ code, name: 'Same' })).resolves.toBeDefined();
  });

  it('when a malformed uuid reaches the database, then the error carries SQLSTATE 22P02 (mapped to 400)', async () => {
    await migrateLatest(h.db.knex);
    await expect(h.db.knex<ClusterRecord>('clusters').where({ id: 'not-a-uuid' }).first()).rejects.toMatchObject({
      code: '22P02',
    });
  });

  it('when counting rows, then the result is a number on this engine', async () => {
    await migrateLatest(h.db.knex);
    const rows = await h.db.knex('currencies').count({ count: '*' });
    expect(typeof countFrom(rows)).toBe('number');
    expect(toCount('42')).toBe(42);
    expect(toCount(7)).toBe(7);
  });

  it('when seeding without the demo (production), then only the admin and the reference data exist', async () => {
    const empty = await openEmpty(engine);
    try {
      await migrateLatest(empty.db.knex);
      expect(
        await seedIfEmpty(empty.db.knex, {
          admin: { username: 'root', password: 'root-pass-1' },
          demoPassword: 'unused',
          seedDemo: false,
        }),
      ).toBe(true);
      const k = empty.db.knex;
      expect(
        (await k('users').select('username', 'is_super_admin')).map(
          (u: { username: string; is_super_admin: boolean }) => [u.username, u.is_super_admin],
        ),
      ).toEqual([['root', true]]);
      // The production admin replaces the password from the environment at the first sign-in.
      expect((await k<UserRecord>('users').where({ username: 'root' }).first())?.must_change_password).toBe(true);
      for (const table of [
        'clusters',
        'business_units',
        'print_template_mappings',
        'documents',
        'dashboard_widgets',
        'permission_grants',
      ]) {
        expect(countFrom(await k(table).count({ count: '*' })), table).toBe(0);
      }
      expect(countFrom(await k('currencies').count({ count: '*' }))).toBeGreaterThan(0);
      expect(countFrom(await k('report_templates').count({ count: '*' }))).toBeGreaterThan(0);
    } finally {
      await empty.drop();
    }
  });

  it('when seeding an empty database, then it is complete and happens once', async () => {
    await migrateLatest(h.db.knex);
    const config = { admin: { username: 'root', password: 'root-pass-1' }, demoPassword: 'demo1234', seedDemo: true };
    expect(await seedIfEmpty(h.db.knex, config)).toBe(true);
    expect(await seedIfEmpty(h.db.knex, config)).toBe(false);
    const k = h.db.knex;
    const usernames = (await k('users').select('username')).map((r: { username: string }) => r.username);
    expect(usernames).toEqual(expect.arrayContaining(['root', 'viewer', 'editor-a', 'mapper', 'operator']));
    const root = await k<UserRecord>('users').where({ username: 'root' }).first();
    expect(root?.is_super_admin).toBe(true);
    // The demo admin signs in with the documented password and nothing else to do first.
    expect(root?.must_change_password).toBe(false);
    expect((await k<ClusterRecord>('clusters').where({ code: 'CL-A' }).first())?.max_license_bu).toBe(5);
    expect(
      countFrom(
        await k('business_units')
          .join('clusters', 'clusters.id', 'business_units.cluster_id')
          .where('clusters.code', 'CL-B')
          .count({ count: '*' }),
      ),
    ).toBeGreaterThan(0);
    const groups = (await k('report_templates').distinct('report_group'))
      .map((r: { report_group: string }) => r.report_group)
      .sort();
    expect(groups).toEqual(['CN', 'GRN', 'IA', 'INV', 'PC', 'PO', 'PR', 'RFQ', 'SC', 'SR']);
    const operator = (await k<UserRecord>('users').where({ username: 'operator' }).first())!;
    expect(
      countFrom(await k('document_pending_approvers').where({ user_id: operator.id }).count({ count: '*' })),
    ).toBeGreaterThan(0);
    expect(
      countFrom(await k('dashboard_widgets').where({ user_id: operator.id }).count({ count: '*' })),
    ).toBeGreaterThan(0);
    expect(countFrom(await k('permission_grants').where({ user_id: operator.id }).count({ count: '*' }))).toBe(0);
  });
});

describe.runIf(engines().includes('postgres'))('first start of several replicas on one PostgreSQL database', () => {
  it('when three replicas migrate and seed an empty database at the same moment, then all succeed and the demo data exists once', async () => {
    const first = await openEmpty('postgres');
    const url = (first.db.knex.client as { config: { connection: { connectionString: string } } }).config.connection
      .connectionString;
    const others = await Promise.all([1, 2].map(() => createDatabase({ database: { engine: 'postgres', url } })));
    try {
      const config = { admin: { username: 'root', password: 'root-pass-1' }, demoPassword: 'demo1234', seedDemo: true };
      const replicas = [first.db, ...others];
      await Promise.all(replicas.map((db) => migrateLatest(db.knex)));
      const seeded = await Promise.all(replicas.map((db) => seedIfEmpty(db.knex, config)));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      expect(await publicTables(first.db)).toEqual([...TABLES].sort());
      expect(
        countFrom(await first.db.knex<UserRecord>('users').where({ username: 'root' }).count({ count: '*' })),
      ).toBe(1);
      // The lock is released: a later migration on any replica returns at once with nothing to do.
      await migrateLatest(others[1]!.knex);
    } finally {
      await Promise.all(others.map((db) => db.close()));
      await first.drop();
    }
  });
});

describe('PGlite data-directory lock', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-lock-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('when a second opener asks for a held directory, then it is refused with the holder pid and the directory stays closed', async () => {
    const dir = path.join(tmp(), 'db');
    const first = await createDatabase({ database: { engine: 'pglite', dir } });
    try {
      await expect(createDatabase({ database: { engine: 'pglite', dir } })).rejects.toThrow(DataDirLockedError);
      await expect(createDatabase({ database: { engine: 'pglite', dir } })).rejects.toThrow(
        `already used by process ${process.pid}`,
      );
      // the first holder still works
      expect((await rawRows<{ one: number }>(first.knex.raw('select 1 as one')))[0]?.one).toBe(1);
    } finally {
      await first.close();
    }
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('when the lock file names a dead process, then the lock is reclaimed', () => {
    const dir = path.join(tmp(), 'db');
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    writeFileSync(`${dir}.lock`, `${dead}\n`);
    const lock = acquireDirLock(dir);
    expect(readFileSync(`${dir}.lock`, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('when the lock file names a live process that is not a server (a reused pid), then the lock is reclaimed', () => {
    const dir = path.join(tmp(), 'db');
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      writeFileSync(`${dir}.lock`, `${sleeper.pid}\n`);
      const lock = acquireDirLock(dir);
      expect(readFileSync(`${dir}.lock`, 'utf8').trim()).toBe(String(process.pid));
      lock.release();
    } finally {
      sleeper.kill();
    }
  });

  it('when a second server process starts on a held data directory, then it prints a clear error and exits 1', async () => {
    const dataDir = tmp();
    const lock = acquireDirLock(path.join(dataDir, 'db'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'development', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`is already used by process ${process.pid}; stop it or set DATA_DIR`);
      // never opened: PGlite would have created its files
      expect(existsSync(path.join(dataDir, 'db', 'PG_VERSION'))).toBe(false);
    } finally {
      lock.release();
    }
  });
});
