import type { Knex } from 'knex';
import type { TargetStanding } from '../../core/delegation.js';
import type { SecondFactorRequirement } from '../../core/second-factor.js';

type Db = Knex | Knex.Transaction;

export interface StoredTotp {
  secret_encrypted: string;
  created_at: Date;
  confirmed_at: Date | null;
  last_used_at: Date | null;
}

export interface StoredPasskey {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string[] | null;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface StoredPolicy {
  required_for: SecondFactorRequirement;
  sso_sign_ins: 'trusted' | 'second-factor';
}

/** What an account is, as the second factor's operations weigh it. */
export interface FactorOwner {
  id: string;
  username: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
  email: string;
  kind: 'person' | 'service';
  is_super_admin: boolean;
  must_enrol_second_factor: boolean;
  platform_keys: number;
}

export interface StoredChallenge {
  id: string;
  user_id: string | null;
  session_id: string | null;
  challenge: string;
  purpose: 'sign-in' | 'register' | 'step-up';
}

export function secondFactorRepository({ knex }: { knex: Knex }) {
  return {
    async owner(db: Db, userId: string): Promise<FactorOwner | undefined> {
      const row = (await db('users')
        .select(
          'id',
          'username',
          'firstname',
          'middlename',
          'lastname',
          'email',
          'kind',
          'is_super_admin',
          'must_enrol_second_factor',
          db.raw(
            '(select count(*)::int from permission_grants g where g.user_id = users.id and g.cluster_id is null) as platform_keys',
          ),
        )
        .where({ id: userId })
        .first()) as FactorOwner | undefined;
      return row && { ...row, platform_keys: Number(row.platform_keys) };
    },

    /** What the delegation rule weighs of an account (read inside the caller's transaction, after locking it). */
    async targetStanding(db: Db, userId: string): Promise<TargetStanding | undefined> {
      const row = (await db('users').select('is_super_admin').where({ id: userId }).forUpdate().first()) as
        { is_super_admin: boolean } | undefined;
      if (!row) return undefined;
      const keys = await db('permission_grants').select('permission_key', 'cluster_id').where({ user_id: userId });
      return { is_super_admin: row.is_super_admin, keys };
    },

    async totp(db: Db, userId: string): Promise<StoredTotp | undefined> {
      return db('user_totp')
        .select('secret_encrypted', 'created_at', 'confirmed_at', 'last_used_at')
        .where({ user_id: userId })
        .first<StoredTotp | undefined>();
    },

    /** Stores a new unconfirmed secret, replacing an unconfirmed one; false when a confirmed one exists. */
    async savePendingTotp(db: Db, userId: string, secretEncrypted: string): Promise<boolean> {
      const res = await db.raw<{ rows: unknown[] }>(
        `insert into user_totp (user_id, secret_encrypted) values (?, ?)
         on conflict (user_id) do update set secret_encrypted = excluded.secret_encrypted, created_at = now(),
           last_step = null, last_used_at = null
         where user_totp.confirmed_at is null
         returning user_id`,
        [userId, secretEncrypted],
      );
      return res.rows.length === 1;
    },

    /** Confirms the pending secret with its first code's step (used from then on); false when none is pending. */
    async confirmTotp(db: Db, userId: string, step: number): Promise<boolean> {
      const n = await db('user_totp')
        .where({ user_id: userId })
        .whereNull('confirmed_at')
        .update({ confirmed_at: db.fn.now(), last_step: step });
      return n === 1;
    },

    /**
     * Spends a time step of the confirmed secret, atomically: false when this step or a later one was used already
     * (a replayed code), so two requests with one code never both succeed.
     */
    async useTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
      const n = await db('user_totp')
        .where({ user_id: userId })
        .whereNotNull('confirmed_at')
        .andWhere((q) => {
          void q.whereNull('last_step').orWhere('last_step', '<', step);
        })
        .update({ last_step: step, last_used_at: db.fn.now() });
      return n === 1;
    },

    async deleteTotp(db: Db, userId: string): Promise<boolean> {
      return (await db('user_totp').where({ user_id: userId }).delete()) > 0;
    },

    async replaceRecoveryCodes(db: Db, userId: string, hashes: string[]): Promise<void> {
      await db('user_recovery_codes').where({ user_id: userId }).delete();
      await db('user_recovery_codes').insert(hashes.map((code_hash) => ({ user_id: userId, code_hash })));
    },

    /** Marks one unused code used, atomically; false for a wrong or used code. */
    async useRecoveryCode(db: Db, userId: string, hash: string): Promise<boolean> {
      const n = await db('user_recovery_codes')
        .where({ user_id: userId, code_hash: hash })
        .whereNull('used_at')
        .update({ used_at: db.fn.now() });
      return n === 1;
    },

    async recoveryCodes(db: Db, userId: string): Promise<{ remaining: number; generated_at: Date } | null> {
      const row = (await db('user_recovery_codes')
        .select(
          db.raw('count(*) filter (where used_at is null)::int as remaining'),
          db.raw('min(created_at) as generated_at'),
        )
        .where({ user_id: userId })
        .first()) as { remaining: number; generated_at: Date | null } | undefined;
      if (!row?.generated_at) return null;
      return { remaining: Number(row.remaining), generated_at: row.generated_at };
    },

    async deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
      await db('user_recovery_codes').where({ user_id: userId }).delete();
    },

