import type { Request, RequestHandler } from 'express';
import {
  AccountDeactivatedError,
  ForbiddenError,
  PasswordChangeRequiredError,
  SessionEndedError,
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
export type CallerRefusal = 'invalid-token' | 'account-deactivated' | 'session-ended';

/** Turns a verified bearer token into the caller, or says why it is refused (null: not valid). */
export type CallerResolver = (accessToken: string) => Promise<AuthContext | { refused: CallerRefusal } | null>;

function refusalError(reason: CallerRefusal): Error {
  if (reason === 'account-deactivated') return new AccountDeactivatedError();
  if (reason === 'session-ended') return new SessionEndedError();
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
      const caller = await resolveCaller(match[1]!);
      if (!caller) throw new UnauthorizedError();
      if ('refused' in caller) throw refusalError(caller.refused);
      req.auth = { ...caller, origin: originOf(req) };
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * Applies the operation's declared access rule (`x-permission`) before the body is parsed or any record is read.
 * While the caller must change an initial or reset password, only the operations marked `x-password-change-exempt`
 * answer.
 */
export const requireAccess: RequestHandler = (req, _res, next) => {
  const access = req.operation?.access;
  if (!access || !req.auth) return next();
  if (req.auth.permissions.must_change_password && !req.operation!.passwordChangeExempt)
    return next(new PasswordChangeRequiredError());
  if (access.kind !== 'key') return next();
  if (passesAccessRule(req.auth.permissions, access)) return next();
  next(new ForbiddenError(`Missing permission ${access.key}${access.scope === 'platform' ? ' (platform-wide)' : ''}`));
};
