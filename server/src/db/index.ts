import path from 'node:path';
import { mkdirSync } from 'node:fs';
import knexPkg, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { acquireDirLock, type DirLock } from './lock.js';
import { migrationSource } from './migrations/index.js';
import { migrationStatus } from './migration-status.js';

export { toCount, countFrom } from './count.js';
export { DataDirLockedError } from './lock.js';
export { migrationStatus, type MigrationStatus } from './migration-status.js';

/** PostgreSQL could not be reached or refused us; the message says what was tried and what to check, in one line. */
export class DatabaseUnreachableError extends Error {
  constructor(url: string, reason: string) {
    super(
      `Cannot connect to PostgreSQL at ${redactUrl(url)}: ${reason}. Check DATABASE_URL (host, port, user, password, database) and that the server runs and accepts connections from this host.`,
    );
    this.name = 'DatabaseUnreachableError';
  }
}

/** The database holds migrations this version of the server does not know: it was migrated by a newer version. */
export class SchemaNewerError extends Error {
  constructor(public readonly unknown: string[]) {
    super(
      `The database schema is newer than this server: it has ${unknown.length === 1 ? 'migration' : 'migrations'} ${unknown.join(', ')}, which this version does not know. ` +
        'Run the version of the server that migrated it, or roll those migrations back with that version (`npm run migrate -- down`).',
    );
    this.name = 'SchemaNewerError';
  }
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

const CONNECT_TIMEOUT_MS = 10_000;

function reasonOf(err: unknown, url: string): string {
  const e = err as { code?: string; message?: string };
  let host = '';
  try {
    const u = new URL(url);
    host = `${u.hostname}:${u.port || 5432}`;
  } catch {
    /* named by the caller */
  }
  switch (e?.code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${host} (connection refused)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name of ${host} does not resolve`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} cannot be reached (${e.code})`;
    case '28P01':
    case '28000':
      return `the server refused the credentials (${e.message})`;
    case '3D000':
      return `${e.message}; create it first`;
    default:
      if (/timeout/i.test(e?.message ?? '')) return `no answer from ${host} within ${CONNECT_TIMEOUT_MS / 1000} s`;
      return e?.message ?? String(err);
  }
}

/** One connection, with a deadline, before the pool exists: a clear error instead of a pool timeout a minute later. */
async function probePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw new DatabaseUnreachableError(url, reasonOf(err, url));
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface Database {
  knex: Knex;
  engine: 'pglite' | 'postgres';
  /** The connection URL (PostgreSQL only), for a connection of its own outside the pool (the change feed's LISTEN). */
  url?: string;
  /** The embedded instance (PGlite only), e.g. to dump it as a template. */
  pglite?: PGlite;
  /** Destroys the pool (PGlite: closes the instance) and releases the data-directory lock. */
  close(): Promise<void>;
}

// Same wire types on both engines: bigint (counts) and numeric as numbers, date as 'YYYY-MM-DD'.
const OID_INT8 = 20;
const OID_NUMERIC = 1700;
const OID_DATE = 1082;
const parseNumber = (v: string): number => Number(v);
const keepText = (v: string): string => v;
/** How node-postgres turns a column's text into a value. */
type TextParser = (value: string) => unknown;

/**
 * Opens the database named by the config. PGlite on a directory takes an exclusive lock first and
 * never opens the directory when another live process holds it.
 */
export interface CreateDatabaseOptions {
  /** PGlite only: start from a dumped data directory (`dumpTemplate`) instead of running initdb (~10x faster). */
  pgliteTemplate?: Blob;
}

export async function createDatabase(
  config: { database: DatabaseConfig },
  opts: CreateDatabaseOptions = {},
): Promise<Database> {
  const db = config.database;
  if (db.engine === 'postgres') {
    await probePostgres(db.url);
    const knex = knexPkg.knex({
      client: 'pg',
      connection: {
        connectionString: db.url,
        types: {
          getTypeParser: ((oid: number, format?: 'text' | 'binary'): TextParser => {
            if (oid === OID_INT8 || oid === OID_NUMERIC) return parseNumber;
            if (oid === OID_DATE) return keepText;
            // node-postgres declares its parsers as `any`; each one reads a column's text.
            return pg.types.getTypeParser(oid, format) as TextParser;
          }) as typeof pg.types.getTypeParser,
        },
      } as Knex.PgConnectionConfig,
      pool: { min: 0, max: 10 },
    });
    await knex.raw('select 1');
    return { knex, engine: 'postgres', url: db.url, close: () => knex.destroy() };
  }

  let lock: DirLock | null = null;
  if (db.dir !== null) {
    lock = acquireDirLock(db.dir);
    mkdirSync(path.dirname(db.dir), { recursive: true });
  }
  try {
    const pglite = new PGlite(db.dir ?? 'memory://', {
      extensions: { pg_trgm },
      parsers: { [OID_INT8]: parseNumber, [OID_NUMERIC]: parseNumber, [OID_DATE]: keepText },
      ...(opts.pgliteTemplate ? { loadDataDir: opts.pgliteTemplate } : {}),
    });
    await pglite.waitReady;
    const knex = knexPkg.knex({
      client: ClientPGLite,
      connection: { pglite } as unknown as Knex.StaticConnectionConfig,
    });
    let closed = false;
    return {
      knex,
      engine: 'pglite',
      pglite,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await knex.destroy();
          if (!pglite.closed) await pglite.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** Dumps an open PGlite database so later instances can start from it (tests, the in-memory mock). */
export async function dumpTemplate(db: Database): Promise<Blob> {
  if (!db.pglite) throw new Error('only PGlite databases can be dumped');
  return db.pglite.dumpDataDir('none');
}

/** Any fixed number works; it only has to be the same for every replica of this service. */
const MIGRATION_LOCK_KEY = 727000;

/**
 * Brings the schema up to date. On PostgreSQL several replicas may start at once against one database:
 * knex's own lock table cannot protect the very first run (both replicas try to create it), so the whole
 * migration is serialised by a session-level advisory lock held on a connection of its own. Later replicas
 * wait for it, then find nothing left to do. PGlite needs no lock: its data directory admits one process.
 */
export async function migrateLatest(knex: Knex): Promise<void> {
  await withMigrationLock(knex, async () => {
    await assertSchemaNotNewer(knex);
    await knex.migrate.latest({ migrationSource });
  });
}

/** What the migration lock uses of knex's client, which knex declares as `any`: one connection held apart. */
interface ConnectionPool {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

/** Runs `work` while no other replica migrates (PostgreSQL advisory lock; PGlite admits one process anyway). */
async function withMigrationLock<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  if (!isPostgresClient(knex)) return work();
  const pool = knex.client as ConnectionPool;
  const lockConnection = await pool.acquireConnection();
  try {
    await knex.raw('select pg_advisory_lock(?)', [MIGRATION_LOCK_KEY]).connection(lockConnection);
    try {
      return await work();
    } finally {
      await knex.raw('select pg_advisory_unlock(?)', [MIGRATION_LOCK_KEY]).connection(lockConnection);
    }
  } finally {
    await pool.releaseConnection(lockConnection);
  }
}

function isPostgresClient(knex: Knex): boolean {
  return (knex.client as { config?: { client?: unknown } }).config?.client === 'pg';
}

export async function migrateRollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource }, true);
}

/** Refuses a schema migrated by a newer server (knex would call the directory "corrupt"). */
export async function assertSchemaNotNewer(knex: Knex): Promise<void> {
  const { unknown } = await migrationStatus(knex);
  if (unknown.length > 0) throw new SchemaNewerError(unknown);
}

/** Rolls back the most recent migration; returns its name, or null when nothing is applied. */
export async function migrateDownOne(knex: Knex): Promise<string | null> {
  return withMigrationLock(knex, async () => {
    await assertSchemaNotNewer(knex);
    const { applied } = await migrationStatus(knex);
    if (applied.length === 0) return null;
    await knex.migrate.down({ migrationSource });
    return applied[applied.length - 1]!;
  });
}

export { migrationSource };
