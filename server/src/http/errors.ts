import {
  AccountDeactivatedError,
  BadRequestError,
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  NotFoundError,
  PasswordChangeRequiredError,
  PayloadTooLargeError,
  SecondFactorEnrolmentRequiredError,
  SecondFactorInvalidError,
  SecondFactorTokenInvalidError,
  StepUpRequiredError,
  PreconditionFailedError,
  SessionEndedError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '../core/errors.js';

/**
 * An error about the exchange itself rather than the domain (the service cannot answer now, say): it carries its
 * status, and the response fields that go with it, as they are sent.
 */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    detail: string,
    public readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** The service cannot serve requests now (its database is unreachable, or not the schema it serves). */
export class ServiceUnavailableError extends HttpError {
  constructor(detail: string) {
    super(503, detail);
    this.name = 'ServiceUnavailableError';
  }
}

type DomainErrorClass = abstract new (...args: never[]) => DomainError;

/**
 * The status each kind of domain error is answered with. Every class `core/errors.ts` exports is listed, a subclass
 * too (a test holds it so); a class defined elsewhere answers as its nearest listed ancestor.
 */
export const DOMAIN_STATUS: ReadonlyMap<DomainErrorClass, number> = new Map<DomainErrorClass, number>([
  [BadRequestError, 400],
  [UnauthorizedError, 401],
  [AccountDeactivatedError, 401],
  [SessionEndedError, 401],
  [ForbiddenError, 403],
  [PasswordChangeRequiredError, 403],
  [SecondFactorEnrolmentRequiredError, 403],
  [StepUpRequiredError, 403],
  [SecondFactorInvalidError, 401],
  [SecondFactorTokenInvalidError, 401],
  [NotFoundError, 404],
  [ConflictError, 409],
  [GoneError, 410],
  [PreconditionFailedError, 412],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [TooManyRequestsError, 429],
]);

/** The status of a domain error: its class's, else its nearest listed ancestor's; 500 for one nobody mapped. */
export function statusOf(err: DomainError): number {
  for (let proto: unknown = Object.getPrototypeOf(err); proto && proto !== DomainError.prototype;) {
    const status = DOMAIN_STATUS.get((proto as { constructor: DomainErrorClass }).constructor);
    if (status !== undefined) return status;
    proto = Object.getPrototypeOf(proto);
  }
  return 500;
}

/**
 * The response fields a domain error implies: a challenge for the unauthenticated family (RFC 6750), and for a
 * refused rate, when to retry (RFC 9110 §10.2.3) and the quota that was used up (the IETF RateLimit fields: nothing
 * remains, and the window resets when the caller may retry).
 */
export function headersOf(err: DomainError): Record<string, string> | undefined {
  if (err instanceof UnauthorizedError) return { 'WWW-Authenticate': 'Bearer' };
  if (err instanceof TooManyRequestsError) {
    const seconds = err.retryAfterSeconds;
    const quota = err.quota && {
      RateLimit: `limit=${err.quota.limit}, remaining=0, reset=${seconds}`,
      'RateLimit-Policy': `${err.quota.limit};w=${err.quota.windowSeconds}`,
    };
    return { ...quota, 'Retry-After': String(seconds) };
  }
  return undefined;
}
