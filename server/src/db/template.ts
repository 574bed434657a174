// A new embedded database normally runs initdb inside WebAssembly, which takes 3–10 s on a small machine.
// `npm install` saves one empty, initialised cluster; a first start copies it instead (about 1–2 s).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };

/** Keyed by the PGlite version: a template from another version is never used. */
export const EMPTY_TEMPLATE_PATH = path.join(ROOT, 'node_modules', '.cache', 'platform-admin', `pglite-${version}-empty.tar`);

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

/** The empty cluster `npm install` saved, if it did (also the fast start of in-memory databases). */
export function savedEmptyTemplate(file = EMPTY_TEMPLATE_PATH): Blob | undefined {
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** The saved empty cluster for a data directory that has never been initialised, if `npm install` made one. */
export function emptyTemplateFor(dataDir: string, file = EMPTY_TEMPLATE_PATH): Blob | undefined {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  return savedEmptyTemplate(file);
}
