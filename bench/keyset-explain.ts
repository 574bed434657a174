// `npx tsx bench/keyset-explain.ts --scale N [--database-url URL] [--page 500]`: the service's own cluster-list
// statement for a deep page by offset and by cursor (keyset, ADR 0031), run through the repository and then under
// EXPLAIN (ANALYZE, BUFFERS). Buffers touched are a count of work, far steadier on a shared machine than a time.
import pg from 'pg';
import { parseListQuery, type ListQuery } from '../server/src/core/list-query.js';
import {
  CLUSTER_NOT_NULL,
  CLUSTER_SORTABLE,
  clusterRepository,
  type ClusterListFilter,
} from '../server/src/modules/clusters/repository.js';
import { parseArgs } from './lib/cli.js';
import { defaultDatabaseUrl, openDatabase } from './lib/db.js';
import { parseScale } from './lib/scale.js';

const args = parseArgs(process.argv.slice(2));
const scale = parseScale(args.get('scale'));
const url = args.get('database-url') ?? defaultDatabaseUrl(scale);
const page = Number(args.get('page') ?? 500);

const db = await openDatabase({ url });
const repo = clusterRepository({ knex: db.knex });
const filter = (list: ListQuery): ClusterListFilter => ({
  list,
  isActive: undefined,
  deleted: 'exclude',
  scope: 'all',
});

/** The statement a list call sends (knex's query event) and the rows it answered. */
async function captured(list: ListQuery): Promise<{ sql: string; bindings: unknown[]; ids: string[] }> {
  let last: { sql: string; bindings: unknown[] } | undefined;
  const listen = (q: { sql: string; bindings?: unknown[] }) => {
    // The page's statement, not the estimate's EXPLAIN beside it.
    if (!q.sql.startsWith('explain')) last = { sql: q.sql, bindings: q.bindings ?? [] };
  };
  db.knex.on('query', listen);
  try {
    const result = await repo.listPage(db.knex, filter(list));
    // The pg dialect reports the statement as sent: `$n` placeholders and their values.
    return { sql: last!.sql, bindings: last!.bindings, ids: result.rows.map((r) => r.id) };
  } finally {
    db.knex.removeListener('query', listen);
  }
}

const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  for (const sort of ['created_at:desc', 'code:asc', 'alias_name:asc']) {
    const opts = { sortable: CLUSTER_SORTABLE, notNull: CLUSTER_NOT_NULL };
    const previous = await repo.listPage(db.knex, filter(parseListQuery({ page: page - 1, perpage: 10, sort }, opts)));
    if (!previous.nextKey) throw new Error(`fewer than ${page} pages`);
    const byOffset = parseListQuery({ page, perpage: 10, sort }, opts);
    const byCursor: ListQuery = { ...byOffset, offset: 0, after: previous.nextKey, probe: true };
    const runs = {
      offset: await captured(byOffset),
      cursor: await captured(byCursor),
      'cursor, total=estimate': await captured({ ...byCursor, total: 'estimate' }),
    };
    const same = Object.values(runs).every((r) => JSON.stringify(r.ids) === JSON.stringify(runs.offset.ids));
    process.stdout.write(
      `clusters sort=${sort} page ${page}: offset and cursor answer ${same ? 'the same' : 'DIFFERENT'} rows\n`,
    );
    for (const [name, q] of Object.entries(runs)) {
      // Twice: the first warms the cache; the second is reported.
      await client.query(`explain (analyze, buffers, format json) ${q.sql}`, q.bindings);
      const r = await client.query<{ 'QUERY PLAN': Array<{ Plan: Record<string, number>; 'Execution Time': number }> }>(
        `explain (analyze, buffers, format json) ${q.sql}`,
        q.bindings,
      );
      const plan = r.rows[0]!['QUERY PLAN'][0]!;
      process.stdout.write(
        `  by ${name.padEnd(22)} ${plan['Execution Time'].toFixed(2).padStart(8)} ms  shared buffers hit ${plan.Plan['Shared Hit Blocks']} read ${plan.Plan['Shared Read Blocks']}\n`,
      );
    }
  }
} finally {
  await client.end();
  await db.close();
}
