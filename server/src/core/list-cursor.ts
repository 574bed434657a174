import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from './errors.js';
import type { SortTerm } from './sort-term.js';

/**
 * Keyset ("cursor") paging (ADR 0031). A cursor is the position after the last row of a page: that row's sort values
 * and id, and how many rows came before the next one (so the answer can still say which page it is). It is signed, so
 * a client cannot make up a position, and bound to what it was made for: the list, its filters, its sort and the
 * caller. A cursor is read only with the same four; anything else is a 400 that says to start again.
 */
export interface CursorContext {
  /** The operation, and the parent record for a list under one (`listClusterUsers:<cluster id>`). */
  list: string;
  /** The list's filters and search as the request sent them (not its page, size, cursor or total). */
  filters: Record<string, unknown>;
  sort: SortTerm[];
  /** The account the answer was made for. */
  subject: string;
}

export interface CursorPosition {
  /** The sort values of the last row of the previous page, then its id: as PostgreSQL rendered them in JSON. */
  key: unknown[];
  /** Rows before the next page (its offset, as the page number is derived from it). */
  offset: number;
}

export interface ListCursors {
  make(position: CursorPosition, ctx: CursorContext): string;
  /** The position a request's cursor names; a BadRequestError when it is not one made for `ctx`. */
  read(cursor: string, ctx: CursorContext): CursorPosition;
}

/** Longer than any cursor this server makes (a few sort values and an id). */
const MAX_CURSOR_LENGTH = 2000;

export const CURSOR_REFUSED =
  'cursor: not a cursor of this list, its filters and sort; start again from the first page (without cursor)';

export function refused(): BadRequestError {
  return new BadRequestError(CURSOR_REFUSED, [{ path: '/query/cursor', message: 'not a cursor of this list' }]);
}

/** What a cursor is bound to, in one string: the list, its filters in a fixed key order, the sort and the caller. */
function bindingOf(ctx: CursorContext): string {
  const filters = Object.keys(ctx.filters)
    .filter((k) => ctx.filters[k] !== undefined)
    .sort()
    .map((k) => [k, ctx.filters[k]]);
  const sort = ctx.sort.map((t) => `${t.field}:${t.direction}`).join(',');
  return JSON.stringify([ctx.list, filters, sort, ctx.subject]);
}

export function listCursors({ secret }: { secret: string }): ListCursors {
  // A key of its own, derived from the signing secret: a cursor is never a token, nor a token a cursor.
  const key = createHmac('sha256', secret).update('list-cursor').digest();
  const mac = (body: string, ctx: CursorContext) =>
    createHmac('sha256', key).update(bindingOf(ctx)).update('\n').update(body).digest('base64url');

  return {
    make(position, ctx) {
      const body = Buffer.from(JSON.stringify([position.key, position.offset])).toString('base64url');
      return `${body}.${mac(body, ctx)}`;
    },

    read(cursor, ctx) {
      if (cursor.length > MAX_CURSOR_LENGTH) throw refused();
      const [body = '', signature = '', ...rest] = cursor.split('.');
      if (rest.length > 0) throw refused();
      const expected = Buffer.from(mac(body, ctx));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
      const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
      // Signed by this server, so well formed; checked anyway, as a position reaches SQL (as bound values only).
      if (!Array.isArray(decoded) || decoded.length !== 2) throw refused();
      const [keyValues, offset] = decoded as [unknown, unknown];
      if (!Array.isArray(keyValues) || keyValues.length === 0) throw refused();
      if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw refused();
      return { key: keyValues as unknown[], offset };
    },
  };
}
