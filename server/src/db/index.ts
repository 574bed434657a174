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

export { toCount, countFrom } from './count.js';
export { DataDirLockedError } from './lock.js';

export interface Database {
  knex: Knex;
  engine: 'pglite' | 'postgres';
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

/**
 * Opens the database named by the config. PGlite on a directory takes an exclusive lock first and
 * never opens the directory when another live process holds it.
 */
export interface CreateDatabaseOptions {
  /** PGlite only: start from a dumped data directory (`dumpTemplate`) instead of running initdb (~10x faster). */
  pgliteTemplate?: Blob;
}

export async function createDatabase(config: { database: DatabaseConfig }, opts: CreateDatabaseOptions = {}): Promise<Database> {
  const db = config.database;
  if (db.engine === 'postgres') {
    const knex = knexPkg.knex({
      client: 'pg',
      connection: {
        connectionString: db.url,
        types: {
          getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
            if (oid === OID_INT8 || oid === OID_NUMERIC) return parseNumber;
            if (oid === OID_DATE) return keepText;
            return pg.types.getTypeParser(oid, format as 'text');
          }) as typeof pg.types.getTypeParser,
        },
      } as Knex.PgConnectionConfig,
      pool: { min: 0, max: 10 },
    });
    await knex.raw('select 1');
    return { knex, engine: 'postgres', close: () => knex.destroy() };
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
      client: ClientPGLite as unknown as typeof knexPkg.Client,
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
  if (!isPostgresClient(knex)) {
    await knex.migrate.latest({ migrationSource });
    return;
  }
  const lockConnection = await knex.client.acquireConnection();
  try {
    await knex.raw('select pg_advisory_lock(?)', [MIGRATION_LOCK_KEY]).connection(lockConnection);
    try {
      await knex.migrate.latest({ migrationSource });
    } finally {
      await knex.raw('select pg_advisory_unlock(?)', [MIGRATION_LOCK_KEY]).connection(lockConnection);
    }
  } finally {
    await knex.client.releaseConnection(lockConnection);
  }
}

function isPostgresClient(knex: Knex): boolean {
  return (knex.client as { config?: { client?: unknown } }).config?.client === 'pg';
}

export async function migrateRollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource }, true);
}

export { migrationSource };
