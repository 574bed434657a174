/** One field's reason for refusing a request: where (a JSON pointer into the request) and why. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * What went wrong, in the domain's words: something is missing, refused, conflicting, invalid. Throw one from any
 * layer; how it reaches a client (its status and any response fields) is the web layer's business, decided by its
 * class alone (`http/errors.ts`), so a service says what happened and never how to answer it.
 */
export abstract class DomainError extends Error {
  constructor(
    /** What went wrong, written for the person who sees it (the problem's detail). */
    detail: string,
    /** The fields that are not valid, each with its reason. */
    public readonly errors?: FieldError[],
    /** More members for the client to act on, e.g. resolve's candidates. */
    public readonly extensions?: Record<string, unknown>,
    /** The name of the problem type when a client acts on it (`session-ended`); absent when the kind says enough. */
    public readonly problem?: string,
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}

/** The request is not valid: a value, a combination of values, or what it asks for is not allowed. */
export class BadRequestError extends DomainError {
  constructor(detail = 'The request is not valid', errors?: FieldError[]) {
    super(detail, errors);
    this.name = 'BadRequestError';
  }
}

/** Who is asking is not known: no credentials, or ones that are invalid, expired or withdrawn. */
export class UnauthorizedError extends DomainError {
  constructor(detail = 'invalid or expired token', problem?: string) {
    super(detail, undefined, undefined, problem);
    this.name = 'UnauthorizedError';
  }
}

/** The caller is known but may not do this. */
export class ForbiddenError extends DomainError {
  constructor(
    detail = 'You do not have permission to do this',
    problem?: string,
    extensions?: Record<string, unknown>,
  ) {
    super(detail, undefined, extensions, problem);
    this.name = 'ForbiddenError';
  }
}

/** There is no such thing, or the caller may not know it exists. */
export class NotFoundError extends DomainError {
  constructor(detail = 'Not found', extensions?: Record<string, unknown>) {
    super(detail, undefined, extensions);
    this.name = 'NotFoundError';
  }
}

/** The request contradicts the current state: a duplicate, a reference still in use, a state that forbids it. */
export class ConflictError extends DomainError {
  constructor(detail = 'The request conflicts with the current state of the resource') {
    super(detail);
    this.name = 'ConflictError';
  }
}

/** The thing existed and is gone for good (a used or expired one-time link). */
export class GoneError extends DomainError {
  constructor(detail = 'The resource is no longer available') {
    super(detail);
    this.name = 'GoneError';
  }
}

/** The record changed since the caller read it: the version the caller names is no longer the current one. */
export class PreconditionFailedError extends DomainError {
  // The detail names the request field a client sends its version in, so a client author knows what to resend.
  constructor(detail = 'The resource was changed by someone else (If-Match does not match the current ETag)') {
    super(detail);
    this.name = 'PreconditionFailedError';
  }
}

/** Content the caller sent (an uploaded file) is larger than the product accepts. */
export class PayloadTooLargeError extends DomainError {
  constructor(detail = 'The request body is too large') {
    super(detail);
    this.name = 'PayloadTooLargeError';
  }
}

/** Content the caller sent is not of a kind the product accepts (judged by its content, not its declared type). */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(detail = 'Unsupported media type') {
    super(detail);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** The rate a refusal enforces: at most `limit` requests per `windowSeconds`. */
export interface RateQuota {
  limit: number;
  windowSeconds: number;
}

/** The caller asked too often: it may ask again after `retryAfterSeconds` (a whole number, at least 1). */
export class TooManyRequestsError extends DomainError {
  readonly retryAfterSeconds: number;
  /** The quota the caller ran out of, when the refusal enforces one. */
  readonly quota?: RateQuota;

  constructor(detail: string, retryAfterSeconds: number, quota?: RateQuota) {
    super(detail);
    this.name = 'TooManyRequestsError';
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
    if (quota) this.quota = { limit: quota.limit, windowSeconds: quota.windowSeconds };
  }
}

/** Where the problem types a client may act on live; a client reads the last path segment (`…/problems/session-ended`). */
export const PROBLEM_TYPE_BASE = 'https://platform-admin.dev/problems/';

export function problemType(name: string): string {
  return `${PROBLEM_TYPE_BASE}${name}`;
}

/** The account behind a valid token was deactivated: signing in again cannot help. */
export class AccountDeactivatedError extends UnauthorizedError {
  constructor() {
    super('Your account has been deactivated. Ask an administrator to reactivate it.', 'account-deactivated');
    this.name = 'AccountDeactivatedError';
  }
}

/** The token's session was ended (signed out from another device, by a password change or a reset). */
export class SessionEndedError extends UnauthorizedError {
  constructor() {
    super("This session was signed out (from your account's sessions, a password change or reset).", 'session-ended');
    this.name = 'SessionEndedError';
  }
}

/** The caller signed in with an initial or reset password and must change it before anything else. */
export class PasswordChangeRequiredError extends ForbiddenError {
  constructor() {
    super('Change your password before anything else: PUT /api-system/me/password.', 'password-change-required');
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

/** The caller must set up a second factor (the policy, or an administrator's reset) before anything else. */
export class SecondFactorEnrolmentRequiredError extends ForbiddenError {
  constructor() {
    super(
      'Set up a second factor (an authenticator app or a passkey) under My account before anything else.',
      'second-factor-enrolment-required',
    );
    this.name = 'SecondFactorEnrolmentRequiredError';
  }
}

/** A sensitive operation needs a second factor used within the last 10 minutes; `methods` are those the caller has. */
export class StepUpRequiredError extends ForbiddenError {
  constructor(methods: string[]) {
    super(
      'Confirm it is you: use your authenticator app, a recovery code or a passkey, then try again. This is asked at most every 10 minutes.',
      'step-up-required',
      { methods },
    );
    this.name = 'StepUpRequiredError';
  }
}

/** A second factor that is wrong, used, or not the account's. */
export class SecondFactorInvalidError extends UnauthorizedError {
  constructor() {
    super(
      'The code is wrong or has been used: enter the current code from your authenticator app, or a recovery code',
      'second-factor-invalid',
    );
    this.name = 'SecondFactorInvalidError';
  }
}

/** The token of a sign-in's second step is unknown, expired or used. */
export class SecondFactorTokenInvalidError extends UnauthorizedError {
  constructor() {
    super('Sign in again: the sign-in has expired', 'second-factor-token-invalid');
    this.name = 'SecondFactorTokenInvalidError';
  }
}
