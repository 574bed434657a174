import type { Knex } from 'knex';
import type { PermissionKey, Permissions } from '../../core/permissions.js';

type Db = Knex | Knex.Transaction;

export interface PendingSignIn {
  state: string;
  provider: string;
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  return_to: string | null;
}

export interface AccountRow {
  id: string;
  username: string;
  email: string;
  is_active: boolean;
  /** `service`: a service account, which never signs in. */
  kind?: 'person' | 'service';
}

export interface GroupMappingRow {
  id: string;
  provider: string;
  group_value: string;
  permission_key: PermissionKey;
  cluster_id: string | null;
  cluster_code: string | null;
  created_at: Date;
  /** The account that made the mapping: it gives new accounts only what this account may still grant. */
  created_by: string | null;
}

/** A mapping's grant as a new account would get it, and whose granting it is. */
export interface MappedGrant {
  permission_key: PermissionKey;
  cluster_id: string | null;
  created_by: string | null;
}

/** What an account may grant now: its keys, and whether it is a super admin and still active. */
export interface Authority {
  username: string;
  is_active: boolean;
  permissions: Permissions;
}

/** A finished sign-in waiting for the console to exchange its code. */
export interface Handoff {
  user_id: string;
  session_id: string;
  provider: string;
  subject: string;
}

export interface IdentityRow {
  provider: string;
  subject: string;
  email: string | null;
  created_at: Date;
  last_sign_in_at: Date;
}

/** An account's single sign-on settings, with what tells a person from a service account. */
export interface UserSsoRow {
  id: string;
  username: string;
  kind: 'person' | 'service';
  sso_only: boolean;
  identities: IdentityRow[];
}

/** A sign-in in flight is good for ten minutes; a finished one's code for one. */
const SIGN_IN_TTL_SECONDS = 10 * 60;
const HANDOFF_TTL_SECONDS = 60;

