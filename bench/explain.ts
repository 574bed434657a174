// `npx tsx bench/explain.ts --scale N [--database-url URL]`: EXPLAIN (ANALYZE, BUFFERS) of every benchmarked read
// query on the generated data, with the execution time, to spot scans that grow with the data.
import pg from 'pg';
import * as SQL from './baseline/sql.js';
import { parseArgs } from './lib/cli.js';
import { defaultDatabaseUrl, openDatabase } from './lib/db.js';
import { parseScale } from './lib/scale.js';
import { loadScenarioData } from './lib/scenarios.js';

const args = parseArgs(process.argv.slice(2));
const scale = parseScale(args.get('scale'));
const url = args.get('database-url') ?? defaultDatabaseUrl(scale);
const verbose = args.has('plans');

const db = await openDatabase({ url });
const data = await loadScenarioData(db.knex);
const admin = (await db.knex('users').select('id').whereRaw("lower(username) = 'admin'").first()) as { id: string };
const operator = (await db.knex('users').select('id').whereRaw("lower(username) = 'operator'").first()) as {
  id: string;
};
await db.close();

// The baseline's statements (bench/baseline/sql.ts): the best hand-written SQL for each benchmarked read; $1/$2 the caller.
const pattern = `%${data.searchTerms[0]}%`;
const deep = (Math.min(500, data.clusterPages) - 1) * 10;
const queries: Array<[string, string, unknown[]]> = [
  ['clusters: page 1', SQL.clusterPage, [admin.id, null, 10, 0, 1]],
  [`clusters: page ${deep / 10 + 1}`, SQL.clusterPage, [admin.id, null, 10, deep, deep / 10 + 1]],
  ['bu: page by cluster', SQL.businessUnitsOfCluster, [admin.id, null, data.clusterIds[0], 10, 0, 1]],
  ['users: search', SQL.userSearch, [admin.id, null, pattern, 10, 0, 1]],
  ['mappings: resolve', SQL.resolveMapping(true), [operator.id, null, 'PR', data.buCodes[0]]],
  ['widgets: list', SQL.widgetList, [operator.id, null]],
  ['login: find user', SQL.signInAccount, [data.loginUsers[0], '127.0.0.1']],
];

const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  for (const [name, sql, params] of queries) {
    // Twice: the first warms the cache; the second is reported.
    await client.query(`explain (analyze, buffers) ${sql}`, params);
    const r = await client.query(`explain (analyze, buffers) ${sql}`, params);
    const lines = r.rows.map((x: Record<string, string>) => x['QUERY PLAN']!);
    const exec = lines.find((l) => l.startsWith('Execution Time'));
    const nodes = lines
      .filter((l) => /Scan|Sort|Join|Aggregate|Limit/.test(l))
      .map((l) =>
        l
          .trim()
          .replace(/\s+\(cost=[^)]*\)/, '')
          .replace(/\(actual time=([^ ]+) rows=(\d+) loops=(\d+)\)/, 't=$1 rows=$2 loops=$3'),
      );
    process.stdout.write(`${name.padEnd(24)} ${exec?.replace('Execution Time: ', '') ?? ''}\n`);
    for (const n of verbose ? lines : nodes.slice(0, 6)) process.stdout.write(`    ${n}\n`);
  }
} finally {
  await client.end();
}
