import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import type { ListQuery, PageRows, SortTerm } from '../../core/list-query.js';
import type { TargetStanding } from '../../core/delegation.js';
import type { PermissionKey } from '../../core/permissions.js';
import type { AccountKind } from './people.js';
import {
  LIST_PAGE,
  applyListQuery,
  displayNameSql,
  likeContains,
  listPageStatement,
  nextUpdatedAt,
  pageOf,
  runListPage,
} from '../../db/sql.js';
import { compiledStatement } from '../../db/compiled-statement.js';

type Db = Knex | Knex.Transaction;

export interface UserRow {
  id: string;
  username: string;
  email: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
  is_active: boolean;
}

/** The search's values as they are bound: the LIKE pattern already made from the text. */
type SearchValues = {
  pattern: string | undefined;
  excludeClusterId: string | undefined;
  limit: number;
  offset: number;
};

export interface UserSearch {
  search: string | undefined;
  excludeClusterId: string | undefined;
  limit: number;
  offset: number;
}

/** An account as its administrators see it, with the counts computed in SQL. */
export interface AccountRow extends UserRow {
  kind: AccountKind;
  display_name: string;
  is_super_admin: boolean;
  must_change_password: boolean;
  sign_in_delayed: boolean;
  grant_count: unknown;
  last_sign_in_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The account row alone, as locked for a write. */
export interface AccountRecord extends UserRow {
  kind: AccountKind;
  is_super_admin: boolean;
  must_change_password: boolean;
  updated_at: Date | string;
}

/** The identity columns a create or update writes: one per field of the contract's input. */
export type IdentityWrite = {
  [K in keyof Required<Schemas['UserUpdate']>]: Exclude<Schemas['UserUpdate'][K], undefined>;
};

export interface AccountListFilter {
  list: ListQuery;
  isActive: boolean | undefined;
  hasGrants: boolean | undefined;
  clusterId: string | undefined;
}

export interface GrantRow {
  id: string;
  user_id: string;
  permission_key: PermissionKey;
  cluster_id: string | null;
  cluster_code: string | null;
  cluster_name: string | null;
  granted_at: Date | string;
  granted_by_name: string | null;
}

/** Wire sort field → column (the contract's UserSort whitelist). */
export const USER_SORTABLE: Record<string, string> = {
  username: 'lower(users.username)',
  email: 'lower(users.email)',
  is_active: 'users.is_active',
  last_sign_in_at: 'users.last_sign_in_at',
  created_at: 'users.created_at',
  updated_at: 'users.updated_at',
};

/** The sort fields whose column is never null (the keyset's bounds use their indexes as ranges). */
export const USER_NOT_NULL = ['username', 'email', 'is_active', 'created_at', 'updated_at'];

/** The search's order: lower(username) is the unique index's expression, so ordered reads walk the index. */
const SEARCH_ORDER: SortTerm[] = [{ field: 'username', column: 'lower(users.username)', direction: 'asc' }];

/** A person as the add-user search shows them; the account list adds its own columns to these. */
const SEARCH_COLUMNS = [
  'users.id',
  'users.username',
  'users.email',
  'users.firstname',
  'users.middlename',
  'users.lastname',
  'users.is_active',
];

const RECORD_COLUMNS = [
  'id',
  'username',
  'email',
  'firstname',
  'middlename',
  'lastname',
  'is_active',
  'kind',
  'is_super_admin',
  'must_change_password',
  'updated_at',
].map((c) => `users.${c}`);

export function userRepository({ knex }: { knex: Knex }) {
  function searchFiltered(db: Db, s: SearchValues): Knex.QueryBuilder {
    // People only: service accounts have their own list, and are never members.
    const qb = db('users').where('users.kind', 'person');
    if (s.pattern !== undefined) wherePattern(qb, s.pattern);
    if (s.excludeClusterId !== undefined) {
      qb.whereNotExists(
        db('cluster_users')
          .select(knex.raw('1'))
          .whereRaw('cluster_users.user_id = users.id')
          .where('cluster_users.cluster_id', s.excludeClusterId),
      );
    }
    return qb;
  }

  /** The add-user search's one statement: its text depends only on which of search and exclusion are present. */
  const searchStatement = compiledStatement<SearchValues>((db, s) =>
    listPageStatement(
      db,
      searchFiltered(db, s),
      { sort: SEARCH_ORDER, limit: s.limit, offset: s.offset },
      'users.id',
      (qb) => pageUsers(qb).select(...SEARCH_COLUMNS),
      { selective: s.pattern !== undefined },
    ),
  );

  function whereSearch(qb: Knex.QueryBuilder, text: string): void {
    wherePattern(qb, likeContains(text.toLowerCase()));
  }

  function wherePattern(qb: Knex.QueryBuilder, pattern: string): void {
    // lower(col) LIKE uses the trigram indexes of migration 0001.
    qb.where((w) => {
      w.whereRaw('lower(users.username) like ?', [pattern])
        .orWhereRaw('lower(users.email) like ?', [pattern])
        .orWhereRaw('lower(users.firstname) like ?', [pattern])
        .orWhereRaw('lower(users.lastname) like ?', [pattern]);
    });
  }

  const hasAnyGrant = (db: Db) =>
    db('permission_grants').select(knex.raw('1')).whereRaw('permission_grants.user_id = users.id');

  function accountsFiltered(db: Db, f: AccountListFilter): Knex.QueryBuilder {
    // People only: service accounts have their own list (/api-system/service-accounts).
    const qb = db('users').where('users.kind', 'person');
    if (f.list.search) whereSearch(qb, f.list.search);
    if (f.isActive !== undefined) qb.where('users.is_active', f.isActive);
    if (f.hasGrants === true)
      qb.where((w) => {
        w.where('users.is_super_admin', true).orWhereExists(hasAnyGrant(db));
      });
    if (f.hasGrants === false) qb.where('users.is_super_admin', false).whereNotExists(hasAnyGrant(db));
    if (f.clusterId) {
      const clusterId = f.clusterId;
      qb.where((w) => {
        w.whereExists(
          db('cluster_users')
            .select(knex.raw('1'))
            .whereRaw('cluster_users.user_id = users.id')
            .where('cluster_users.cluster_id', clusterId),
        ).orWhereExists(hasAnyGrant(db).where('permission_grants.cluster_id', clusterId));
      });
    }
    return qb;
  }

  /** The account columns of the contract, with grant_count and sign_in_delayed computed by the database. */
  function selectAccounts(qb: Knex.QueryBuilder): Knex.QueryBuilder {
    return qb.select(
      ...SEARCH_COLUMNS,
      'users.kind',
      'users.is_super_admin',
      'users.must_change_password',
      'users.last_sign_in_at',
      'users.created_at',
      'users.updated_at',
      knex.raw(`${displayNameSql('users')} as display_name`),
      knex.raw('(select count(*) from permission_grants g where g.user_id = users.id) as grant_count'),
      // Failed sign-ins of a known account are keyed by its id (as text).
      knex.raw(
        'exists (select 1 from login_attempts a where a.account_key = users.id::text and a.delayed_until > now()) as sign_in_delayed',
      ),
    );
  }

  /** The list statements' rows are the `users` rows of the page's ids. */
  const pageUsers = (qb: Knex.QueryBuilder) => qb.leftJoin('users', 'users.id', `${LIST_PAGE}.id`);

  return {
    /** The add-user dialog's search over the user pool: the page and the total in one statement. */
    async search(s: UserSearch): Promise<{ rows: UserRow[]; total: number }> {
      const rows = await searchStatement.rows<UserRow>(knex, {
        pattern: s.search ? likeContains(s.search.toLowerCase()) : undefined,
        excludeClusterId: s.excludeClusterId || undefined,
        limit: s.limit,
        offset: s.offset,
      });
      return pageOf(rows);
    },

    listPage(db: Db, f: AccountListFilter): Promise<PageRows<AccountRow>> {
      return runListPage<AccountRow>(
        db,
        accountsFiltered(db, f),
        f.list,
        'users.id',
        (qb) => selectAccounts(pageUsers(qb)),
        {
          selective: Boolean(f.list.search),
        },
      );
    },

    /** The list's accounts in the list's order, every one (or the page, when `f.list` has a limit): an export's query. */
    exportRows(db: Db, f: AccountListFilter): Knex.QueryBuilder {
      return applyListQuery(selectAccounts(accountsFiltered(db, f)), f.list, 'users.id');
    },

    async findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
      return selectAccounts(db('users')).where('users.id', id).first<AccountRow | undefined>();
    },

    /** Locks the account row until the transaction ends. */
    async lockById(trx: Knex.Transaction, id: string): Promise<AccountRecord | undefined> {
      return trx('users').select(RECORD_COLUMNS).where('users.id', id).forUpdate().first<AccountRecord | undefined>();
    },

    /** Holds the row against changes (not against other readers) until the transaction ends. */
    async shareLockById(trx: Knex.Transaction, id: string): Promise<AccountRecord | undefined> {
      return trx('users').select(RECORD_COLUMNS).where('users.id', id).forShare().first<AccountRecord | undefined>();
    },

    /**
     * Locks every active super admin and the account `id`, in id order (the order every other account write locks
     * in, so no two transactions wait on each other in a circle), and returns those rows as they are once locked: a
     * count of super admins taken from them cannot change until the transaction ends.
     */
    async lockSuperAdminsAnd(trx: Knex.Transaction, id: string): Promise<AccountRecord[]> {
      return trx('users')
        .select(RECORD_COLUMNS)
        .where((w) => {
          w.where({ 'users.is_super_admin': true, 'users.is_active': true }).orWhere('users.id', id);
        })
        .orderBy('users.id')
        .forUpdate();
    },

    async insert(db: Db, values: IdentityWrite & { password_hash: string }): Promise<string> {
      const [row] = await db('users')
        .insert({ ...values, is_active: true, is_super_admin: false, must_change_password: true })
        .returning<Array<{ id: string }>>('id');
      return (row as { id: string }).id;
    },

    async update(
      db: Db,
      id: string,
      values: Partial<IdentityWrite> & {
        is_active?: boolean;
        is_super_admin?: boolean;
        must_change_password?: boolean;
        password_hash?: string;
        password_changed_at?: Knex.Raw;
      },
    ): Promise<void> {
      await db('users')
        .where({ id })
        .update({ ...values, updated_at: nextUpdatedAt(knex, 'users') });
    },

    /** Ends every session of the user and voids their refresh tokens; the number of sessions ended. */
    async endSessions(db: Db, userId: string): Promise<number> {
      const ended = await db('sessions')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .update({ revoked_at: knex.fn.now() });
      await db('refresh_tokens')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .update({ revoked_at: knex.fn.now() });
      return ended;
    },

    /** Forgets the failed sign-ins of the account on every client; how many clients were held back. */
    async clearSignInFailures(db: Db, userId: string): Promise<number> {
      return db('login_attempts').where({ account_key: userId }).delete();
    },

    async grantsOf(db: Db, userId: string): Promise<GrantRow[]> {
      return db('permission_grants as g')
        .leftJoin('clusters as c', 'c.id', 'g.cluster_id')
        .leftJoin('users as by', 'by.id', 'g.created_by')
        .select(
          'g.id',
          'g.user_id',
          'g.permission_key',
          'g.cluster_id',
          'c.code as cluster_code',
          'c.name as cluster_name',
          'g.created_at as granted_at',
          knex.raw(`${displayNameSql('by')} as granted_by_name`),
        )
        .where('g.user_id', userId)
        .orderBy([
          { column: 'g.created_at', order: 'asc' },
          { column: 'g.id', order: 'asc' },
        ]);
    },

    async findGrant(db: Db, userId: string, grantId: string): Promise<GrantRow | undefined> {
      return (await this.grantsOf(db, userId)).find((g) => g.id === grantId);
    },

    /**
     * What the delegation rule weighs of an account: whether it is a super admin and every key it holds, where. Read
     * after the account's row is locked, it cannot change before the transaction ends: every change of either locks
     * that row first.
     */
    async standingOf(db: Db, userId: string): Promise<TargetStanding | undefined> {
      const row = (await db('users').select('is_super_admin').where({ id: userId }).first()) as
        { is_super_admin: boolean } | undefined;
      if (!row) return undefined;
      return { is_super_admin: row.is_super_admin, keys: await this.keysOf(db, userId) };
    },

    /** The keys the user holds, platform-wide and by cluster, as read now (inside the caller's transaction). */
    async keysOf(db: Db, userId: string): Promise<Array<{ permission_key: PermissionKey; cluster_id: string | null }>> {
      return db('permission_grants').select('permission_key', 'cluster_id').where({ user_id: userId });
    },

    async insertGrant(
      db: Db,
      userId: string,
      key: PermissionKey,
      clusterId: string | null,
      actorId: string,
    ): Promise<string> {
      const [row] = await db('permission_grants')
        .insert({ user_id: userId, permission_key: key, cluster_id: clusterId, created_by: actorId })
        .returning<Array<{ id: string }>>('id');
      return (row as { id: string }).id;
    },

    async deleteGrant(db: Db, grantId: string): Promise<void> {
      await db('permission_grants').where({ id: grantId }).delete();
    },

    /** Whether a live cluster has the id. */
    async clusterExists(db: Db, clusterId: string): Promise<boolean> {
      return !!(await db('clusters').select('id').where({ id: clusterId }).whereNull('deleted_at').first());
    },
  };
}

