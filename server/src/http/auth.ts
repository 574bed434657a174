import type { Knex } from 'knex';
import type { RequestHandler } from 'express';
import { UnauthorizedError } from './errors.js';
import { loadPermissions } from './permissions.js';
import { verifyAccessToken } from '../modules/auth/tokens.js';
import type { RouteMatcher } from './spec.js';

export interface AuthenticateOptions {
  knex: Knex;
  jwtSecret: string;
  /** Operations reachable without a token (from the contract's `security: []`). */
  publicRoutes: RouteMatcher[];
}

/**
 * Verifies `Authorization: Bearer <jwt>` and loads the caller's permissions from the database on every
 * request, so revoked grants and deactivated users take effect at once. Sets `req.auth`.
 */
export function authenticate(opts: AuthenticateOptions): RequestHandler {
  return async (req, _res, next) => {
    try {
      const path = req.originalUrl.split('?')[0]!;
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (opts.publicRoutes.some((r) => (r.method === '*' || r.method === method) && r.pattern.test(path))) return next();
      const header = req.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header) : null;
      if (!match) throw new UnauthorizedError('authentication required: send Authorization: Bearer <access_token>');
      const userId = await verifyAccessToken(opts.jwtSecret, match[1]!);
      if (!userId) throw new UnauthorizedError();
      const permissions = await loadPermissions(opts.knex, userId);
      if (!permissions) throw new UnauthorizedError();
      req.auth = { userId, permissions };
      next();
    } catch (err) {
      next(err);
    }
  };
}
