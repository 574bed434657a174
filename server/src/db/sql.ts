import type { Knex } from 'knex';
import type { ListQuery } from '../core/list-query.js';

/** SQL pieces shared by the repositories. Everything here builds queries; nothing runs one. */

/**
 * SQL for a user's display name: first, middle and last name joined, else the username, else the email.
 * `alias` is the users table alias in the query; the result is null when the user row is absent.
 */
export function displayNameSql(alias: string): string {
  const part = (c: string) => `nullif(btrim(${alias}.${c}), '')`;
  return `coalesce(nullif(concat_ws(' ', ${part('firstname')}, ${part('middlename')}, ${part('lastname')}), ''), ${part('username')}, ${alias}.email)`;
}

const ACTIONS = ['created', 'updated', 'deleted'] as const;

/**
 * Joins the three actors of `table`'s audit columns and selects their display names as
 * `<action>_by_name`. Aliases are prefixed with the table name so they never collide with other joins.
 */
export function selectAuditActors<B extends Knex.QueryBuilder>(knex: Knex, qb: B, table: string): B {
  for (const action of ACTIONS) {
    const alias = `${table}_${action}_by`;
    qb.leftJoin(`users as ${alias}`, `${alias}.id`, `${table}.${action}_by_id`);
    qb.select(knex.raw(`${displayNameSql(alias)} as ${action}_by_name`));
  }
  return qb;
}

/**
 * The next `updated_at` of a row: now, but always later than the previous value so that two writes in the same
 * millisecond still produce different ETags.
 */
export function nextUpdatedAt(knex: Knex | Knex.Transaction, table: string): Knex.Raw {
  return knex.raw(`greatest(now(), ??.updated_at + interval '1 millisecond')`, [table]);
}

/** Postgres unique violation (pg and PGlite both expose the SQLSTATE as `code`). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** Escapes % _ and \ for a `ILIKE '%' || ? || '%'` contains-search. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Applies ORDER BY terms (plus `id` as a stable tie-breaker) and LIMIT/OFFSET to a knex builder. */
export function applyListQuery<B extends { orderByRaw(sql: string): B; limit(n: number): B; offset(n: number): B }>(
  builder: B,
  q: ListQuery,
  tieBreaker = 'id',
): B {
  let b = builder;
  const order = q.sort.map((t) => `${t.column} ${t.direction}`);
  if (tieBreaker && !q.sort.some((t) => t.column === tieBreaker)) order.push(`${tieBreaker} asc`);
  if (order.length > 0) b = b.orderByRaw(order.join(', '));
  if (q.limit !== undefined) b = b.limit(q.limit).offset(q.offset);
  return b;
}
