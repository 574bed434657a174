import type { Knex } from 'knex';
import { prepared, rawRows, statementName } from './sql.js';

/** The values a compiled statement binds as they are. */
export type StatementValues = Record<string, string | number | undefined>;

/**
 * A statement whose SQL text is compiled by knex once per shape, not on every request.
 *
 * Building a list statement with knex and compiling it was 11 % of a user search's CPU under load (bench/FINDINGS.md
 * §20), although every search of one shape has the same text and differs only in its values. `build` makes the
 * statement from values that are bound as they are (a search pattern already made, a limit). A shape is which values
 * are absent, zero or empty: the statement's text may depend on that, and on nothing else of the values.
 *
 * The first call of a shape builds the statement twice: once with a stand-in for each value, to learn which binding
 * is which value, and once with the real values. The template is kept only when both compile to the same text and
 * the stand-ins' positions give back exactly the real bindings. Otherwise (a value that knex writes into the text, or
 * one that `build` transforms) that shape is built every time.
 *
 * A statement may also take a `shape` of its own: the parts of a call that are never bound (which filters apply, the
 * sort). It is passed to `build` as it is and keys the templates with the values' shape.
 */
export interface CompiledStatement<P extends StatementValues, S = undefined> {
  /** Runs the statement with these values (and shape); the rows as the builder would return them. */
  rows<R>(db: Knex | Knex.Transaction, values: P, ...shape: S extends undefined ? [] : [S]): Promise<R[]>;
  /** How many shapes run from a kept template (tests). */
  readonly templates: number;
}

/** One binding of a template: a value of the call (by name) or a constant of the statement. */
type Slot = { value: string } | { constant: unknown };

interface Template {
  sql: string;
  slots: Slot[];
}

/**
 * Stand-ins no real value takes: a string no caller sends, a number past any page size or offset. A zero and an empty
 * string stay as they are, since knex leaves some out of the text (`offset 0`); `valueShape` keys them apart.
 */
function standIns<P extends StatementValues>(values: P): P {
  const out: Record<string, string | number | undefined> = {};
  Object.entries(values).forEach(([name, value], i) => {
    if (typeof value === 'string' && value !== '') out[name] = `\u0000stand-in:${name}\u0000`;
    else if (typeof value === 'number' && value !== 0) out[name] = 2_000_000_000 + i;
    else out[name] = value;
  });
  return out as P;
}

/** The shape of a call: which values are absent, zero or empty. */
function valueShape(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([name, v]) => `${name}${v === undefined ? '-' : v === 0 || v === '' ? '0' : '+'}`)
    .join(',');
}

type Build<P, S> = (db: Knex | Knex.Transaction, values: P, shape: S) => Knex.QueryBuilder;

function templateOf<P extends StatementValues, S>(
  build: Build<P, S>,
  db: Knex | Knex.Transaction,
  values: P,
  shape: S,
): Template | null {
  const probe = standIns(values);
  const withStandIns = build(db, probe, shape).toSQL();
  const real = build(db, values, shape).toSQL();
  if (withStandIns.sql !== real.sql) return null;
  // A literal question mark in the text would be taken for a placeholder when the template runs as raw SQL.
  if (withStandIns.sql.split('?').length - 1 !== withStandIns.bindings.length) return null;
  const byStandIn = new Map(Object.entries(probe).map(([name, standIn]) => [standIn, name]));
  const slots: Slot[] = withStandIns.bindings.map((b) => {
    const name = byStandIn.get(b as string | number);
    return name !== undefined && values[name] !== undefined ? { value: name } : { constant: b };
  });
  const rebound = bind(slots, values);
  if (rebound.length !== real.bindings.length || rebound.some((b, i) => b !== real.bindings[i])) return null;
  return { sql: real.sql, slots };
}

function bind(slots: Slot[], values: Record<string, unknown>): unknown[] {
  return slots.map((slot) => ('value' in slot ? values[slot.value] : slot.constant));
}

export interface CompiledStatementOptions<P, S> {
  /**
   * Whether a call of this shape runs as a named statement on PostgreSQL (see `prepared`): only where PostgreSQL
   * settles on a generic plan for it.
   */
  named?: (shape: S, values: P) => boolean;
  /** How many shapes are kept (default `MAX_SHAPES`); see there. */
  maxShapes?: number;
}

/**
 * The shapes one statement keeps, per dialect. A list's shape includes its sort, which a caller chooses: a sort of
 * several keys has millions of orders, so without a bound a caller could fill the server's memory with templates by
 * asking for one after another. Past the bound a new shape is built every time, as before the templates; the
 * console's and the seed's few sorts are long kept by then.
 */
export const MAX_SHAPES = 200;

export function compiledStatement<P extends StatementValues, S = undefined>(
  build: Build<P, S>,
  { named, maxShapes = MAX_SHAPES }: CompiledStatementOptions<P, S> = {},
): CompiledStatement<P, S> {
  // Per knex client class (the SQL dialect: a transaction's client is a new object of its connection's class), then
  // per shape; null: this shape is built every time.
  const cache = new Map<unknown, Map<string, Template | null>>();
  let kept = 0;
  return {
    get templates() {
      return kept;
    },
    async rows<R>(db: Knex | Knex.Transaction, values: P, ...rest: S extends undefined ? [] : [S]): Promise<R[]> {
      const shape = rest[0] as S;
      const dialect: unknown = (db.client as { constructor: unknown }).constructor;
      let shapes = cache.get(dialect);
      if (!shapes) cache.set(dialect, (shapes = new Map<string, Template | null>()));
      const key = `${shape === undefined ? '' : JSON.stringify(shape)}|${valueShape(values)}`;
      let template = shapes.get(key);
      if (template === undefined && shapes.size < maxShapes) {
        template = templateOf(build, db, values, shape);
        shapes.set(key, template);
        if (template) kept++;
      }
      const name = named?.(shape, values) ?? false;
      if (!template) {
        const qb = build(db, values, shape);
        return (await (name ? prepared(qb) : qb)) as R[];
      }
      const raw = db.raw(template.sql, bind(template.slots, values) as Knex.RawBinding[]);
      const statement = name ? statementName(db, template.sql) : undefined;
      return rawRows<R>(await (statement ? raw.options({ name: statement }) : raw));
    },
  };
}
