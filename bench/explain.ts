// `npx tsx bench/explain.ts --scale N [--database-url URL]`: EXPLAIN (ANALYZE, BUFFERS) of every benchmarked read
// query on the generated data, with the execution time, to spot scans that grow with the data.
import pg from 'pg';
import { SQL } from './baseline/server.js';
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
const operator = (await db.knex('users').select('id').whereRaw("lower(username) = 'operator'").first()) as { id: string };
const pageIds = (await db.knex('clusters').select('id').whereNull('deleted_at').orderBy([{ column: 'created_at', order: 'desc' }, 'id']).limit(10)).map((r: { id: string }) => r.id);
const buIds = (await db.knex('business_units').select('id').where({ cluster_id: data.clusterIds[0] }).whereNull('deleted_at').limit(10)).map((r: { id: string }) => r.id);
await db.close();

const pattern = `%${data.searchTerms[0]}%`;
const userWhere = `where ${SQL.userWhere}`;
const deep = (Math.min(500, data.clusterPages) - 1) * 10;
const queries: Array<[string, string, unknown[]]> = [
  ['auth: permissions', SQL.permissions, [admin.id]],
  ['clusters: count', SQL.clusterCount, []],
  ['clusters: page 1', SQL.clusterPage, [10, 0]],
  // Ids first: the offset is walked on bare index entries, and the actor joins run for the page's ten rows only.
  [`clusters: page ${deep / 10 + 1}`, SQL.clusterPage, [10, deep]],
  ['clusters: bu counts', SQL.clusterBuCounts, [pageIds]],
  ['clusters: user counts', SQL.clusterUserCounts, [pageIds]],
  ['bu: count by cluster', SQL.buCount, [data.clusterIds[0]]],
  ['bu: page by cluster', SQL.buPage, [data.clusterIds[0], 10, 0]],
  ['bu: member counts', SQL.buMemberCounts, [buIds]],
  ['users: search count', `select count(*) from users ${userWhere}`, [pattern]],
  ['users: search page', `select id, username from users ${userWhere} order by lower(users.username) asc, users.id asc limit 10 offset 0`, [pattern]],
  ['mappings: resolve', SQL.resolve, ['PR', data.buCodes[0]]],
  ['widgets: list', SQL.widgets, [operator.id]],
  ['login: find user', SQL.findLogin, [data.loginUsers[0]]],
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
    const nodes = lines.filter((l) => /Scan|Sort|Join|Aggregate|Limit/.test(l)).map((l) => l.trim().replace(/\s+\(cost=[^)]*\)/, '').replace(/\(actual time=([^ ]+) rows=(\d+) loops=(\d+)\)/, 't=$1 rows=$2 loops=$3'));
    process.stdout.write(`${name.padEnd(24)} ${exec?.replace('Execution Time: ', '') ?? ''}\n`);
    for (const n of verbose ? lines : nodes.slice(0, 6)) process.stdout.write(`    ${n}\n`);
  }
} finally {
  await client.end();
}
