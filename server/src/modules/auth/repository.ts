import type { Knex } from 'knex';
import type { Permissions, PermissionKey } from '../../core/permissions.js';
import { mustEnrol, type SecondFactorMethod, type SecondFactorRequirement } from '../../core/second-factor.js';

export interface UserCredentials {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  is_active: boolean;
  /** The password does not sign this account in: its identity provider does. */
  sso_only: boolean;
  /** `service`: a service account, which never signs in (it calls with API tokens). */
  kind: 'person' | 'service';
}

/** How a session began, when it began with single sign-on. */
export interface SessionSso {
  sso_provider: string | null;
  sso_authenticated_at: Date | null;
  sso_id_token: string | null;
  /** Set at sign-in when the provider said it asked for a second factor (its `amr`). */
  second_factor_at: Date | null;
}

/** Why a valid token's caller is refused: the account was deactivated, or the token's session ended. */
export type CallerStanding =
  | {
      status: 'ok';
      permissions: Permissions;
      /** The second factors the account can use, and when the session last used one. */
      secondFactors: { methods: SecondFactorMethod[]; usedAt: number | null };
    }
  | { status: 'deactivated' | 'session-ended' | 'unknown' };

export interface StoredSession {
  id: string;
  created_at: Date;
  last_used_at: Date;
  ip: string | null;
  user_agent: string | null;
  methods: string[];
  sso_provider: string | null;
  second_factor_at: Date | null;
}

/** Where a single sign-on's second step goes on: the session its callback opened, and who the provider said. */
export interface SsoSecondStep {
  sso_session_id: string;
  sso_provider: string;
  sso_subject: string;
}

/** A live second step: of a password sign-in (no SSO part), or of a single sign-on. */
export type PendingSignIn = { id: string; user_id: string } & ({ [K in keyof SsoSecondStep]: null } | SsoSecondStep);

export interface StoredRefreshToken {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  /** Computed by the database clock, like every other expiry check. */
  expired: boolean;
}

/** Failures older than this are forgotten: the next one counts from one again (and the purge removes the row). */
export const FAILURE_MEMORY_SECONDS = 24 * 60 * 60;

