import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { displayName } from '../../core/display-name.js';
import { TooManyRequestsError, UnauthorizedError } from '../../core/errors.js';
import type { AuthContext, RequestOrigin } from '../../core/permissions.js';
import type { AuditTrail } from '../audit/service.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { authRepository } from './repository.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  hashRefreshToken,
  newRefreshToken,
  signAccessToken,
  verifyAccessToken,
} from './tokens.js';

const MAX_FAILED_LOGINS = 5;
const BAD_CREDENTIALS = 'invalid username or password';
const BAD_REFRESH = 'invalid or expired refresh token';

type TokenPair = Schemas['TokenPair'];

export function authService(knex: Knex, jwtSecret: string, audit: AuditTrail) {
  const repo = authRepository(knex);

  async function issue(trx: Knex | Knex.Transaction, userId: string, familyId: string): Promise<TokenPair> {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken(trx, { user_id: userId, token_hash: hashRefreshToken(refresh), family_id: familyId, ttlSeconds: REFRESH_TOKEN_TTL_SECONDS });
    return {
      access_token: await signAccessToken(jwtSecret, userId),
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_expires_in: REFRESH_TOKEN_TTL_SECONDS,
    };
  }

  return {
    /** Throttled per subject in the database; the message never says whether the user exists. */
    async login(login: string, password: string, origin: RequestOrigin): Promise<TokenPair> {
      const subject = login.trim().toLowerCase();
      // The attempted login is recorded as typed (never the password); an unknown one has no actor.
      const attempt = (action: 'login.failed' | 'login.delayed', userId: string | null) =>
        audit.record(knex, { userId, origin }, { action, target: { type: 'session', id: null }, after: { login: subject } });
      const locked = await repo.lockedForSeconds(subject);
      if (locked > 0) {
        await attempt('login.delayed', null);
        throw new TooManyRequestsError(`Too many failed sign-in attempts; try again in ${Math.ceil(locked / 60)} minute(s)`, locked);
      }

      const user = subject ? await repo.findUserByLogin(subject) : undefined;
      const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
      if (!user || !ok || !user.is_active) {
        const { lockedSeconds } = await repo.recordFailure(subject, MAX_FAILED_LOGINS);
        await attempt(lockedSeconds > 0 ? 'login.delayed' : 'login.failed', user?.id ?? null);
        if (lockedSeconds > 0) throw new TooManyRequestsError(`Too many failed sign-in attempts; try again in ${Math.ceil(lockedSeconds / 60)} minute(s)`, lockedSeconds);
        throw new UnauthorizedError(BAD_CREDENTIALS);
      }
      await repo.clearFailures(subject);
      const familyId = randomUUID();
      return knex.transaction(async (trx) => {
        await audit.record(trx, { userId: user.id, origin }, { action: 'login', target: { type: 'session', id: familyId } });
        return issue(trx, user.id, familyId);
      });
    },

    /** Rotates: the presented token is spent; presenting a spent token revokes its whole family. */
    async refresh(refreshToken: string, origin: RequestOrigin): Promise<TokenPair> {
      const outcome = await knex.transaction(async (trx) => {
        const stored = await repo.findRefreshToken(trx, hashRefreshToken(refreshToken));
        if (!stored) return { error: true as const };
        if (stored.revoked_at !== null || !(await repo.revokeToken(trx, stored.id))) {
          await repo.revokeFamily(trx, stored.family_id);
          return { error: true as const };
        }
        if (stored.expired) return { error: true as const };
        if (!(await repo.isUserActive(stored.user_id, trx))) {
          await repo.revokeFamily(trx, stored.family_id);
          return { error: true as const };
        }
        await audit.record(trx, { userId: stored.user_id, origin }, { action: 'refreshToken', target: { type: 'session', id: stored.family_id } });
        return { pair: await issue(trx, stored.user_id, stored.family_id) };
      });
      if ('error' in outcome) throw new UnauthorizedError(BAD_REFRESH);
      return outcome.pair;
    },

    /** Ends the session the refresh token belongs to. Unknown tokens are ignored (idempotent). */
    async logout(refreshToken: string, origin: RequestOrigin): Promise<void> {
      await knex.transaction(async (trx) => {
        const stored = await repo.findRefreshToken(trx, hashRefreshToken(refreshToken));
        if (!stored) return;
        await repo.revokeFamily(trx, stored.family_id);
        await audit.record(trx, { userId: stored.user_id, origin }, { action: 'logout', target: { type: 'session', id: stored.family_id } });
      });
    },

    /** The caller behind an access token, with the grants as they are now; null when the token or the account is not valid. */
    async caller(accessToken: string): Promise<AuthContext | null> {
      const userId = await verifyAccessToken(jwtSecret, accessToken);
      const permissions = userId ? await repo.permissionsOf(userId) : null;
      return userId && permissions ? { userId, permissions } : null;
    },

    async platformPermissions(userId: string): Promise<Schemas['PlatformPermissions']> {
      const [profile, perms] = await Promise.all([repo.findUserProfile(userId), repo.permissionsOf(userId)]);
      if (!profile || !perms) throw new UnauthorizedError();
      return { user: { id: profile.id, username: profile.username, email: profile.email, display_name: displayName(profile) }, ...perms };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