export function ssoRepository() {
  const mappings = (db: Db) =>
    db('sso_group_mappings as m')
      .leftJoin('clusters as c', 'c.id', 'm.cluster_id')
      .select(
        'm.id',
        'm.provider',
        'm.group_value',
        'm.permission_key',
        'm.cluster_id',
        'c.code as cluster_code',
        'm.created_at',
        'm.created_by',
      );

  return {
    async insertPendingSignIn(db: Db, row: PendingSignIn): Promise<void> {
      await db('sso_sign_ins').insert({
        ...row,
        expires_at: db.raw(`now() + make_interval(secs => ?)`, [SIGN_IN_TTL_SECONDS]),
      });
    },

    /** Spends the state: the sign-in it began, once, while it is fresh (a replayed or forged state finds nothing). */
    async takePendingSignIn(db: Db, provider: string, state: string): Promise<PendingSignIn | undefined> {
      const rows = await db('sso_sign_ins')
        .where({ state, provider })
        .andWhere('expires_at', '>', db.fn.now())
        .delete()
        .returning<PendingSignIn[]>('*');
      return rows[0];
    },

    async insertHandoff(
      db: Db,
      row: { code_hash: string; user_id: string; session_id: string; provider: string; subject: string },
    ): Promise<void> {
      await db('sso_handoffs').insert({
        ...row,
        expires_at: db.raw(`now() + make_interval(secs => ?)`, [HANDOFF_TTL_SECONDS]),
      });
    },

    async takeHandoff(db: Db, codeHash: string): Promise<Handoff | undefined> {
      const rows: Handoff[] = await db('sso_handoffs')
        .where({ code_hash: codeHash })
        .andWhere('expires_at', '>', db.fn.now())
        .delete()
        .returning(['user_id', 'session_id', 'provider', 'subject']);
      return rows[0];
    },

    async accountOfIdentity(db: Db, provider: string, subject: string): Promise<AccountRow | undefined> {
      return db('user_identities as i')
        .join('users as u', 'u.id', 'i.user_id')
        .select('u.id', 'u.username', 'u.email', 'u.is_active', 'u.kind')
        .where({ 'i.provider': provider, 'i.subject': subject })
        .first<AccountRow | undefined>();
    },

    async accountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
      return db('users')
        .select('id', 'username', 'email', 'is_active', 'kind')
        .whereRaw('lower(email) = ?', [email])
        .first<AccountRow | undefined>();
    },

    async linkIdentity(
      db: Db,
      row: { user_id: string; provider: string; subject: string; email: string | null },
    ): Promise<void> {
      await db('user_identities').insert(row);
    },

    async touchIdentity(db: Db, provider: string, subject: string, email: string | null): Promise<void> {
      await db('user_identities').where({ provider, subject }).update({ last_sign_in_at: db.fn.now(), email });
    },

    /** Whether a name is taken as another account's username or email: either signs that account in by password. */
    async usernameTaken(db: Db, username: string): Promise<boolean> {
      const name = username.toLowerCase();
      return !!(await db('users')
        .select('id')
        .whereRaw('lower(username) = ?', [name])
        .orWhereRaw('lower(email) = ?', [name])
        .first());
    },

    async insertAccount(
      db: Db,
      row: {
        username: string;
        email: string;
        firstname: string | null;
        lastname: string | null;
        password_hash: string;
      },
    ): Promise<AccountRow> {
      const [created] = await db('users')
        .insert({ ...row, is_active: true, sso_only: true, must_change_password: false })
        .returning<AccountRow[]>(['id', 'username', 'email', 'is_active']);
      return created!;
    },

    /** The grants the groups map to, one row per mapping (the same grant may come from several, by several authors). */
    async grantsForGroups(db: Db, provider: string, groups: string[]): Promise<MappedGrant[]> {
      if (groups.length === 0) return [];
      return db('sso_group_mappings')
        .select('permission_key', 'cluster_id', 'created_by')
        .where({ provider })
        .whereIn('group_value', groups);
    },

    /**
     * What each of the accounts may grant now, by id (an unknown id is absent). With `lock`, their rows are held
     * against changes until the transaction ends: a grant taken away at the same moment lands before or after, whole.
     */
    async authorities(db: Db, userIds: string[], lock = false): Promise<Map<string, Authority>> {
      const ids = [...new Set(userIds)].sort();
      const out = new Map<string, Authority>();
      if (ids.length === 0) return out;
      const accounts = db('users')
        .select('id', 'username', 'is_active', 'is_super_admin', 'must_change_password')
        .whereIn('id', ids)
        .orderBy('id');
      const rows = (await (lock ? accounts.forShare() : accounts)) as Array<{
        id: string;
        username: string;
        is_active: boolean;
        is_super_admin: boolean;
        must_change_password: boolean;
      }>;
      for (const r of rows) {
        out.set(r.id, {
          username: r.username,
          is_active: r.is_active,
          permissions: {
            platform: [],
            clusters: {},
            is_super_admin: r.is_super_admin,
            must_change_password: r.must_change_password,
            must_enrol_second_factor: false,
          },
        });
      }
      const grants = (await db('permission_grants')
        .select('user_id', 'permission_key', 'cluster_id')
        .whereIn('user_id', ids)) as Array<{
        user_id: string;
        permission_key: PermissionKey;
        cluster_id: string | null;
      }>;
      for (const g of grants) {
        const p = out.get(g.user_id)?.permissions;
        if (!p) continue;
        if (g.cluster_id === null) p.platform.push(g.permission_key);
        else (p.clusters[g.cluster_id] ??= []).push(g.permission_key);
      }
      return out;
    },

    async insertGrants(
      db: Db,
      userId: string,
      grants: Array<{ permission_key: PermissionKey; cluster_id: string | null }>,
    ): Promise<void> {
      if (grants.length > 0)
        await db('permission_grants').insert(
          grants.map((g) => ({ user_id: userId, permission_key: g.permission_key, cluster_id: g.cluster_id })),
        );
    },

    listMappings: (db: Db): Promise<GroupMappingRow[]> =>
      mappings(db).orderBy(['m.provider', 'm.group_value', 'm.permission_key', 'c.code']),
    findMapping: (db: Db, id: string): Promise<GroupMappingRow | undefined> => mappings(db).where('m.id', id).first(),

    async insertMapping(
      db: Db,
      row: {
        provider: string;
        group_value: string;
        permission_key: PermissionKey;
        cluster_id: string | null;
        created_by: string;
      },
    ): Promise<string> {
      const [created] = await db('sso_group_mappings').insert(row).returning<Array<{ id: string }>>('id');
      return created!.id;
    },

    async deleteMapping(db: Db, id: string): Promise<boolean> {
      // Counted from `returning`: knex-pglite answers a plain delete with the raw result, not the affected count.
      return ((await db('sso_group_mappings').where({ id }).delete().returning('id')) as unknown[]).length === 1;
    },

    async clusterExists(db: Db, id: string): Promise<boolean> {
      return !!(await db('clusters').select('id').where({ id }).whereNull('deleted_at').first());
    },

    async userSso(db: Db, userId: string): Promise<UserSsoRow | undefined> {
      const user = (await db('users').select('id', 'username', 'kind', 'sso_only').where({ id: userId }).first()) as
        Omit<UserSsoRow, 'identities'> | undefined;
      if (!user) return undefined;
      const identities = await db('user_identities')
        .select<IdentityRow[]>('provider', 'subject', 'email', 'created_at', 'last_sign_in_at')
        .where({ user_id: userId })
        .orderBy(['provider', 'subject']);
      return { ...user, identities };
    },

    async setSsoOnly(db: Db, userId: string, ssoOnly: boolean): Promise<void> {
      await db('users').where({ id: userId }).update({ sso_only: ssoOnly, updated_at: db.fn.now() });
    },

    /**
     * How a single sign-on session was authenticated: by the provider (`sso`), with the `amr` it reported, and a
     * second factor at sign-in when that `amr` names one.
     */
    async recordSsoAuthentication(
      db: Db,
      sessionId: string,
      amr: string[] | null,
      secondFactor: boolean,
    ): Promise<void> {
      await db('sessions')
        .where({ id: sessionId })
        .update({
          methods: db.raw("array['sso']::text[]"),
          // Sent as JSON and unpacked in SQL: one array binding, the same on every driver.
          sso_amr:
            amr === null ? null : db.raw('array(select jsonb_array_elements_text(?::jsonb))', [JSON.stringify(amr)]),
          ...(secondFactor ? { second_factor_at: db.fn.now() } : {}),
        });
    },

    /** Ends the sessions of the user that began with a password (when the account becomes SSO-only). */
    async endPasswordSessions(db: Db, userId: string): Promise<void> {
      const ended = await db('sessions')
        .where({ user_id: userId })
        .whereNull('sso_provider')
        .whereNull('revoked_at')
        .update({ revoked_at: db.fn.now() })
        .returning<Array<{ id: string }>>('id');
      if (ended.length > 0)
        await db('refresh_tokens')
          .whereIn(
            'family_id',
            ended.map((s) => s.id),
          )
          .whereNull('revoked_at')
          .update({ revoked_at: db.fn.now() });
    },
  };
}
