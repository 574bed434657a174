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
    /** The problem type URI when a client acts on it (`problemType(name)`); absent = `about:blank`. */
    public readonly type?: string,
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
  /** `headers`: more headers of the answer, e.g. `RateLimit` and `RateLimit-Policy`. */
  constructor(detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(429, detail, undefined, { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
    this.name = 'TooManyRequestsError';
  }
}

/** Where the problem types a client may act on live; a client reads the last path segment (`…/problems/session-ended`). */
export const PROBLEM_TYPE_BASE = 'https://platform-admin.dev/problems/';

export function problemType(name: string): string {
  return `${PROBLEM_TYPE_BASE}${name}`;
}

/** The account behind a valid token was deactivated: signing in again cannot help. */
export class AccountDeactivatedError extends HttpError {
  constructor() {
    super(
      401,
      'Your account has been deactivated. Ask an administrator to reactivate it.',
      undefined,
      { 'WWW-Authenticate': 'Bearer' },
      undefined,
      problemType('account-deactivated'),
    );
    this.name = 'AccountDeactivatedError';
  }
}

/** The token's session was ended (signed out from another device, by a password change or a reset). */
export class SessionEndedError extends HttpError {
  constructor() {
    super(
      401,
      "This session was signed out (from your account's sessions, a password change or reset).",
      undefined,
      { 'WWW-Authenticate': 'Bearer' },
      undefined,
      problemType('session-ended'),
    );
    this.name = 'SessionEndedError';
  }
}

/** The caller signed in with an initial or reset password and must change it before anything else. */
export class PasswordChangeRequiredError extends HttpError {
  constructor() {
    super(
      403,
      'Change your password before anything else: PUT /api-system/me/password.',
      undefined,
      undefined,
      undefined,
      problemType('password-change-required'),
    );
    this.name = 'PasswordChangeRequiredError';
  }
}

/** "1 second", "45 seconds", "2 minutes": how long to wait, as a person reads it (rounded up, never shorter). */
export function waitPhrase(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 120) return s === 1 ? '1 second' : `${s} seconds`;
  const m = Math.ceil(s / 60);
  return `${m} minutes`;
}
