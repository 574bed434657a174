import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { DomainError, problemType, type FieldError } from '../core/errors.js';
import { headersOf, HttpError, statusOf } from './errors.js';
import { requestLogNotes } from './logging.js';

const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  request_id?: string;
  retry_after?: number;
  errors?: FieldError[];
}

interface Mapped {
  status: number;
  /** The problem type URI; absent = `about:blank`. */
  type?: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  extensions?: Record<string, unknown>;
}

const PG_MESSAGES: Record<string, [number, string]> = {
  '23505': [409, 'A record with the same unique values already exists'],
  '23503': [409, 'The record refers to a record that does not exist, or is still referenced'],
  '22P02': [400, 'A value has an invalid format (for example a malformed UUID)'],
  '23502': [400, 'A required value is missing'],
  '23514': [400, 'A value is outside the allowed set'],
  '22001': [400, 'A value is too long'],
  '22003': [400, 'A number is out of range'],
  '22007': [400, 'A date or time value has an invalid format'],
  '22008': [400, 'A date or time value is out of range'],
  '22023': [400, 'A value is not valid'],
  '22021': [400, 'A text value contains invalid characters'],
  // JSON values (jsonb) may not hold \u0000: PostgreSQL refuses it as an unsupported Unicode escape.
  '22P05': [400, 'A value contains a character that cannot be stored (such as \\u0000)'],
  '2201W': [400, 'A paging value is not valid'],
  '2201X': [400, 'A paging value is not valid'],
  '40001': [409, 'The request conflicted with a concurrent change; retry it'],
  '40P01': [409, 'The request conflicted with a concurrent change; retry it'],
};

function normaliseValidatorErrors(raw: unknown): FieldError[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.map((e: { path?: unknown; message?: unknown }) => ({
    path: typeof e.path === 'string' ? e.path : '',
    message: typeof e.message === 'string' ? e.message : 'is not valid',
  }));
}

/** Maps anything thrown into status + detail; unknown errors are 500 with a generic detail. */
export function mapError(err: unknown): Mapped {
  if (err instanceof DomainError)
    return {
      status: statusOf(err),
      type: err.problem === undefined ? undefined : problemType(err.problem),
      detail: err.message,
      errors: err.errors,
      headers: headersOf(err),
      extensions: err.extensions,
    };
  if (err instanceof HttpError) return { status: err.status, detail: err.message, headers: err.headers };
  const e = err as {
    status?: unknown;
    statusCode?: unknown;
    type?: unknown;
    code?: unknown;
    errors?: unknown;
    message?: unknown;
    headers?: unknown;
  };
  // body-parser (express.json)
  if (typeof e?.type === 'string' && typeof e.status === 'number') {
    if (e.type === 'entity.parse.failed') return { status: 400, detail: 'The request body is not valid JSON' };
    if (e.type === 'entity.too.large') return { status: 413, detail: 'The request body is too large' };
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
      return { status: 415, detail: 'Unsupported request body encoding' };
    if (e.status >= 400 && e.status < 500)
      return { status: e.status, detail: typeof e.message === 'string' ? e.message : 'Bad request' };
  }
  // PostgreSQL (pg and PGlite both expose the SQLSTATE as `code`)
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && PG_MESSAGES[e.code]) {
    const [status, detail] = PG_MESSAGES[e.code]!;
    return { status, detail };
  }
  // express-openapi-validator (has status + errors[])
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 600 && Array.isArray(e.errors)) {
    const status = e.status;
    const errors = normaliseValidatorErrors(e.errors);
    // Response validation (test/development only): say what broke so the failing test points at it.
    if (status >= 500)
      return {
        status: 500,
        detail: `The server produced a response that does not match the API contract: ${typeof e.message === 'string' ? e.message : ''}`,
      };
    const detail =
      status === 400 && errors?.length
        ? errors.map((x) => (x.path ? `${x.path} ${x.message}` : x.message)).join('; ')
        : status === 401
          ? 'invalid or expired token'
          : status === 404
            ? 'Not found'
            : status === 405
              ? 'Method not allowed'
              : typeof e.message === 'string'
                ? e.message
                : (STATUS_CODES[status] ?? 'Error');
    const headers =
      status === 405 && e.headers && typeof e.headers === 'object' ? (e.headers as Record<string, string>) : undefined;
    return { status, detail, errors: status === 400 ? errors : undefined, headers };
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return {
      status: e.status,
      detail: typeof e.message === 'string' && e.message ? e.message : (STATUS_CODES[e.status] ?? 'Error'),
    };
  }
  return { status: 500, detail: 'An unexpected error occurred' };
}

function problemBody(req: Request, mapped: Mapped): Problem {
  const requestId = (req as Request & { id?: unknown }).id;
  const retryAfter = mapped.headers?.['Retry-After'];
  return {
    ...mapped.extensions,
    type: mapped.type ?? 'about:blank',
    title: STATUS_CODES[mapped.status] ?? 'Error',
    status: mapped.status,
    detail: mapped.detail,
    instance: req.originalUrl.split('?')[0],
    ...(typeof requestId === 'string' ? { request_id: requestId } : {}),
    ...(retryAfter ? { retry_after: Number(retryAfter) } : {}),
    ...(mapped.errors && mapped.errors.length > 0 ? { errors: mapped.errors } : {}),
  };
}

function sendProblem(req: Request, res: import('express').Response, mapped: Mapped): void {
  if (mapped.headers) for (const [k, v] of Object.entries(mapped.headers)) res.setHeader(k, v);
  const body = problemBody(req, mapped);
  // The request's log line says why it was refused or failed, as the client was told.
  requestLogNotes(res).problem = { title: body.title, detail: body.detail };
  res.status(mapped.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/** Maps the error and logs it: a server fault as an error, a refusal at debug level. */
function mappedAndLogged(req: Request, err: unknown): Mapped {
  const mapped = mapError(err);
  const log = (
    req as Request & { log?: { error: (o: object, m: string) => void; debug: (o: object, m: string) => void } }
  ).log;
  if (mapped.status >= 500) log?.error({ err }, 'request failed');
  else log?.debug({ status: mapped.status, detail: mapped.detail }, 'request rejected');
  return mapped;
}

/** The one error middleware of the app. */
export const problemHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  sendProblem(req, res, mappedAndLogged(req, err));
};

/**
 * The problem document an error renders as, for a reply that carries failures inside its body (a bulk action's
 * failed rows): the same status, type and detail the error would have sent on its own.
 */
export function problemOf(req: Request, err: unknown): Problem {
  return problemBody(req, mappedAndLogged(req, err));
}

/** Unknown routes under the API prefixes → 404 problem (the SPA fallback handles the rest). */
export const apiNotFound: RequestHandler = (req, res) => {
  sendProblem(req, res, { status: 404, detail: `No route for ${req.method} ${req.originalUrl.split('?')[0]}` });
};
