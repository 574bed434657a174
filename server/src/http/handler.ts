import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OperationId, PathParams, QueryParams, Reply, RequestBody, StreamedReply } from '../core/contract.js';
import { UnauthorizedError } from '../core/errors.js';
import { etagOf, type Versioned } from '../core/etag.js';
import type { AuthContext } from '../core/permissions.js';

export interface HandlerContext<K extends OperationId> {
  req: Request;
  res: Response;
  /** The signed-in caller; reading it on a public operation is a 401. */
  auth: AuthContext;
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
}

/** One handler per operation; indexing by K keeps each reply contextually typed (literals stay literal). */
export type OperationHandlers = { [K in OperationId]: (ctx: HandlerContext<K>) => Promise<Reply<K>> };

/** `getStoredFile` streams a file and is served by the local storage adapter, not by a JSON handler. */
export type HandledOperationId = Exclude<OperationId, 'getStoredFile'>;

/** A module's handlers: `operations({ listClusters: async ({ auth, query }) => …, … })`. */
export function operations<K extends HandledOperationId>(
  handlers: Pick<OperationHandlers, K>,
): Pick<OperationHandlers, K> {
  return handlers;
}

type ValidatedRequest = Request & { openapi?: { pathParams?: Record<string, string> } };

function contextOf<K extends OperationId>(req: Request, res: Response): HandlerContext<K> {
  return {
    req,
    res,
    get auth() {
      if (!req.auth) throw new UnauthorizedError();
      return req.auth;
    },
    // The contract validator has checked and coerced these against the operation by now. Express resets
    // `req.params` for every middleware layer, so the path parameters are read where the validator left them.
    params: ((req as ValidatedRequest).openapi?.pathParams ?? {}) as PathParams<K>,
    query: req.query as QueryParams<K>,
    body: req.body as RequestBody<K>,
  };
}

/**
 * Runs the handler of the operation the request addresses (`req.operation`, from the contract) and sends its reply:
 * JSON, no body for 204, or a body that writes itself (`StreamedReply`: a CSV export). Thrown errors go to the
 * problem+json renderer. Requests for no operation fall through.
 *
 * After any operation that may write (everything but GET) that sent a statement writing a table the caches depend on,
 * and before its reply leaves, the caches of this process forget what they hold (`changes.localWritesSince`): the
 * caller's next request reads its own write, without waiting for the database's notification. A handler that threw
 * is treated alike: cheaper than knowing whether it committed. (`changes` is the app's change feed; the pipeline
 * needs only this of it.)
 */
export function dispatch(
  handlers: Pick<OperationHandlers, HandledOperationId>,
  changes: { writeMark(): number; localWritesSince(mark: number): void },
): RequestHandler {
  const byId = handlers as Partial<
    Record<OperationId, (ctx: HandlerContext<OperationId>) => Promise<Reply<OperationId>>>
  >;
  return async (req: Request, res: Response, next: NextFunction) => {
    const handler = req.operation ? byId[req.operation.id] : undefined;
    if (!handler) return next();
    const mark = req.method === 'GET' ? null : changes.writeMark();
    try {
      const reply = (await handler(contextOf(req, res)).finally(() => {
        if (mark !== null) changes.localWritesSince(mark);
      })) as { status: number; body?: unknown; headers?: Record<string, string> } | StreamedReply;
      if ('stream' in reply) return await reply.stream(res);
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
      if (reply.status === 204 || reply.body === undefined) res.status(reply.status).end();
      else res.status(reply.status).json(reply.body);
    } catch (err) {
      // A streamed reply that fails after its first bytes can no longer become a problem: cut the connection so the
      // client sees a broken download, not a complete-looking wrong one.
      if (!res.headersSent) return next(err);
      req.log.error({ err }, 'streamed reply failed after its first bytes; connection closed');
      res.destroy();
    }
  };
}

/** Fails at start when an operation of the contract has no handler (or a handler names no operation). */
export function assertEveryOperationHandled(operationIds: OperationId[], handlers: object): void {
  const missing = operationIds.filter((id) => id !== 'getStoredFile' && !(id in handlers));
  const unknown = Object.keys(handlers).filter((id) => !operationIds.includes(id as OperationId));
  if (missing.length || unknown.length) {
    throw new Error(
      `Operations without a handler: ${missing.join(', ') || 'none'}; handlers without an operation: ${unknown.join(', ') || 'none'}`,
    );
  }
}

/** A reply carrying a record and its version (`ETag`), for If-Match on the next write. */
export function versioned<S extends 200 | 201, T extends Versioned>(
  status: S,
  body: T,
  headers: Record<string, string> = {},
) {
  return { status, body, headers: { ...headers, ETag: etagOf(body) } };
}