/** The names an account signs in with: sign-in accepts the username or the email, case-insensitively. */
export interface LoginNames {
  username: string;
  email: string;
}

/**
 * Holds these login names until the transaction ends, for every write that claims one: two accounts saved at once,
 * one with a username and the other with the same text as its email, queue here, and the second one's check sees the
 * first. The names are taken in one order, so two writes never wait on each other in a circle.
 */
export async function lockLoginNames(trx: Knex.Transaction, names: LoginNames): Promise<void> {
  for (const name of [...new Set([names.username, names.email].map((n) => n.toLowerCase()))].sort()) {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`login-name:${name}`]);
  }
}

/**
 * Which of the names another account already signs in with the other way round: `username` when it is another
 * account's email, `email` when it is another account's username, or null. (The same field twice is the unique
 * indexes' job.) `exceptId` is the account being saved, whose own username may equal its own email.
 */
export async function loginNameClash(
  db: Db,
  names: LoginNames,
  exceptId?: string,
): Promise<'username' | 'email' | null> {
  const username = names.username.toLowerCase();
  const email = names.email.toLowerCase();
  const qb = db('users')
    .select('username', 'email')
    .where((w) => {
      w.whereRaw('lower(users.email) = ?', [username]).orWhereRaw('lower(users.username) = ?', [email]);
    });
  if (exceptId) qb.whereNot('users.id', exceptId);
  const other = (await qb.first()) as LoginNames | undefined;
  if (!other) return null;
  return other.email.toLowerCase() === username ? 'username' : 'email';
}
