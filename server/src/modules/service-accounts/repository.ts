import type { Knex } from 'knex';
import type { HeldKey } from '../../core/delegation.js';
import type { PermissionKey } from '../../core/permissions.js';
import { toCount } from '../../db/count.js';

type Db = Knex | Knex.Transaction;

/** A token narrowed to some keys: each one, where. */
export type TokenScope = HeldKey;

export interface ServiceAccountRow {
  id: string;
  username: string;
  description: string | null;
  is_active: boolean;
  grant_count: number | string;
  active_token_count: number | string;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The account row as a write locks it, with what the delegation rule weighs. */
export interface LockedAccount {
  id: string;
  username: string;
  description: string | null;
  is_active: boolean;
  is_super_admin: boolean;
  updated_at: Date;
  keys: HeldKey[];
}

export interface TokenRow {
  id: string;
  name: string;
  lookup: string;
  scopes: TokenScope[] | null;
  expires_at: Date;
  created_at: Date;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  expired: boolean;
  creator_username: string | null;
  creator_firstname: string | null;
  creator_middlename: string | null;
  creator_lastname: string | null;
}

/** What a call with a token needs: the token's state, its account's, and the account's keys now (one round trip). */
export interface TokenCaller {
  token_id: string;
  user_id: string;
  scopes: TokenScope[] | null;
  live: boolean;
  is_active: boolean;
  keys: HeldKey[];
}

export interface AccountFilter {
  search?: string;
  isActive?: boolean;
  limit?: number;
  offset: number;
}

/** Where a service account's email points: nowhere (RFC 2606), so no mail or email match ever reaches it. */
export const serviceEmail = (name: string) => `${name}@service-account.invalid`;

const jsonScopes = (v: unknown): TokenScope[] | null =>
  v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as TokenScope[]);

