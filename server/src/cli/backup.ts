// `npm run backup -- [file]` and `npm run restore -- <file> [--force]`: a copy of the embedded database (DATA_DIR/db)
// as one gzipped tarball, and back. The embedded database belongs to one process: while a server holds it, both
// refuse (a copy of files under a running database is not consistent). PostgreSQL: pg_dump / pg_restore (docs/operations.md, "Backup and restore").
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { loadDatabaseConfig } from '../config.js';
import { createDatabase, DataDirLockedError, migrationStatus, type Database } from '../db/index.js';
import { acquireDirLock } from '../db/lock.js';
import { embeddedDatabaseExists } from '../db/migration-status.js';

/** Refused with a message that says what to do instead. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

function embeddedDir(env: NodeJS.ProcessEnv, verb: 'back up' | 'restore'): string {
  const { database } = loadDatabaseConfig(env);
  if (database.engine === 'postgres') {
    throw new BackupError(
      `DATABASE_URL is set: ${verb === 'back up' ? 'back up PostgreSQL with pg_dump --format=custom' : 'restore PostgreSQL with pg_restore'} (see "Backup and restore" in docs/operations.md). npm run backup/restore handle the embedded database only.`,
    );
  }
  if (database.dir === null) throw new BackupError(`An in-memory database has nothing to ${verb}.`);
  return database.dir;
}

const refusal = (err: DataDirLockedError, verb: string) =>
  new BackupError(
    `The server (process ${err.pid}) has the embedded database in ${err.dir} open, so its files are not a consistent copy: stop it, then ${verb} (it takes seconds), then start it again.`,
  );

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');

/** The file name a backup gets when none is given: under `var/`, which git ignores (a backup holds password hashes). */
export const defaultBackupFile = () => path.resolve('var', 'backups', `platform-admin-db-${stamp()}.tar.gz`);

async function summary(db: Database): Promise<string> {
  const { applied } = await migrationStatus(db.knex);
  const users = await db
    .knex('users')
    .count({ n: '*' })
    .first()
    .catch(() => undefined);
  return `${applied.length} migrations${users ? `, ${Number(users.n)} users` : ''}`;
}

/** Writes a consistent copy of the embedded database to `file` and checks that it opens. Returns what it wrote. */
export async function backup(
  file: string = defaultBackupFile(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ file: string; summary: string }> {
  const dir = embeddedDir(env, 'back up');
  if (!embeddedDatabaseExists(dir)) throw new BackupError(`There is no embedded database in ${dir} to back up.`);
  let db: Database;
  try {
    db = await createDatabase({ database: { engine: 'pglite', dir } });
  } catch (err) {
    throw err instanceof DataDirLockedError ? refusal(err, 'back up') : err;
  }
  try {
    const dump = await db.pglite!.dumpDataDir('gzip');
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
  } finally {
    await db.close();
  }
  // A backup that does not open is no backup: load it into memory and read it.
  const check = await createDatabase(
    { database: { engine: 'pglite', dir: null } },
    { pgliteTemplate: new Blob([readFileSync(file)]) },
  );
  try {
    return { file: path.resolve(file), summary: await summary(check) };
  } finally {
    await check.close();
  }
}

/**
 * Replaces the embedded database with a backup. An existing database is kept aside as `db.before-restore-<time>` and
 * only with `force`; never while a server has it open.
 */
export async function restore(
  file: string,
  opts: { force?: boolean } = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ dir: string; keptAside: string | null; summary: string }> {
  const dir = embeddedDir(env, 'restore');
  if (!existsSync(file)) throw new BackupError(`No backup file at ${path.resolve(file)}.`);
  let lock;
  try {
    lock = acquireDirLock(dir);
  } catch (err) {
    throw err instanceof DataDirLockedError ? refusal(err, 'restore') : err;
  }
  let keptAside: string | null = null;
  try {
    if (existsSync(dir)) {
      if (!opts.force)
        throw new BackupError(
          `${dir} already holds a database. Pass --force to replace it (it is kept as ${path.basename(dir)}.before-restore-<time> next to it).`,
        );
      keptAside = `${dir}.before-restore-${stamp()}`;
      renameSync(dir, keptAside);
    }
    mkdirSync(path.dirname(dir), { recursive: true });
    const pglite = new PGlite(dir, { extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(file)]) });
    await pglite.waitReady;
    await pglite.close();
  } finally {
    lock.release();
  }
  const db = await createDatabase({ database: { engine: 'pglite', dir } });
  try {
    return { dir, keptAside, summary: await summary(db) };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  try {
    if (command === 'backup') {
      const result = await backup(args[0]);
      process.stdout.write(`Backed up the embedded database to ${result.file} (${result.summary}); it opens.\n`);
    } else if (command === 'restore') {
      const file = args.find((a) => !a.startsWith('--'));
      if (!file) throw new BackupError('Name the backup to restore: npm run restore -- <file> [--force]');
      const result = await restore(file, { force: args.includes('--force') });
      process.stdout.write(
        `Restored ${path.resolve(file)} into ${result.dir} (${result.summary})${result.keptAside ? `; the previous database is kept in ${result.keptAside}` : ''}.\n`,
      );
    } else {
      throw new BackupError('Use: npm run backup -- [file] | npm run restore -- <file> [--force]');
    }
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
