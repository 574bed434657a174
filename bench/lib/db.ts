import pg from 'pg';
import { createDatabase, type Database } from '../../server/src/db/index.js';

/** Databases the harness must never drop. */
const PROTECTED = new Set(['postgres', 'template0', 'template1', 'test']);

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432';

/** postgres://…/bench_s10 for a scale when no URL is given: one database per scale, so scales are reused. */
export function defaultDatabaseUrl(scale: number): string {
  return `${DEFAULT_SERVER_URL}/bench_s${scale}`;
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`the database URL names no database: ${url}`);
  return name;
}

/** Drops and creates the database the URL names (through the server's `postgres` database). */
export async function recreatePostgresDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  if (PROTECTED.has(name))
    throw new Error(
      `refusing to drop the "${name}" database; point --database-url at a database of its own (e.g. …/bench)`,
    );
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    await client.query(`drop database if exists ${quoted} with (force)`);
    await client.query(`create database ${quoted}`);
  } finally {
    await client.end();
  }
}

export async function postgresDatabaseExists(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const r = await client.query('select 1 from pg_database where datname = $1', [databaseName(url)]);
    return r.rowCount === 1;
  } finally {
    await client.end();
  }
}

/** Opens a database with the project's own factory (same type parsers and extensions as the server). */
export function openDatabase(target: { url: string } | { pgliteDir: string | null }): Promise<Database> {
  if ('url' in target) return createDatabase({ database: { engine: 'postgres', url: target.url } });
  return createDatabase({ database: { engine: 'pglite', dir: target.pgliteDir } });
}
