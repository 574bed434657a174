// `npm run bench:data -- --scale 1|10|100 [--database-url URL | --pglite-dir DIR]`: generates the data alone.
// Without a target it (re)creates postgres://postgres@127.0.0.1:5432/bench_s<scale>.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from '../lib/cli.js';
import { defaultDatabaseUrl, openDatabase, recreatePostgresDatabase } from '../lib/db.js';
import { parseScale } from '../lib/scale.js';
import { generateData } from './generate.js';

const args = parseArgs(process.argv.slice(2));
const scale = parseScale(args.get('scale'));
const pgliteDir = args.get('pglite-dir');

try {
  let target: { url: string } | { pgliteDir: string };
  if (pgliteDir !== undefined) {
    const dir = path.resolve(pgliteDir);
    if (existsSync(dir) && readdirSync(dir).length > 0)
      throw new Error(`${dir} is not empty; PGlite data is generated into a new directory`);
    target = { pgliteDir: dir };
    process.stderr.write(`Generating ${scale} % data into PGlite at ${dir}\n`);
  } else {
    const url = args.get('database-url') ?? defaultDatabaseUrl(scale);
    await recreatePostgresDatabase(url);
    target = { url };
    process.stderr.write(`Generating ${scale} % data into ${url.replace(/\/\/[^@]*@/, '//')} (recreated)\n`);
  }
  const db = await openDatabase(target);
  try {
    await generateData(db.knex, scale);
  } finally {
    await db.close();
  }
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