export interface FailurePolicy {
  /** The failure that starts the delay. */
  threshold: number;
  /** The first delay; each further failure doubles it. */
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/** One grant of the caller (or none: a row of nulls), with the account's standing and, when asked, the session's. */
interface StandingRow {
  is_super_admin: boolean;
  is_active: boolean;
  must_change_password: boolean;
  kind: 'person' | 'service';
  must_enrol_second_factor: boolean;
  has_totp: boolean;
  has_passkey: boolean;
  has_recovery_code: boolean;
  policy_required_for: SecondFactorRequirement | null;
  permission_key: PermissionKey | null;
  cluster_id: string | null;
  session_live?: boolean;
  second_factor_at?: Date | null;
}

/** A user's name and email, as the console's header shows them. */
interface UserProfile {
  id: string;
  username: string;
  email: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
}

export function authRepository({
  knex,
  secondFactorRequired = 'none',
}: {
  knex: Knex;
  /** SECOND_FACTOR_REQUIRED: who must have a second factor while no super admin chose otherwise. */
  secondFactorRequired?: SecondFactorRequirement;
}) {
  /**
   * The caller's grants and standing in one round trip (one row per grant, or one row of nulls). With a session id
   * the session is joined too, so a revoked or expired session is refused by the same query.
   */
  async function standingOf(userId: string, sessionId: string | null): Promise<CallerStanding> {
    const query = knex('users')
      .leftJoin('permission_grants', 'permission_grants.user_id', 'users.id')
      .select<StandingRow[]>(
        'users.is_super_admin',
        'users.is_active',
        'users.must_change_password',
        'users.kind',
        'users.must_enrol_second_factor',
        // The account's factors and the stored policy ride along, so the standing stays one round trip.
        knex.raw(
          'exists (select 1 from user_totp f where f.user_id = users.id and f.confirmed_at is not null) as has_totp',
        ),
        knex.raw('exists (select 1 from user_passkeys f where f.user_id = users.id) as has_passkey'),
        knex.raw(
          'exists (select 1 from user_recovery_codes f where f.user_id = users.id and f.used_at is null) as has_recovery_code',
        ),
        knex.raw('(select p.required_for from second_factor_policy p limit 1) as policy_required_for'),
        'permission_grants.permission_key',
        'permission_grants.cluster_id',
      )
      .where('users.id', userId)
      .orderBy('permission_grants.permission_key');
    if (sessionId) {
      query
        .leftJoin('sessions', (j) =>
          j.on('sessions.id', '=', knex.raw('?::uuid', [sessionId])).andOn('sessions.user_id', '=', 'users.id'),
        )
        .select(
          knex.raw(
            '(sessions.id is not null and sessions.revoked_at is null and sessions.expires_at > now()) as session_live',
          ),
          'sessions.second_factor_at',
        );
    }
    const rows = await query;
    const user = rows[0];
    // A service account's standing comes with its API token only: no access token ever names one.
    if (!user || user.kind === 'service') return { status: 'unknown' };
    if (!user.is_active) return { status: 'deactivated' };
    if (sessionId && !user.session_live) return { status: 'session-ended' };
    const platform: PermissionKey[] = [];
    const clusters: Record<string, PermissionKey[]> = {};
    for (const g of rows) {
      if (g.permission_key === null) continue;
      if (g.cluster_id === null) platform.push(g.permission_key);
      else (clusters[g.cluster_id] ??= []).push(g.permission_key);
    }
    const hasFactor = !!user.has_totp || !!user.has_passkey;
    const methods: SecondFactorMethod[] = [];
    if (user.has_totp) methods.push('totp');
    // Recovery codes stand in for a factor the account has (after a reset, none is left to stand in for).
    if (hasFactor && user.has_recovery_code) methods.push('recovery_code');
    if (user.has_passkey) methods.push('passkey');
    return {
      status: 'ok',
      permissions: {
        platform,
        clusters,
        is_super_admin: !!user.is_super_admin,
        must_change_password: !!user.must_change_password,
        must_enrol_second_factor: mustEnrol({
          requiredFor: user.policy_required_for ?? secondFactorRequired,
          isSuperAdmin: !!user.is_super_admin,
          platformKeys: platform.length,
          resetByAdmin: !!user.must_enrol_second_factor,
          hasFactor,
        }),
      },
      secondFactors: {
        methods,
        usedAt: user.second_factor_at ? new Date(user.second_factor_at).getTime() : null,
      },
    };
  }

  return {
    standingOf,

    /** The caller's grants; null for an unknown or inactive user. */
    async permissionsOf(userId: string): Promise<Permissions | null> {
      const standing = await standingOf(userId, null);
      return standing.status === 'ok' ? standing.permissions : null;
    },

    async findUserByLogin(subject: string): Promise<UserCredentials | undefined> {
      return knex('users')
        .select('id', 'username', 'email', 'password_hash', 'is_active', 'sso_only', 'kind')
        .whereRaw('lower(username) = ?', [subject])
        .orWhereRaw('lower(email) = ?', [subject])
        .orderByRaw('(lower(username) = ?) desc', [subject])
        .first<UserCredentials | undefined>();
    },

    async findCredentials(userId: string, db: Knex | Knex.Transaction = knex): Promise<UserCredentials | undefined> {
      return db('users')
        .select('id', 'username', 'email', 'password_hash', 'is_active', 'sso_only', 'kind')
        .where({ id: userId })
        .first<UserCredentials | undefined>();
    },

    async findUserProfile(userId: string): Promise<UserProfile | undefined> {
      return knex('users')
        .select('id', 'username', 'email', 'firstname', 'middlename', 'lastname')
        .where({ id: userId })
        .first<UserProfile | undefined>();
    },

    async isUserActive(userId: string, db: Knex | Knex.Transaction = knex): Promise<boolean> {
      const row = await db('users')
        .select('is_active')
        .where({ id: userId })
        .first<{ is_active: boolean } | undefined>();
      return !!row?.is_active;
    },

    /**
     * Where this client stands: the seconds it must still wait (0: none) and its remembered failures, over every
     * account it tried. One answer for all accounts, so a client learns nothing from it about which logins belong to
     * one account (its username and its email) or which exist.
     */
    async clientStanding(client: string): Promise<{ delayedSeconds: number; failures: number }> {
      const row = (await knex('login_attempts')
        .select(
          knex.raw('extract(epoch from (max(delayed_until) - now()))::float8 as seconds'),
          knex.raw('coalesce(sum(failed_count), 0)::int as failures'),
        )
        .where({ client })
        .andWhere('last_failed_at', '>', knex.raw('now() - make_interval(secs => ?)', [FAILURE_MEMORY_SECONDS]))
        .first()) as { seconds: number | null; failures: number } | undefined;
      const seconds = Number(row?.seconds ?? 0);
      return {
        delayedSeconds: seconds > 0 ? Math.max(1, Math.ceil(seconds)) : 0,
        failures: Number(row?.failures ?? 0),
      };
    },

    /**
     * Counts one failure of this client on this account, atomically (concurrent failures on several replicas all
     * count). From the threshold on, counted over every account the client failed on, each failure delays the client:
     * the first delay, doubled per further failure. Counting the client's failures together means trying a username
     * and then an email gets the same answers whether or not they name one account.
     */
    async recordFailure(
      accountKey: string,
      client: string,
      policy: FailurePolicy,
    ): Promise<{ failedCount: number; delayedSeconds: number }> {
      const forgotten = `login_attempts.last_failed_at <= now() - make_interval(secs => ${FAILURE_MEMORY_SECONDS})`;
      const nextCount = `case when ${forgotten} then 1 else login_attempts.failed_count + 1 end`;
      const others = `(select coalesce(sum(o.failed_count), 0) from login_attempts o
        where o.client = :client and o.account_key <> :accountKey and o.last_failed_at > now() - make_interval(secs => ${FAILURE_MEMORY_SECONDS}))`;
      const delayOf = (count: string) =>
        `case when ${count} >= :threshold then now() + make_interval(secs => least(:max::float8, :first::float8 * power(2, ${count} - :threshold))) end`;
      const res = await knex.raw<{ rows: Array<{ failed_count: number; delayed_seconds: number | null }> }>(
        `insert into login_attempts (account_key, client, failed_count, last_failed_at, delayed_until)
         values (:accountKey, :client, 1, now(), ${delayOf(`(${others} + 1)`)})
         on conflict (account_key, client) do update set
           failed_count = ${nextCount},
           last_failed_at = now(),
           delayed_until = ${delayOf(`(${others} + ${nextCount})`)}
         returning failed_count, extract(epoch from (delayed_until - now()))::float8 as delayed_seconds`,
        {
          accountKey,
          client,
          threshold: policy.threshold,
          first: policy.firstDelaySeconds,
          max: policy.maxDelaySeconds,
        },
      );
      const row = res.rows[0]!;
      return {
        failedCount: row.failed_count,
        delayedSeconds: row.delayed_seconds ? Math.ceil(row.delayed_seconds) : 0,
      };
    },

    /** A success forgets this client's failures on the account; other clients' counts stay. */
    async clearFailures(accountKey: string, client: string): Promise<void> {
      await knex('login_attempts').where({ account_key: accountKey, client }).delete();
    },

    async insertSession(
      trx: Knex | Knex.Transaction,
      row: {
        id: string;
        user_id: string;
        ip: string | null;
        user_agent: string | null;
        ttlSeconds: number;
        sso?: { provider: string; idToken: string | null };
        /** How it signed in; a second factor among them marks the sign-in as its last use. */
        methods?: string[];
      },
    ): Promise<void> {
      const methods = row.methods ?? (row.sso ? ['sso'] : ['password']);
      const secondFactor = methods.some((m) => m === 'totp' || m === 'recovery_code' || m === 'passkey');
      await trx('sessions').insert({
        id: row.id,
        user_id: row.user_id,
        ip: row.ip,
        user_agent: row.user_agent,
        expires_at: trx.raw(`now() + make_interval(secs => ?)`, [row.ttlSeconds]),
        methods: trx.raw('?::text[]', [`{${methods.join(',')}}`]),
        second_factor_at: secondFactor ? trx.fn.now() : null,
        ...(row.sso
          ? { sso_provider: row.sso.provider, sso_authenticated_at: trx.fn.now(), sso_id_token: row.sso.idToken }
          : {}),
      });
    },

    /** How the session began: with single sign-on at a provider, or not (null provider). */
    async ssoOfSession(trx: Knex | Knex.Transaction, id: string): Promise<SessionSso | undefined> {
      return trx('sessions')
        .select('sso_provider', 'sso_authenticated_at', 'sso_id_token', 'second_factor_at')
        .where({ id })
        .first<SessionSso | undefined>();
    },

    /** Whether the session is live (not revoked, not expired) and the user's. */
    async isSessionLive(trx: Knex | Knex.Transaction, userId: string, id: string): Promise<boolean> {
      return !!(await trx('sessions')
        .select('id')
        .where({ id, user_id: userId })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', trx.fn.now())
        .first());
    },

    /**
     * Marks the session used and extends it, never beyond its maximum age from the sign-in; false when it was revoked,
     * has expired or has reached that age.
     */
    async touchSession(
      trx: Knex | Knex.Transaction,
      id: string,
      ttlSeconds: number,
      maxAgeSeconds: number,
    ): Promise<boolean> {
      const n = await trx('sessions')
        .where({ id })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', trx.fn.now())
        .andWhere('created_at', '>', trx.raw('now() - make_interval(secs => ?)', [maxAgeSeconds]))
        .update({
          last_used_at: trx.fn.now(),
          expires_at: trx.raw('least(now() + make_interval(secs => ?), created_at + make_interval(secs => ?))', [
            ttlSeconds,
            maxAgeSeconds,
          ]),
        });
      return n === 1;
    },

    async markSignedIn(trx: Knex | Knex.Transaction, userId: string): Promise<void> {
      await trx('users').where({ id: userId }).update({ last_sign_in_at: trx.fn.now() });
    },

    /** Ends one session and its refresh tokens; false when it was not the user's or had ended already. */
    async revokeSession(trx: Knex | Knex.Transaction, userId: string, sessionId: string): Promise<boolean> {
      const n = await trx('sessions')
        .where({ id: sessionId, user_id: userId })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', trx.fn.now())
        .update({ revoked_at: trx.fn.now() });
      await trx('refresh_tokens')
        .where({ family_id: sessionId, user_id: userId })
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now() });
      return n === 1;
    },

