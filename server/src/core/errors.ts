import { STATUS_CODES } from 'node:http';

export interface FieldError {
  path: string;
  message: string;
}

/** Base of every error the API renders as application/problem+json. Throw from any layer. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    detail: string,
    public readonly errors?: FieldError[],
    public readonly headers?: Record<string, string>,
    /** Extension members of the problem body (RFC 9457 §3.2), e.g. resolve's candidates. */
    public readonly extensions?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'HttpError';
  }
  get title(): string {
    return STATUS_CODES[this.status] ?? 'Error';
  }
}

export class BadRequestError extends HttpError {
  constructor(detail = 'The request is not valid', errors?: FieldError[]) {
    super(400, detail, errors);
    this.name = 'BadRequestError';
  }
}
export class UnauthorizedError extends HttpError {
  constructor(detail = 'invalid or expired token') {
    super(401, detail, undefined, { 'WWW-Authenticate': 'Bearer' });
    this.name = 'UnauthorizedError';
  }
}
export class ForbiddenError extends HttpError {
  constructor(detail = 'You do not have permission to do this') {
    super(403, detail);
    this.name = 'ForbiddenError';
  }
}
export class NotFoundError extends HttpError {
  constructor(detail = 'Not found', extensions?: Record<string, unknown>) {
    super(404, detail, undefined, undefined, extensions);
    this.name = 'NotFoundError';
  }
}
export class ConflictError extends HttpError {
  constructor(detail = 'The request conflicts with the current state of the resource') {
    super(409, detail);
    this.name = 'ConflictError';
  }
}
export class GoneError extends HttpError {
  constructor(detail = 'The resource is no longer available') {
    super(410, detail);
    this.name = 'GoneError';
  }
}
export class PreconditionFailedError extends HttpError {
  constructor(detail = 'The resource was changed by someone else (If-Match does not match the current ETag)') {
    super(412, detail);
    this.name = 'PreconditionFailedError';
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(detail = 'The request body is too large') {
    super(413, detail);
    this.name = 'PayloadTooLargeError';
  }
}
export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail = 'Unsupported media type') {
    super(415, detail);
    this.name = 'UnsupportedMediaTypeError';
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, detail, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
    this.name = 'TooManyRequestsError';
  }
}
