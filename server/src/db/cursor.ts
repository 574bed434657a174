import type { Knex } from 'knex';

/** Rows per FETCH: large enough that round trips do not dominate, small enough that memory stays flat. */
const CURSOR_BATCH = 500;

/**
 * Runs `query` through a server-side cursor and yields its rows a batch at a time, so a list of any length is read
 * with the memory of one batch. The cursor lives in a transaction of its own (a cursor without HOLD lives only inside
 * one); the transaction ends when the rows run out, when a FETCH fails, and when the consumer stops early (a `break`
 * or a `return()` on the generator: an export whose client went away), so no connection is left idle in a transaction.
 *
 * On PGlite there is one connection: the transaction holds it for the whole export, and every other request waits
 * until the export ends. Exports there are demo-sized; on PostgreSQL the export holds one pooled connection.
 */
export async function* cursorBatches<Row, R = Row>(
  knex: Knex,
  query: Knex.QueryBuilder,
  { map, batchSize = CURSOR_BATCH }: { map?: (row: Row) => R; batchSize?: number } = {},
): AsyncGenerator<R[], void, undefined> {
  const { sql, bindings } = query.toSQL();
  const trx = await knex.transaction();
  try {
    await trx.raw(`declare export_rows no scroll cursor for ${sql}`, bindings as Knex.RawBinding[]);
    for (;;) {
      const result = await trx.raw<{ rows: Row[] }>(`fetch forward ${batchSize} from export_rows`);
      if (result.rows.length > 0) yield map ? result.rows.map(map) : (result.rows as unknown as R[]);
      if (result.rows.length < batchSize) break;
    }
    await trx.commit();
  } finally {
    // Reached with the transaction still open on an error or an early stop. Ending the transaction, by the commit
    // above or by this rollback, also closes the cursor.
    if (!trx.isCompleted()) await trx.rollback();
  }
}
