import type { Knex } from 'knex';
import type { Permissions, PermissionKey } from '../../core/permissions.js';

export interface UserCredentials {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  is_active: boolean;
}

export interface StoredRefreshToken {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  /** Computed by the database clock, like every other expiry check. */
  expired: boolean;
}

const LOCK_WINDOW = "interval '15 minutes'";

export function authRepository(knex: Knex) {
  return {
    /** The caller's grants in one round trip (one row per grant, or one row of nulls); null for an unknown or inactive user. */
    async permissionsOf(userId: string): Promise<Permissions | null> {
      const rows: Array<{ is_super_admin: boolean; is_active: boolean; permission_key: PermissionKey | null; cluster_id: string | null }> =
        await knex('users')
          .leftJoin('permission_grants', 'permission_grants.user_id', 'users.id')
          .select('users.is_super_admin', 'users.is_active', 'permission_grants.permission_key', 'permission_grants.cluster_id')
          .where('users.id', userId)
          .orderBy('permission_grants.permission_key');
      const user = rows[0];
      if (!user || !user.is_active) return null;
      const platform: PermissionKey[] = [];
      const clusters: Record<string, PermissionKey[]> = {};
      for (const g of rows) {
        if (g.permission_key === null) continue;
        if (g.cluster_id === null) platform.push(g.permission_key);
        else (clusters[g.cluster_id] ??= []).push(g.permission_key);
      }
      return { platform, clusters, is_super_admin: !!user.is_super_admin };
    },

    async findUserByLogin(subject: string): Promise<UserCredentials | undefined> {
      return knex('users')
        .select('id', 'username', 'email', 'password_hash', 'is_active')
        .whereRaw('lower(username) = ?', [subject])
        .orWhereRaw('lower(email) = ?', [subject])
        .orderByRaw('(lower(username) = ?) desc', [subject])
        .first();
    },

    async findUserProfile(userId: string): Promise<{ id: string; username: string; email: string; firstname: string | null; middlename: string | null; lastname: string | null } | undefined> {
      return knex('users').select('id', 'username', 'email', 'firstname', 'middlename', 'lastname').where({ id: userId }).first();
    },

    async isUserActive(userId: string, db: Knex | Knex.Transaction = knex): Promise<boolean> {
      const row = await db('users').select('is_active').where({ id: userId }).first();
      return !!row?.is_active;
    },

    /** Seconds until the lock ends, or 0 when not locked. */
    async lockedForSeconds(subject: string): Promise<number> {
      const row = await knex('login_attempts')
        .select(knex.raw('extract(epoch from (locked_until - now()))::float8 as seconds'))
        .where({ subject })
        .andWhere('locked_until', '>', knex.fn.now())
        .first();
      return row ? Math.max(1, Math.ceil(Number(row.seconds))) : 0;
    },

    /** Counts a failure in the current 15-minute window; the 5th locks the subject for 15 minutes. */
    async recordFailure(subject: string, maxFailures: number): Promise<{ failedCount: number; lockedSeconds: number }> {
      const windowOpen = `login_attempts.first_failed_at > now() - ${LOCK_WINDOW}`;
      const nextCount = `case when ${windowOpen} then login_attempts.failed_count + 1 else 1 end`;
      const res = await knex.raw(
        `insert into login_attempts (subject, failed_count, first_failed_at, locked_until)
         values (?, 1, now(), case when 1 >= ? then now() + ${LOCK_WINDOW} else null end)
         on conflict (subject) do update set
           failed_count = ${nextCount},
           first_failed_at = case when ${windowOpen} then login_attempts.first_failed_at else now() end,
           locked_until = case when ${nextCount} >= ? then now() + ${LOCK_WINDOW} else null end
         returning failed_count, extract(epoch from (locked_until - now()))::float8 as locked_seconds`,
        [subject, maxFailures, maxFailures],
      );
      const row = (res.rows as Array<{ failed_count: number; locked_seconds: number | null }>)[0]!;
      return { failedCount: row.failed_count, lockedSeconds: row.locked_seconds ? Math.ceil(row.locked_seconds) : 0 };
    },

    async clearFailures(subject: string): Promise<void> {
      await knex('login_attempts').where({ subject }).delete();
    },

    async insertRefreshToken(trx: Knex | Knex.Transaction, row: { user_id: string; token_hash: string; family_id: string; ttlSeconds: number }): Promise<void> {
      await trx('refresh_tokens').insert({
        user_id: row.user_id,
        token_hash: row.token_hash,
        family_id: row.family_id,
        expires_at: trx.raw(`now() + make_interval(secs => ?)`, [row.ttlSeconds]),
      });
    },

    async findRefreshToken(trx: Knex | Knex.Transaction, tokenHash: string): Promise<StoredRefreshToken | undefined> {
      return trx('refresh_tokens')
        .select('id', 'user_id', 'family_id', 'expires_at', 'revoked_at', trx.raw('(expires_at <= now()) as expired'))
        .where({ token_hash: tokenHash })
        .forUpdate()
        .first();
    },

    /** Marks one token used; false when it was already revoked (a concurrent reuse). */
    async revokeToken(trx: Knex | Knex.Transaction, id: string): Promise<boolean> {
      const n = await trx('refresh_tokens').where({ id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
      return n === 1;
    },

    async revokeFamily(trx: Knex | Knex.Transaction, familyId: string): Promise<void> {
      await trx('refresh_tokens').where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    },
  };
}

