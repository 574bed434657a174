import type { ServerResponse } from 'node:http';
import type { components, operations } from '../../../openapi/generated/schema.js';

/** The contract's types, generated from openapi/ by `npm run gen:types`: the only source of wire types. */
export type Schemas = components['schemas'];
export type OperationId = keyof operations;

type Op<K extends OperationId> = operations[K];
type IsNever<T> = [T] extends [never] ? true : false;

type ParamsOf<K extends OperationId, Where extends 'path' | 'query'> =
  Op<K>['parameters'] extends Record<Where, infer P>
    ? IsNever<P> extends true
      ? Record<string, never>
      : P
    : Record<string, never>;

export type PathParams<K extends OperationId> = ParamsOf<K, 'path'>;
/** Query after the validator coerced types and applied defaults. */
export type QueryParams<K extends OperationId> = Op<K>['parameters'] extends { query?: infer Q }
  ? IsNever<Q> extends true
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;

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

/** The statuses a handler answers itself; 302 is a browser redirect (single sign-on). */
type SuccessStatus = 200 | 201 | 202 | 204 | 302;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/**
 * A reply too long to hold in memory (a CSV export): the dispatcher hands it the response, and it sets its own
 * headers once it knows it can answer, then writes the body as it reads it.
 */
export interface StreamedReply {
  status: 200;
  stream: (res: ServerResponse) => Promise<void>;
}

/** What a handler returns: one of the operation's documented success responses. */
export type Reply<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & SuccessStatus]: Op<K>['responses'][S] extends { content: { 'text/csv': unknown } }
    ? StreamedReply
    : JsonOf<Op<K>['responses'][S]> extends undefined
      ? { status: S; body?: undefined; headers?: Record<string, string> }
      : { status: S; body: JsonOf<Op<K>['responses'][S]>; headers?: Record<string, string> };
}[keyof Op<K>['responses'] & SuccessStatus];
