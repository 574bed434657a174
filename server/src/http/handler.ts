import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OperationId, PathParams, QueryParams, Reply, RequestBody } from '../core/contract.js';
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
export function operations<K extends HandledOperationId>(handlers: Pick<OperationHandlers, K>): Pick<OperationHandlers, K> {
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
 * JSON, or no body for 204. Thrown errors go to the problem+json renderer. Requests for no operation fall through.
 */
export function dispatch(handlers: Pick<OperationHandlers, HandledOperationId>): RequestHandler {
  const byId = handlers as Partial<Record<OperationId, (ctx: HandlerContext<OperationId>) => Promise<Reply<OperationId>>>>;
  return async (req: Request, res: Response, next: NextFunction) => {
    const handler = req.operation ? byId[req.operation.id] : undefined;
    if (!handler) return next();
    try {
      const reply = (await handler(contextOf(req, res))) as { status: number; body?: unknown; headers?: Record<string, string> };
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
      if (reply.status === 204 || reply.body === undefined) res.status(reply.status).end();
      else res.status(reply.status).json(reply.body);
    } catch (err) {
      next(err);
    }
  };
}

/** Fails at start when an operation of the contract has no handler (or a handler names no operation). */
export function assertEveryOperationHandled(operationIds: OperationId[], handlers: object): void {
  const missing = operationIds.filter((id) => id !== 'getStoredFile' && !(id in handlers));
  const unknown = Object.keys(handlers).filter((id) => !operationIds.includes(id as OperationId));
  if (missing.length || unknown.length) {
    throw new Error(`Operations without a handler: ${missing.join(', ') || 'none'}; handlers without an operation: ${unknown.join(', ') || 'none'}`);
  }
}

/** A reply carrying a record and its version (`ETag`), for If-Match on the next write. */
export function versioned<S extends 200 | 201, T extends Versioned>(status: S, body: T, headers: Record<string, string> = {}) {
  return { status, body, headers: { ...headers, ETag: etagOf(body) } };
}
