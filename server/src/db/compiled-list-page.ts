import type { Knex } from 'knex';
import type { ListQuery, PageRows } from '../core/list-query.js';
import { type CompiledStatementOptions, compiledStatement } from './compiled-statement.js';
import {
  type ListShape,
  type ListValues,
  isPageByNumber,
  listPageStatement,
  pageRowsOf,
  prepared,
  runListPage,
} from './sql.js';

type Db = Knex | Knex.Transaction;

/**
 * A list's one-statement page (`listPageStatement`) whose page by number runs from a statement compiled once per
 * shape (`compiledStatement`, bench/FINDINGS.md §21); a cursor page or an estimated total is built each time, since
 * its keyset bounds vary with the sort and the key. `filtered` is the list's FROM and WHERE, `selectRows` joins the
 * page's rows to the statement's ids; `named` says which calls run as a prepared statement on PostgreSQL (see
 * `prepared`), by number or by cursor.
 */
export function compiledListPage<V extends ListValues>(
  idColumn: string,
  filtered: (db: Db, shape: ListShape, values: V) => Knex.QueryBuilder,
  selectRows: (qb: Knex.QueryBuilder) => Knex.QueryBuilder,
  options: CompiledStatementOptions<V, ListShape> = {},
) {
  const byNumber = compiledStatement<V, ListShape>(
    (db, values, shape) =>
      listPageStatement(
        db,
        filtered(db, shape, values),
        { sort: shape.sort, limit: values.limit, offset: values.offset },
        idColumn,
        selectRows,
      ),
    options,
  );
  return async function page<R extends { id: unknown }>(
    db: Db,
    list: ListQuery,
    shape: ListShape,
    values: V,
  ): Promise<PageRows<R>> {
    if (isPageByNumber(list)) return pageRowsOf(await byNumber.rows<R>(db, values, shape), list);
    const named = options.named?.(shape, values) ?? false;
    return runListPage<R>(db, filtered(db, shape, values), list, idColumn, selectRows, {
      run: (statement) => (named ? prepared(statement) : statement),
    });
  };
}