    async passkeys(db: Db, userId: string): Promise<StoredPasskey[]> {
      return db('user_passkeys')
        .select(
          'id',
          'user_id',
          'credential_id',
          'public_key',
          'counter',
          'transports',
          'name',
          'created_at',
          'last_used_at',
        )
        .where({ user_id: userId })
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
    },

    async passkeyByCredential(db: Db, credentialId: string): Promise<StoredPasskey | undefined> {
      return db('user_passkeys')
        .select(
          'id',
          'user_id',
          'credential_id',
          'public_key',
          'counter',
          'transports',
          'name',
          'created_at',
          'last_used_at',
        )
        .where({ credential_id: credentialId })
        .first<StoredPasskey | undefined>();
    },

    /** Adds a passkey; false when that credential is registered already. */
    async insertPasskey(
      db: Db,
      row: {
        user_id: string;
        credential_id: string;
        public_key: string;
        counter: number;
        transports: string[] | null;
        device_type: string | null;
        backed_up: boolean;
        name: string;
      },
    ): Promise<string | null> {
      const res = await db.raw<{ rows: Array<{ id: string }> }>(
        `insert into user_passkeys (user_id, credential_id, public_key, counter, transports, device_type, backed_up, name)
         values (?, ?, ?, ?, ?::text[], ?, ?, ?) on conflict (credential_id) do nothing returning id`,
        [
          row.user_id,
          row.credential_id,
          row.public_key,
          row.counter,
          row.transports === null ? null : `{${row.transports.map((t) => `"${t}"`).join(',')}}`,
          row.device_type,
          row.backed_up,
          row.name,
        ],
      );
      return res.rows[0]?.id ?? null;
    },

    /** Records a use: the authenticator's new counter, and when. */
    async touchPasskey(db: Db, id: string, counter: number): Promise<void> {
      await db('user_passkeys').where({ id }).update({ counter, last_used_at: db.fn.now() });
    },

    async deletePasskey(db: Db, userId: string, id: string): Promise<boolean> {
      return (await db('user_passkeys').where({ user_id: userId, id }).delete()) > 0;
    },

    async deletePasskeys(db: Db, userId: string): Promise<void> {
      await db('user_passkeys').where({ user_id: userId }).delete();
    },

    async setMustEnrol(db: Db, userId: string, value: boolean): Promise<void> {
      await db('users')
        .where({ id: userId })
        .whereNot({ must_enrol_second_factor: value })
        .update({ must_enrol_second_factor: value });
    },

    /** Ends every live session of the account and voids its refresh tokens; how many ended. */
    async endSessions(db: Db, userId: string): Promise<number> {
      const ended = await db('sessions')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', db.fn.now())
        .update({ revoked_at: db.fn.now() });
      await db('refresh_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
      return ended;
    },

    async storedPolicy(db: Db = knex): Promise<StoredPolicy | undefined> {
      return db('second_factor_policy').select('required_for', 'sso_sign_ins').first<StoredPolicy | undefined>();
    },

    async savePolicy(db: Db, policy: StoredPolicy, actorId: string): Promise<void> {
      await db('second_factor_policy')
        .insert({ id: true, ...policy, updated_at: db.fn.now(), updated_by: actorId })
        .onConflict('id')
        .merge();
    },

    async insertChallenge(
      db: Db,
      row: {
        user_id: string | null;
        session_id: string | null;
        challenge: string;
        purpose: StoredChallenge['purpose'];
      },
      ttlSeconds: number,
    ): Promise<string> {
      const [inserted] = await db('webauthn_challenges')
        .insert({ ...row, expires_at: db.raw('now() + make_interval(secs => ?)', [ttlSeconds]) })
        .returning<Array<{ id: string }>>('id');
      return inserted!.id;
    },

    /** Takes a live challenge of that purpose, once: a second answer to it finds nothing. */
    async takeChallenge(db: Db, id: string, purpose: StoredChallenge['purpose']): Promise<StoredChallenge | undefined> {
      const rows = await db('webauthn_challenges')
        .where({ id, purpose })
        .whereNull('used_at')
        .andWhere('expires_at', '>', db.fn.now())
        .update({ used_at: db.fn.now() })
        .returning<StoredChallenge[]>(['id', 'user_id', 'session_id', 'challenge', 'purpose']);
      return rows[0];
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof secondFactorRepository>;
