import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { TooManyRequestsError, UnauthorizedError } from '../../http/errors.js';
import { loadPermissions, type Permissions } from '../../http/permissions.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { authRepository } from './repository.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  hashRefreshToken,
  newRefreshToken,
  signAccessToken,
} from './tokens.js';

export const MAX_FAILED_LOGINS = 5;
const BAD_CREDENTIALS = 'invalid username or password';
const BAD_REFRESH = 'invalid or expired refresh token';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_expires_in: number;
}

export function authService(knex: Knex, jwtSecret: string) {
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
    async login(login: string, password: string): Promise<TokenPair> {
      const subject = login.trim().toLowerCase();
      const locked = await repo.lockedForSeconds(subject);
      if (locked > 0) throw new TooManyRequestsError(`Too many failed sign-in attempts; try again in ${Math.ceil(locked / 60)} minute(s)`, locked);

      const user = subject ? await repo.findUserByLogin(subject) : undefined;
      const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
      if (!user || !ok || !user.is_active) {
        const { lockedSeconds } = await repo.recordFailure(subject, MAX_FAILED_LOGINS);
        if (lockedSeconds > 0) throw new TooManyRequestsError(`Too many failed sign-in attempts; try again in ${Math.ceil(lockedSeconds / 60)} minute(s)`, lockedSeconds);
        throw new UnauthorizedError(BAD_CREDENTIALS);
      }
      await repo.clearFailures(subject);
      return issue(knex, user.id, randomUUID());
    },

    /** Rotates: the presented token is spent; presenting a spent token revokes its whole family. */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const outcome = await knex.transaction(async (trx) => {
        const stored = await repo.findRefreshToken(trx, hashRefreshToken(refreshToken));
        if (!stored) return { error: true as const };
        if (stored.revoked_at !== null || !(await repo.revokeToken(trx, stored.id))) {
          await repo.revokeFamily(trx, stored.family_id);
          return { error: true as const };
        }
        if ((stored as unknown as { expired: boolean }).expired) return { error: true as const };
        const active = await trx('users').select('is_active').where({ id: stored.user_id }).first();
        if (!active?.is_active) {
          await repo.revokeFamily(trx, stored.family_id);
          return { error: true as const };
        }
        return { pair: await issue(trx, stored.user_id, stored.family_id) };
      });
      if ('error' in outcome) throw new UnauthorizedError(BAD_REFRESH);
      return outcome.pair;
    },

    /** Ends the session the refresh token belongs to. Unknown tokens are ignored (idempotent). */
    async logout(refreshToken: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const stored = await repo.findRefreshToken(trx, hashRefreshToken(refreshToken));
        if (stored) await repo.revokeFamily(trx, stored.family_id);
      });
    },

    async platformPermissions(userId: string): Promise<{ user: { id: string; username: string; email: string; display_name: string } } & Permissions> {
      const [profile, perms] = await Promise.all([repo.findUserProfile(userId), loadPermissions(knex, userId)]);
      if (!profile || !perms) throw new UnauthorizedError();
      const display = [profile.firstname, profile.middlename, profile.lastname].filter((s: unknown) => typeof s === 'string' && s.trim()).join(' ');
      return {
        user: { id: profile.id, username: profile.username, email: profile.email, display_name: display || profile.username || profile.email },
        platform: perms.platform,
        clusters: perms.clusters,
        is_super_admin: perms.is_super_admin,
      };
    },
  };
}
