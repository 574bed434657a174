import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { StoragePort } from '../storage/port.js';

/**
 * The spans the server makes (docs/operations.md, "Traces"): one per request, named by its contract operationId; one
 * per SQL statement run while a request is traced; one per storage call. Built only when tracing is configured
 * (`startTelemetry`): without it nothing here is installed, so an untraced server pays nothing per request.
 *
 * No attribute carries a value a caller sent: not the URL's query, not a header, not a statement's bindings, not an
 * error message (a database error quotes the offending value).
 */
export interface Tracing {
  /** After the operation is identified: a server span around the rest of the pipeline, its context the active one. */
  requests: RequestHandler;
  /** Adds a client span for each statement `knex` runs inside a traced request. */
  queries(knex: Knex): void;
  /** The same store, each call a span of its own. */
  storage<S extends StoragePort>(storage: S): S;
}

/** Statements longer than this (a bulk insert's placeholders) are cut: the shape is what a trace needs. */
const MAX_STATEMENT = 2_000;
const FIRST_WORD = /^[\s(]*([a-z]+)/i;
/** A statement word right after a closing parenthesis: the main statement after a `WITH` list's last query. */
const AFTER_CTE = /\)\s*(select|insert|update|delete)\b/gi;
const TABLE = /\b(?:from|into|update|join)\s+"?([a-z_][a-z0-9_]*)"?/i;

/** What knex reports for each statement (its `query` events). */
interface KnexQuery {
  __knexQueryUid?: string;
  sql?: string;
  method?: string;
}

/** Parentheses depth at each `)…verb` match: the main statement of a WITH is the one at depth 0. */
function mainVerbAfterWith(sql: string): string {
  for (const match of sql.matchAll(AFTER_CTE)) {
    let depth = 0;
    for (let i = 0; i <= match.index; i++) depth += sql[i] === '(' ? 1 : sql[i] === ')' ? -1 : 0;
    if (depth === 0) return match[1]!;
  }
  return 'with';
}

function statementName(sql: string): { verb: string; table: string | undefined } {
  const first = FIRST_WORD.exec(sql)?.[1] ?? 'sql';
  const verb = (first.toLowerCase() === 'with' ? mainVerbAfterWith(sql) : first).toUpperCase();
  return { verb, table: TABLE.exec(sql)?.[1] };
}

function engineOf(knex: Knex): 'postgres' | 'pglite' {
  return (knex.client as { config?: { client?: unknown } }).config?.client === 'pg' ? 'postgres' : 'pglite';
}

export function createTracing(tracer: Tracer): Tracing {
  const requests: RequestHandler = (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const operation = req.operation;
    const attributes: Attributes = { 'http.request.method': req.method };
    if (operation) {
      attributes['http.route'] = operation.path;
      attributes['platform.operation_id'] = operation.id;
    }
    const span = tracer.startSpan(operation?.id ?? req.method, { kind: SpanKind.SERVER, attributes }, parent);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) {
        span.setAttribute('error.type', String(res.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      if (!res.writableFinished) span.setAttribute('platform.response.aborted', true);
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    const active = trace.setSpan(parent, span);
    // A body parser (JSON, multipart) calls next() from the request stream's events: bound, they stay in the span.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };

  const queries = (knex: Knex) => {
    const engine = engineOf(knex);
    const open = new Map<string, Span>();
    knex.on('query', (query: KnexQuery) => {
      const parent = context.active();
      if (!query.__knexQueryUid || !trace.getSpan(parent)?.isRecording()) return;
      const sql = query.sql ?? '';
      const { verb, table } = statementName(sql);
      const attributes: Attributes = {
        'db.system': 'postgresql',
        'db.operation.name': verb,
        'db.query.text': sql.length > MAX_STATEMENT ? `${sql.slice(0, MAX_STATEMENT)}…` : sql,
        'platform.db.engine': engine,
      };
      if (table) attributes['db.collection.name'] = table;
      open.set(
        query.__knexQueryUid,
        tracer.startSpan(table ? `${verb} ${table}` : verb, { kind: SpanKind.CLIENT, attributes }, parent),
      );
    });
    const finish = (query: KnexQuery | undefined, error?: { code?: unknown }) => {
      const uid = query?.__knexQueryUid;
      const span = uid ? open.get(uid) : undefined;
      if (!span) return;
      open.delete(uid!);
      if (error) {
        // The SQLSTATE only: the message of a failed statement may quote the value that failed it.
        span.setAttribute('error.type', typeof error.code === 'string' ? error.code : 'error');
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    };
    knex.on('query-response', (_response: unknown, query: KnexQuery) => finish(query));
    knex.on('query-error', (error: { code?: unknown }, query: KnexQuery) => finish(query, error ?? {}));
  };

  const storage = <S extends StoragePort>(store: S): S => {
    const traced =
      <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> => {
        const attributes: Attributes = {
          'platform.storage.driver': store.driver,
          'platform.storage.operation': operation,
        };
        // The key is the server's own `<folder>/<uuid>.<ext>`; the bytes and a signed URL never go in.
        if (typeof args[0] === 'string') attributes['platform.storage.key'] = args[0];
        return tracer.startActiveSpan(`storage ${operation}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
          try {
            return await call(...args);
          } catch (error) {
            span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        });
      };
    return {
      ...store,
      put: traced('put', store.put.bind(store)),
      delete: traced('delete', store.delete.bind(store)),
      exists: traced('exists', store.exists.bind(store)),
      signedUrl: traced('signed_url', store.signedUrl.bind(store)),
    };
  };

  return { requests, queries, storage };
}