export function serviceAccountRepository({ knex }: { knex: Knex }) {
  function accounts(db: Db): Knex.QueryBuilder {
    return db('users')
      .where('users.kind', 'service')
      .select(
        'users.id',
        'users.username',
        'users.description',
        'users.is_active',
        'users.created_at',
        'users.updated_at',
        db.raw('(select count(*) from permission_grants g where g.user_id = users.id) as grant_count'),
        db.raw(
          '(select count(*) from api_tokens t where t.user_id = users.id and t.revoked_at is null and t.expires_at > now()) as active_token_count',
        ),
        db.raw('(select max(t.last_used_at) from api_tokens t where t.user_id = users.id) as last_used_at'),
      );
  }

  function filtered(db: Db, f: AccountFilter): Knex.QueryBuilder {
    const qb = db('users').where('users.kind', 'service');
    if (f.isActive !== undefined) qb.where('users.is_active', f.isActive);
    if (f.search) {
      const pattern = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.where((w) => {
        w.whereRaw('lower(users.username) like ?', [pattern]).orWhereRaw(
          "lower(coalesce(users.description, '')) like ?",
          [pattern],
        );
      });
    }
    return qb;
  }

  return {
    async list(f: AccountFilter): Promise<{ rows: ServiceAccountRow[]; total: number }> {
      const rows = (await accounts(knex)
        .whereIn('users.id', filtered(knex, f).select('users.id'))
        .orderBy([
          { column: 'users.username', order: 'asc' },
          { column: 'users.id', order: 'asc' },
        ])
        .limit(f.limit ?? 1000)
        .offset(f.offset)) as ServiceAccountRow[];
      const counted: Array<{ n: unknown }> = await filtered(knex, f).count({ n: '*' });
      return { rows, total: toCount(counted[0]?.n ?? 0) };
    },

    async find(db: Db, id: string): Promise<ServiceAccountRow | undefined> {
      return accounts(db).where('users.id', id).first<ServiceAccountRow | undefined>();
    },

    /** The service account locked for the rest of the transaction, with its keys; undefined when there is none. */
    async lock(trx: Knex.Transaction, id: string): Promise<LockedAccount | undefined> {
      const row = (await trx('users')
        .select('id', 'username', 'description', 'is_active', 'is_super_admin', 'updated_at')
        .where({ id, kind: 'service' })
        .forUpdate()
        .first()) as Omit<LockedAccount, 'keys'> | undefined;
      if (!row) return undefined;
      const keys = (await trx('permission_grants')
        .select('permission_key', 'cluster_id')
        .where({ user_id: id })) as HeldKey[];
      return { ...row, keys };
    },

    async insert(
      trx: Knex.Transaction,
      row: { username: string; description: string | null; password_hash: string },
    ): Promise<string> {
      const [created] = await trx('users')
        .insert({
          ...row,
          email: serviceEmail(row.username),
          kind: 'service',
          must_change_password: false,
        })
        .returning<Array<{ id: string }>>('id');
      return created!.id;
    },

    async update(
      trx: Knex.Transaction,
      id: string,
      values: { username: string; description: string | null; is_active: boolean },
    ): Promise<void> {
      await trx('users')
        .where({ id, kind: 'service' })
        .update({ ...values, email: serviceEmail(values.username), updated_at: trx.fn.now() });
    },

    async insertToken(
      trx: Knex.Transaction,
      row: {
        user_id: string;
        name: string;
        lookup: string;
        token_hash: string;
        scopes: TokenScope[] | null;
        expires_at: Date;
        created_by_id: string;
      },
    ): Promise<string> {
      const [created] = await trx('api_tokens')
        .insert({ ...row, scopes: row.scopes === null ? null : JSON.stringify(row.scopes) })
        .returning<Array<{ id: string }>>('id');
      return created!.id;
    },

    async tokens(db: Db, userId: string, tokenId?: string): Promise<TokenRow[]> {
      const qb = db('api_tokens as t')
        .leftJoin('users as c', 'c.id', 't.created_by_id')
        .select(
          't.id',
          't.name',
          't.lookup',
          't.scopes',
          't.expires_at',
          't.created_at',
          't.last_used_at',
          't.last_used_ip',
          't.revoked_at',
          db.raw('(t.expires_at <= now()) as expired'),
          'c.username as creator_username',
          'c.firstname as creator_firstname',
          'c.middlename as creator_middlename',
          'c.lastname as creator_lastname',
        )
        .where('t.user_id', userId)
        .orderBy([
          { column: 't.created_at', order: 'desc' },
          { column: 't.id', order: 'asc' },
        ]);
      if (tokenId) qb.where('t.id', tokenId);
      const rows = (await qb) as TokenRow[];
      return rows.map((r) => ({ ...r, scopes: jsonScopes(r.scopes) }));
    },

    /** Revokes the token; false when it was revoked already. */
    async revokeToken(trx: Knex.Transaction, tokenId: string, byId: string): Promise<boolean> {
      const n = await trx('api_tokens')
        .where({ id: tokenId })
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now(), revoked_by_id: byId });
      return n === 1;
    },

    /** The token of this hash, its account and the account's keys as they are now; undefined for no such token. */
    async caller(tokenHash: string): Promise<TokenCaller | undefined> {
      const rows = (await knex('api_tokens as t')
        .join('users as u', 'u.id', 't.user_id')
        .leftJoin('permission_grants as g', 'g.user_id', 'u.id')
        .select(
          't.id as token_id',
          't.user_id',
          't.scopes',
          knex.raw('(t.revoked_at is null and t.expires_at > now()) as live'),
          'u.is_active',
          'g.permission_key',
          'g.cluster_id',
        )
        .where({ 't.token_hash': tokenHash, 'u.kind': 'service' })) as Array<
        Omit<TokenCaller, 'keys'> & { permission_key: PermissionKey | null; cluster_id: string | null }
      >;
      const first = rows[0];
      if (!first) return undefined;
      return {
        token_id: first.token_id,
        user_id: first.user_id,
        scopes: jsonScopes(first.scopes),
        live: !!first.live,
        is_active: !!first.is_active,
        keys: rows
          .filter((r) => r.permission_key !== null)
          .map((r) => ({ permission_key: r.permission_key!, cluster_id: r.cluster_id })),
      };
    },

    /** Records a use, unless one was recorded in the last minute (so a busy token writes once a minute at most). */
    async touchToken(tokenId: string, ip: string | null): Promise<void> {
      await knex('api_tokens')
        .where({ id: tokenId })
        .andWhere((w) => {
          w.whereNull('last_used_at').orWhere('last_used_at', '<', knex.raw("now() - interval '1 minute'"));
        })
        .update({ last_used_at: knex.fn.now(), last_used_ip: ip });
    },
  };
}