    /** Ends every live session of the user except `keep` (null: all of them); how many ended. */
    async revokeSessionsExcept(trx: Knex | Knex.Transaction, userId: string, keep: string | null): Promise<number> {
      const query = trx('sessions')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', trx.fn.now());
      if (keep) query.whereNot({ id: keep });
      const ended = (await query.update({ revoked_at: trx.fn.now() }).returning<Array<{ id: string }>>('id')).map(
        (r) => r.id,
      );
      if (ended.length > 0)
        await trx('refresh_tokens')
          .whereIn('family_id', ended)
          .whereNull('revoked_at')
          .update({ revoked_at: trx.fn.now() });
      return ended.length;
    },

    /** The user's live sessions (not revoked, not expired), most recently used first. */
    async listSessions(userId: string): Promise<StoredSession[]> {
      return knex('sessions')
        .select('id', 'created_at', 'last_used_at', 'ip', 'user_agent', 'methods', 'sso_provider', 'second_factor_at')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', knex.fn.now())
        .orderBy([
          { column: 'last_used_at', order: 'desc' },
          { column: 'id', order: 'asc' },
        ]);
    },

    /** The pending second step of a sign-in: its token's hash, bound to the account, for five minutes. */
    async insertSignInChallenge(
      db: Knex | Knex.Transaction,
      row: {
        user_id: string;
        token_hash: string;
        ip: string | null;
        user_agent: string | null;
        device_id: string | null;
      } & Partial<SsoSecondStep>,
      ttlSeconds: number,
    ): Promise<void> {
      await db('sign_in_challenges').insert({
        ...row,
        expires_at: db.raw('now() + make_interval(secs => ?)', [ttlSeconds]),
      });
    },

