import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { operations } from '../../../openapi/generated/schema.js';

/** Handlers are typed from the generated contract: `operations['<operationId>']`. */
export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type IsNever<T> = [T] extends [never] ? true : false;

type ParamsOf<K extends OperationId, Where extends 'path' | 'query'> =
  Op<K>['parameters'] extends Record<Where, infer P> ? (IsNever<P> extends true ? Record<string, never> : P) : Record<string, never>;

export type PathParams<K extends OperationId> = ParamsOf<K, 'path'>;
/** Query after the validator coerced types and applied defaults. */
export type QueryParams<K extends OperationId> =
  Op<K>['parameters'] extends { query?: infer Q } ? (IsNever<Q> extends true ? Record<string, never> : NonNullable<Q>) : Record<string, never>;

type ContentOf<T> = T extends { content: infer C } ? C : never;
export type RequestBody<K extends OperationId> =
  IsNever<NonNullable<Op<K>['requestBody']>> extends true
    ? undefined
    : ContentOf<NonNullable<Op<K>['requestBody']>> extends infer C
      ? C extends { 'application/json': infer B }
        ? B
        : C extends { 'multipart/form-data': infer M }
          ? M
          : unknown
      : unknown;

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** What a handler returns: one of the operation's documented success responses. */
export type Reply<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & SuccessStatus]: JsonOf<Op<K>['responses'][S]> extends undefined
    ? { status: S; body?: undefined; headers?: Record<string, string> }
    : { status: S; body: JsonOf<Op<K>['responses'][S]>; headers?: Record<string, string> };
}[keyof Op<K>['responses'] & SuccessStatus];

export interface HandlerContext<K extends OperationId> {
  req: Request;
  res: Response;
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
}

/**
 * Binds one operation's handler: typed inputs (already validated by the contract validator), a typed reply
 * that is sent as JSON (204 without a body), and any thrown error passed to the problem+json renderer.
 *
 *   router.get('/api-system/clusters/:id', handle('getCluster', async ({ params, req }) => ({ status: 200, body: … })));
 */
/** One handler type per operation; indexing it by K keeps the reply contextually typed (literals stay literal). */
export type OperationHandlers = { [P in OperationId]: (ctx: HandlerContext<P>) => Promise<Reply<P>> };

export function handle<K extends OperationId>(_operationId: K, fn: OperationHandlers[K]): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const reply = (await (fn as (ctx: HandlerContext<K>) => Promise<Reply<K>>)({
        req,
        res,
        params: req.params as unknown as PathParams<K>,
        query: req.query as unknown as QueryParams<K>,
        body: req.body as RequestBody<K>,
      })) as { status: number; body?: unknown; headers?: Record<string, string> };
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
      if (reply.status === 204 || reply.body === undefined) res.status(reply.status).end();
      else res.status(reply.status).json(reply.body);
    } catch (err) {
      next(err);
    }
  };
}
