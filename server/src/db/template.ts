// A new embedded database normally runs initdb inside WebAssembly (3–10 s on a small machine) and then every
// migration (about 1 s). `npm install` saves two clusters: an empty one, and one with the schema already migrated.
// A first start copies the schema one when it was made from the migrations in this checkout, else the empty one.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createDatabase, dumpTemplate, migrateLatest } from './index.js';

/** The package root: the repository, or the built tree in dist/ (where the migrations are compiled to .js). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The node_modules that holds PGlite, found as node resolves it (the built tree may use the repository's). */
function nodeModulesWithPglite(): string {
  for (let dir = ROOT; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules');
    if (existsSync(path.join(candidate, '@electric-sql', 'pglite', 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return path.join(ROOT, 'node_modules');
  }
}

const NODE_MODULES = nodeModulesWithPglite();
const CACHE_DIR = path.join(NODE_MODULES, '.cache', 'platform-admin');
const version = (() => {
  try {
    return (
      JSON.parse(readFileSync(path.join(NODE_MODULES, '@electric-sql', 'pglite', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'unknown';
  }
})();

/** The migration sources' fingerprint: a schema template made from other migrations is never used. */
function migrationsFingerprint(dir = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  try {
    for (const file of readdirSync(dir).sort())
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(dir, file)))
        .update('\0');
  } catch {
    return 'unknown';
  }
  return hash.digest('hex').slice(0, 16);
}

/** Keyed by the PGlite version: a template from another version is never used. */
export const EMPTY_TEMPLATE_PATH = path.join(CACHE_DIR, `pglite-${version}-empty.tar`);
/** Keyed by the PGlite version and the migrations it holds. */
export const SCHEMA_TEMPLATE_PATH = path.join(CACHE_DIR, `pglite-${version}-schema-${migrationsFingerprint()}.tar`);

export async function writeEmptyTemplate(file = EMPTY_TEMPLATE_PATH): Promise<string> {
  const pglite = new PGlite('memory://', { extensions: { pg_trgm } });
  try {
    await pglite.waitReady;
    const dump = await pglite.dumpDataDir('none');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await pglite.close();
  }
}

/**
 * Migrates a copy of the empty template and saves it. Schema only: no user, password or secret is in it (the
 * first-start data loader adds them). Older schema templates of this PGlite version are removed.
 */
export async function writeSchemaTemplate(
  file = SCHEMA_TEMPLATE_PATH,
  emptyFile = EMPTY_TEMPLATE_PATH,
): Promise<string> {
  const db = await createDatabase(
    { database: { engine: 'pglite', dir: null } },
    { pgliteTemplate: savedEmptyTemplate(emptyFile) },
  );
  try {
    await migrateLatest(db.knex);
    const dump = await dumpTemplate(db);
    mkdirSync(path.dirname(file), { recursive: true });
    // Same name up to the fingerprint: a template of older migrations.
    const stalePrefix = path.basename(file).replace(/schema-[^/]*$/, 'schema-');
    for (const other of readdirSync(path.dirname(file))) {
      if (other.startsWith(stalePrefix) && other !== path.basename(file))
        rmSync(path.join(path.dirname(file), other), { force: true });
    }
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await db.close();
  }
}

/** A saved cluster, if `npm install` saved it. */
function readTemplate(file: string): Blob | undefined {
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** The empty cluster `npm install` saved, if it did (tests that run the migrations themselves start from it). */
export function savedEmptyTemplate(file = EMPTY_TEMPLATE_PATH): Blob | undefined {
  return readTemplate(file);
}

/**
 * The best saved cluster for a new database: the migrated one, else the empty one, else none (initdb runs).
 * `dataDir` null is an in-memory database; a directory that was ever initialised never takes a template.
 */
export function templateForNewDatabase(
  dataDir: string | null,
  files: { schema: string; empty: string } = { schema: SCHEMA_TEMPLATE_PATH, empty: EMPTY_TEMPLATE_PATH },
): Blob | undefined {
  if (dataDir !== null && existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  return readTemplate(files.schema) ?? readTemplate(files.empty);
}
