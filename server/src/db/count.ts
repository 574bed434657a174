/** `count(*)` is a bigint: a string on pg and a number on PGlite. Every count goes through here. */
export function toCount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value !== '') return Number(value);
  return 0;
}

/** A count or sum that may be null (a sum over no rows, or "unlimited"): null stays null. */
export function toNullableCount(value: unknown): number | null {
  return value === null ? null : toCount(value);
}

/** Reads the first row's `count` (or the only column) of a count query. */
export function countFrom(rows: Array<Record<string, unknown>> | Record<string, unknown> | undefined): number {
  const row = Array.isArray(rows) ? rows[0] : rows;
  if (!row) return 0;
  const v = 'count' in row ? row.count : Object.values(row)[0];
  return toCount(v);
}