    /** The live second step a token names: of a password sign-in, or of a single sign-on (its session named). */
    async liveSignInChallenge(db: Knex | Knex.Transaction, tokenHash: string): Promise<PendingSignIn | undefined> {
      return db('sign_in_challenges')
        .select('id', 'user_id', 'sso_session_id', 'sso_provider', 'sso_subject')
        .where({ token_hash: tokenHash })
        .whereNull('used_at')
        .andWhere('expires_at', '>', db.fn.now())
        .first<PendingSignIn | undefined>();
    },

    /** Spends the second step's token, once: false when another request spent it first. */
    async spendSignInChallenge(db: Knex | Knex.Transaction, id: string): Promise<boolean> {
      const n = await db('sign_in_challenges')
        .where({ id })
        .whereNull('used_at')
        .andWhere('expires_at', '>', db.fn.now())
        .update({ used_at: db.fn.now() });
      return n === 1;
    },

    /** A single sign-on's session has taken this product's second factor too: its methods say which. */
    async completeSsoSecondStep(
      db: Knex | Knex.Transaction,
      sessionId: string,
      method: SecondFactorMethod,
    ): Promise<void> {
      await db('sessions')
        .where({ id: sessionId })
        .update({ methods: db.raw("array['sso', ?]::text[]", [method]), second_factor_at: db.fn.now() });
    },

    /** The session has used a second factor now (a step-up); when, by the database clock. */
    async markSecondFactor(db: Knex | Knex.Transaction, userId: string, sessionId: string): Promise<Date | null> {
      const rows = await db('sessions')
        .where({ id: sessionId, user_id: userId })
        .whereNull('revoked_at')
        .update({ second_factor_at: db.fn.now() })
        .returning<Array<{ second_factor_at: Date }>>('second_factor_at');
      return rows[0]?.second_factor_at ?? null;
    },

    async setPassword(trx: Knex | Knex.Transaction, userId: string, passwordHash: string): Promise<void> {
      await trx('users').where({ id: userId }).update({
        password_hash: passwordHash,
        must_change_password: false,
        password_changed_at: trx.fn.now(),
        updated_at: trx.fn.now(),
      });
    },

    async insertRefreshToken(
      trx: Knex | Knex.Transaction,
      row: { user_id: string; token_hash: string; family_id: string; ttlSeconds: number },
    ): Promise<void> {
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
        .first<StoredRefreshToken | undefined>();
    },

    /** Marks one token used; false when it was already revoked (a concurrent reuse). */
    async revokeToken(trx: Knex | Knex.Transaction, id: string): Promise<boolean> {
      const n = await trx('refresh_tokens').where({ id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
      return n === 1;
    },
  };
}
