import type { Request, RequestHandler } from 'express';
import {
  AccountDeactivatedError,
  ForbiddenError,
  PasswordChangeRequiredError,
  SecondFactorEnrolmentRequiredError,
  SessionEndedError,
  StepUpRequiredError,
  UnauthorizedError,
} from '../core/errors.js';
import { passesAccessRule, type AuthContext, type RequestOrigin } from '../core/permissions.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/** Where the request came from, as the audit trail records it. */
export function originOf(req: Request): RequestOrigin {
  const id = (req as Request & { id?: unknown }).id;
  const agent = req.headers['user-agent'];
  return {
    requestId: typeof id === 'string' ? id : null,
    ip: req.ip ?? null,
    userAgent: typeof agent === 'string' ? agent.slice(0, 1000) : null,
  };
}

/**
 * Why a bearer token is refused: not valid (tampered, expired, unknown user), its account was deactivated, or its
 * session ended. The console tells the user which, so the last two have their own problem types.
 */
export type CallerRefusal = 'invalid-token' | 'account-deactivated' | 'session-ended' | 'api-token-ended';

/**
 * Turns a bearer credential into the caller, or says why it is refused (null: not valid). `origin` is where the
 * request came from (an API token records its last address).
 */
export type CallerResolver = (
  credential: string,
  origin: RequestOrigin,
) => Promise<AuthContext | { refused: CallerRefusal } | null>;

/**
 * The prefix of every API token (`pa_<id>_<secret>`, docs/partners.md): how a bearer credential is told from a
 * person's access token (a JWT, which starts `eyJ`), and what secret scanners look for.
 */
export const API_TOKEN_PREFIX = 'pa_';

/** What an API token may never do, as its 403 says. */
export const API_TOKEN_REFUSED =
  'An API token cannot be used here: tokens never manage accounts, grants, tokens, sessions or sign-in settings. ' +
  'Sign in to the console as a person to do this.';

/** One resolver for API tokens, one for a person's access tokens; the prefix decides. */
export function byCredentialKind(resolvers: { apiToken: CallerResolver; accessToken: CallerResolver }): CallerResolver {
  return (credential, origin) =>
    credential.startsWith(API_TOKEN_PREFIX)
      ? resolvers.apiToken(credential, origin)
      : resolvers.accessToken(credential, origin);
}

function refusalError(reason: CallerRefusal): Error {
  if (reason === 'account-deactivated') return new AccountDeactivatedError();
  if (reason === 'session-ended') return new SessionEndedError();
  if (reason === 'api-token-ended')
    return new UnauthorizedError(
      'The API token is unknown, expired or revoked: ask an administrator for a new one',
      'api-token-ended',
    );
  return new UnauthorizedError();
}

/**
 * Verifies `Authorization: Bearer <jwt>` on every operation that is not public (`security: []` in the contract) and
 * sets `req.auth`. The resolver loads the caller's permissions on every request, so revoked grants and deactivated
 * users take effect at once.
 */
export function authenticate(resolveCaller: CallerResolver): RequestHandler {
  return async (req, res, next) => {
    try {
      if (req.operation?.access.kind === 'public' || (!req.operation && res.locals.publicPath === true)) return next();
      const header = req.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header) : null;
      if (!match) throw new UnauthorizedError('authentication required: send Authorization: Bearer <access_token>');
      const origin = originOf(req);
      const caller = await resolveCaller(match[1]!, origin);
      if (!caller) throw new UnauthorizedError();
      if ('refused' in caller) throw refusalError(caller.refused);
      req.auth = { ...caller, origin };
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The console's origin a request came from, when it names the request's own host (the console is served by the same
 * origin): what passkeys are bound to unless WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS or PUBLIC_BASE_URL say otherwise.
 */
export function consoleOriginOf(req: Request): string | null {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return null;
  try {
    const u = new URL(origin);
    return u.host === req.headers.host ? u.origin : null;
  } catch {
    return null;
  }
}

/** How long a second factor used in a session keeps the operations marked `x-step-up` open (GitHub's sudo mode). */
export const STEP_UP_SECONDS = 600;

/**
 * Whether the caller's session used a second factor recently enough for an `x-step-up` operation. An account
 * without any factor is never asked: nothing stronger than its password exists (the policy decides who must have one).
 */
export function stepUpMissing(auth: AuthContext, now = Date.now()): boolean {
  const factors = auth.secondFactors;
  if (!factors || factors.methods.length === 0) return false;
  return factors.usedAt === null || now - factors.usedAt > STEP_UP_SECONDS * 1000;
}

/**
 * Applies the operation's declared access rule (`x-permission`) before the body is parsed or any record is read.
 * While the caller must change an initial or reset password, only the operations marked `x-password-change-exempt`
 * answer; then, while it must set up a second factor, only those marked `x-second-factor-enrolment-exempt`. An API
 * token never reaches the operations marked `x-api-token-refused`. Once access is granted, an operation marked
 * `x-step-up` also needs a second factor used in this session within the last 10 minutes.
 */
export const requireAccess: RequestHandler = (req, _res, next) => {
  const access = req.operation?.access;
  if (!access || !req.auth) return next();
  const op = req.operation!;
  if (req.auth.tokenId && op.apiTokenRefused) return next(new ForbiddenError(API_TOKEN_REFUSED, 'api-token-refused'));
  if (req.auth.permissions.must_change_password && !op.passwordChangeExempt)
    return next(new PasswordChangeRequiredError());
  if (req.auth.permissions.must_enrol_second_factor && !op.secondFactorEnrolmentExempt)
    return next(new SecondFactorEnrolmentRequiredError());
  if (access.kind === 'key' && !passesAccessRule(req.auth.permissions, access))
    return next(
      new ForbiddenError(`Missing permission ${access.key}${access.scope === 'platform' ? ' (platform-wide)' : ''}`),
    );
  if (op.stepUp && stepUpMissing(req.auth)) return next(new StepUpRequiredError(req.auth.secondFactors!.methods));
  next();
};
