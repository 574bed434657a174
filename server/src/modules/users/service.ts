import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { iso } from '../../core/audit.js';
import { assertMayActOn, type HeldKey } from '../../core/delegation.js';
import { assertMayGrant, scopePhrase } from '../../core/granting.js';
import { userInfoOf } from '../../core/display-name.js';
import type { FreshnessCheck } from '../../core/etag.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { paginateInfo, parseListQuery } from '../../core/list-query.js';
import { passwordProblem } from '../../core/password-policy.js';
import {
  assertCan,
  assertScopeFitsKey,
  can,
  type AuthContext,
  type PermissionKey,
  type Permissions,
} from '../../core/permissions.js';
import { isUniqueViolation } from '../../db/sql.js';
import { cursorBatches } from '../../db/cursor.js';
import { toCount } from '../../db/count.js';
import { statusText, yesNo, type CsvColumn, type CsvExport } from '../../core/csv.js';
import { pick, type AuditTrail } from '../audit/service.js';
import { hashPassword } from '../auth/passwords.js';
import { assertPerson } from './people.js';
import {
  USER_SORTABLE,
  lockLoginNames,
  loginNameClash,
  userRepository,
  type AccountListFilter,
  type AccountRecord,
  type AccountRow,
  type GrantRow,
  type IdentityWrite,
  type LoginNames,
} from './repository.js';

type UserAccount = Schemas['UserAccount'];
type Grant = Schemas['Grant'];

const IDENTITY_FIELDS = ['username', 'email', 'firstname', 'middlename', 'lastname'] as const;

const nameOrNull = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

function toIdentity(input: Schemas['UserUpdate'] | Schemas['UserCreate']): IdentityWrite {
  return {
    username: input.username.trim(),
    email: input.email.trim(),
    firstname: nameOrNull(input.firstname),
    middlename: nameOrNull(input.middlename),
    lastname: nameOrNull(input.lastname),
  };
}

/** The export's columns: those of the console's account list. */
const CSV_COLUMNS: CsvColumn<AccountRow>[] = [
  { header: 'Username', value: (r) => r.username },
  { header: 'Display Name', value: (r) => r.display_name },
  { header: 'Email', value: (r) => r.email },
  { header: 'Status', value: (r) => statusText(r.is_active) },
  { header: 'Super Admin', value: (r) => yesNo(r.is_super_admin) },
  { header: 'Grants', value: (r) => toCount(r.grant_count) },
  { header: 'Last Sign-in', value: (r) => iso(r.last_sign_in_at) },
  { header: 'Created', value: (r) => iso(r.created_at) },
];

/** The account list's filter, for the list and its export alike. */
function listFilter(query: QueryParams<'listUsers'>): AccountListFilter {
  const list = parseListQuery(query, { sortable: USER_SORTABLE, defaultSort: 'username:asc' });
  return { list, isActive: query.is_active, hasGrants: query.has_grants, clusterId: query.cluster_id };
}

function present(row: AccountRow): UserAccount {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    display_name: row.display_name,
    is_active: row.is_active,
    is_super_admin: row.is_super_admin,
    must_change_password: row.must_change_password,
    sign_in_delayed: !!row.sign_in_delayed,
    grant_count: Number(row.grant_count ?? 0),
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function presentGrant(g: GrantRow): Grant {
  return {
    id: g.id,
    permission_key: g.permission_key,
    cluster_id: g.cluster_id,
    cluster_code: g.cluster_code,
    cluster_name: g.cluster_name,
    granted_at: iso(g.granted_at),
    granted_by_name: g.granted_by_name,
  };
}

/** A grant as the audit trail shows it: the key and where it holds. */
function grantFields(g: {
  id: string;
  permission_key: string;
  cluster_id: string | null;
  cluster_code?: string | null;
}) {
  return {
    grant_id: g.id,
    permission_key: g.permission_key,
    cluster_id: g.cluster_id,
    scope: g.cluster_id ? (g.cluster_code ?? g.cluster_id) : 'all clusters',
  };
}

/**
 * Sign-in accepts a username or an email, so a username may not be another account's email, nor an email another
 * account's username: one login name always points at one account. Call inside the transaction that saves the account
 * (creating it, editing it, or provisioning it at a single sign-on); `exceptId` is the account being saved.
 */
export async function assertLoginNamesFree(trx: Knex.Transaction, names: LoginNames, exceptId?: string): Promise<void> {
  const clash = await claimLoginNames(trx, names, exceptId);
  if (clash === 'username') {
    // Worded without the other field's name: the console files a 409 under the field its detail names.
    throw new ConflictError(
      `The username "${names.username}" is another account's sign-in address, and sign-in accepts either: choose a different username`,
    );
  }
  if (clash === 'email') {
    throw new ConflictError(
      `The email "${names.email}" is another account's username, and sign-in accepts either: use a different email, or change that account's username first`,
    );
  }
}

/**
 * Holds the login names for the transaction and says which one another account already signs in with the other way
 * round (`username`: another's email; `email`: another's username), or null: for every module that saves an account,
 * this one's create and edit, and single sign-on's just-in-time accounts.
 */
export async function claimLoginNames(
  trx: Knex.Transaction,
  names: LoginNames,
  exceptId?: string,
): Promise<'username' | 'email' | null> {
  await lockLoginNames(trx, names);
  return loginNameClash(trx, names, exceptId);
}

/**
 * The account locked for the rest of the transaction, with the keys it holds: what the delegation rule weighs, for a
 * module that acts on accounts (single sign-on's settings and links). Null when there is no such account.
 */
export async function lockedStanding(
  trx: Knex.Transaction,
  id: string,
): Promise<(AccountRecord & { keys: HeldKey[] }) | null> {
  const repo = userRepository({ knex: trx });
  const account = await repo.lockById(trx, id);
  return account ? { ...account, keys: await repo.keysOf(trx, id) } : null;
}

/** The Users operations: accounts, their sign-in state and their grants. Accounts belong to no cluster. */
export function userService(deps: { knex: Knex; audit: AuditTrail }) {
  const { knex, audit } = deps;
  const repo = userRepository({ knex });

  async function load(db: Knex | Knex.Transaction, id: string): Promise<UserAccount> {
    const row = await repo.findAccount(db, id);
    if (!row) throw new NotFoundError('User not found');
    return present(row);
  }

  /** A person's account locked for a write (a service account is refused: it is managed under its own screen). */
  async function lockAccount(trx: Knex.Transaction, id: string): Promise<AccountRecord> {
    const row = await repo.lockById(trx, id);
    if (!row) throw new NotFoundError('User not found');
    assertPerson(row);
    return row;
  }

  async function lockWithSuperAdmins(
    trx: Knex.Transaction,
    id: string,
  ): Promise<{ superAdmins: string[]; current: AccountRecord }> {
    const rows = await repo.lockSuperAdminsAnd(trx, id);
    const current = rows.find((r) => r.id === id);
    if (!current) throw new NotFoundError('User not found');
    assertPerson(current);
    return { superAdmins: rows.filter((r) => r.is_super_admin && r.is_active).map((r) => r.id), current };
  }

  /** Runs a write and turns a username or email unique violation into a 409 naming the field. */
  async function guardUnique<T>(values: IdentityWrite, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const { constraint } = err as { constraint?: unknown };
      if (typeof constraint === 'string' && constraint.includes('email'))
        throw new ConflictError(`Another account already has the email "${values.email}"`);
      throw new ConflictError(`Another account already has the username "${values.username}"`);
    }
  }

  /**
   * The delegation rule on the account `id` as it stands now: called after its row is locked, nothing can give it a
   * key or make it a super admin before the write. One's own account holds one's own keys, so acting on it is allowed.
   * `caller` is the caller's standing when the operation has just read it again (grant changes).
   */
  async function assertMayActOnAccount(
    db: Knex | Knex.Transaction,
    auth: AuthContext,
    id: string,
    action: string,
    caller: Permissions = auth.permissions,
  ): Promise<void> {
    if (id === auth.userId) return;
    const standing = await repo.standingOf(db, id);
    if (!standing) throw new NotFoundError('User not found');
    assertMayActOn(caller, standing, action);
  }

  /**
   * A cluster named in a query is one the caller may read: anyone else gets the answer of a missing cluster, so the
   * reply neither confirms the id nor reveals the cluster's members. Decided from the caller's grants alone, so the
   * list stays one statement: a caller who reads every cluster learns nothing from an id that names none.
   */
  function assertClusterReadable(auth: AuthContext, clusterId: string): void {
    if (!can(auth.permissions, 'cluster.read', clusterId)) throw new NotFoundError('Cluster not found');
  }

  function assertStrongPassword(password: string, owner: { username: string; email: string }): void {
    const problem = passwordProblem(password, owner);
    if (problem) throw new BadRequestError(problem, [{ path: '/body/password', message: problem }]);
  }

  /**
   * The caller's grants as they are now, read under a share lock on the caller's row, so a concurrent change of
   * the caller's own grants (which locks that row for update) either lands before this check or waits for it.
   * The target's row is locked for update; both in id order, so two grant changes never wait on each other in a circle.
   */
  async function lockForGrantChange(
    trx: Knex.Transaction,
    auth: AuthContext,
    targetId: string,
  ): Promise<{ caller: Permissions; target: AccountRecord }> {
    let callerRow: AccountRecord | undefined;
    let target: AccountRecord | undefined;
    for (const id of [...new Set([auth.userId, targetId])].sort()) {
      if (id === targetId) {
        target = await repo.lockById(trx, id);
        if (id === auth.userId) callerRow = target;
      } else {
        callerRow = await repo.shareLockById(trx, id);
      }
    }
    if (!callerRow || !callerRow.is_active) throw new ForbiddenError('Your account can no longer change grants');
    if (!target) throw new NotFoundError('User not found');
    const platform: PermissionKey[] = [];
    const clusters: Record<string, PermissionKey[]> = {};
    for (const g of await repo.keysOf(trx, auth.userId)) {
      if (g.cluster_id === null) platform.push(g.permission_key);
      else (clusters[g.cluster_id] ??= []).push(g.permission_key);
    }
    const caller: Permissions = {
      platform,
      clusters,
      is_super_admin: callerRow.is_super_admin,
      must_change_password: callerRow.must_change_password,
      must_enrol_second_factor: false,
    };
    if (!can(caller, 'grant.manage')) throw new ForbiddenError('Missing permission grant.manage (platform-wide)');
    return { caller, target };
  }

  return {
    /**
     * The add-user dialog's search over the user pool (the contract lets anyone who can change some cluster's
     * members). Leaving out a cluster's members tells who they are, so that cluster must be one the caller may read.
     */
    async search(auth: AuthContext, query: QueryParams<'searchUsers'>): Promise<Schemas['UserPage']> {
      const list = parseListQuery(query, { sortable: {}, defaultSort: '' });
      if (query.exclude_cluster_id) assertClusterReadable(auth, query.exclude_cluster_id);
      const { rows, total } = await repo.search({
        search: list.search,
        excludeClusterId: query.exclude_cluster_id,
        limit: list.perpage,
        offset: list.offset,
      });
      return {
        data: rows.map((u) => ({
          id: u.id,
          username: u.username,
          email: u.email,
          userInfo: userInfoOf(u),
          is_active: u.is_active,
        })),
        paginate: paginateInfo(total, list),
      };
    },

    /** Accounts belong to no cluster, but filtering by one tells its members: that cluster must be one the caller reads. */
    async list(auth: AuthContext, query: QueryParams<'listUsers'>): Promise<Schemas['UserAccountPage']> {
      assertCan(auth, 'user.read', null);
      if (query.cluster_id) assertClusterReadable(auth, query.cluster_id);
      const filter = listFilter(query);
      const { rows, total } = await repo.listPage(knex, filter);
      return { data: rows.map(present), paginate: paginateInfo(total, filter.list) };
    },

    /**
     * The list as CSV: the same filter, search, sort and access, every matching row streamed from a cursor. Access is
     * checked at once; the rows are read as the file is sent.
     */
    export(auth: AuthContext, query: QueryParams<'exportUsers'>): CsvExport<AccountRow> {
      assertCan(auth, 'user.read', null);
      if (query.cluster_id) assertClusterReadable(auth, query.cluster_id);
      return {
        name: 'users',
        columns: CSV_COLUMNS,
        batches: cursorBatches(knex, repo.exportRows(knex, listFilter(query))),
      };
    },

    async get(auth: AuthContext, id: string): Promise<UserAccount> {
      assertCan(auth, 'user.read', null);
      const row = await repo.findAccount(knex, id);
      if (!row) throw new NotFoundError('User not found');
      assertPerson(row);
      return present(row);
    },

    async create(auth: AuthContext, input: Schemas['UserCreate']): Promise<UserAccount> {
      assertCan(auth, 'user.manage', null);
      const values = toIdentity(input);
      assertStrongPassword(input.password, values);
      const passwordHash = await hashPassword(input.password);
      return knex.transaction(async (trx) => {
        await assertLoginNamesFree(trx, values);
        const id = await guardUnique(values, () => repo.insert(trx, { ...values, password_hash: passwordHash }));
        await audit.record(trx, auth, {
          action: 'createUser',
          target: { type: 'user', id },
          after: { ...values, is_active: true },
        });
        return load(trx, id);
      });
    },

    async update(
      auth: AuthContext,
      id: string,
      input: Schemas['UserUpdate'],
      assertFresh: FreshnessCheck,
    ): Promise<UserAccount> {
      assertCan(auth, 'user.manage', null);
      const values = toIdentity(input);
      return knex.transaction(async (trx) => {
        const current = await lockAccount(trx, id);
        await assertMayActOnAccount(trx, auth, id, 'edit');
        assertFresh(current);
        await assertLoginNamesFree(trx, values, id);
        await guardUnique(values, () => repo.update(trx, id, values));
        await audit.record(trx, auth, {
          action: 'updateUser',
          target: { type: 'user', id },
          before: pick(current, IDENTITY_FIELDS),
          after: values,
        });
        return load(trx, id);
      });
    },

    async deactivate(auth: AuthContext, id: string): Promise<UserAccount> {
      assertCan(auth, 'user.manage', null);
      if (id === auth.userId) throw new ConflictError('You cannot deactivate your own account');
      return knex.transaction(async (trx) => {
        // Every active super admin is locked with the account, so the count below cannot race a demotion.
        const { superAdmins, current } = await lockWithSuperAdmins(trx, id);
        await assertMayActOnAccount(trx, auth, id, 'deactivate');
        let sessionsEnded = 0;
        if (current.is_active) {
          if (current.is_super_admin && superAdmins.length <= 1) {
            throw new ConflictError(
              `${current.username} is the last active super admin; make another account super admin before deactivating this one`,
            );
          }
          await repo.update(trx, id, { is_active: false });
          sessionsEnded = await repo.endSessions(trx, id);
        }
        await audit.record(trx, auth, {
          action: 'deactivateUser',
          target: { type: 'user', id },
          before: { is_active: current.is_active },
          after: { is_active: false, ...(sessionsEnded ? { sessions_ended: sessionsEnded } : {}) },
        });
        return load(trx, id);
      });
    },

    async reactivate(auth: AuthContext, id: string): Promise<UserAccount> {
      assertCan(auth, 'user.manage', null);
      return knex.transaction(async (trx) => {
        const current = await lockAccount(trx, id);
        await assertMayActOnAccount(trx, auth, id, 'reactivate');
        if (!current.is_active) await repo.update(trx, id, { is_active: true });
        await audit.record(trx, auth, {
          action: 'reactivateUser',
          target: { type: 'user', id },
          before: { is_active: current.is_active },
          after: { is_active: true },
        });
        return load(trx, id);
      });
    },

    async resetPassword(auth: AuthContext, id: string, input: Schemas['PasswordReset']): Promise<UserAccount> {
      assertCan(auth, 'user.manage', null);
      const owner = await repo.findAccount(knex, id);
      if (!owner) throw new NotFoundError('User not found');
      assertPerson(owner);
      // Refused before the (deliberately slow) hashing; checked again below on the locked account.
      await assertMayActOnAccount(knex, auth, id, 'reset the password of');
      assertStrongPassword(input.password, owner);
      const passwordHash = await hashPassword(input.password);
      return knex.transaction(async (trx) => {
        await lockAccount(trx, id);
        await assertMayActOnAccount(trx, auth, id, 'reset the password of');
        await repo.update(trx, id, {
          password_hash: passwordHash,
          must_change_password: true,
          password_changed_at: trx.raw('now()'),
        });
        const sessionsEnded = await repo.endSessions(trx, id);
        // Neither the password nor its hash is recorded: only that an administrator set a new initial one.
        await audit.record(trx, auth, {
          action: 'resetUserPassword',
          target: { type: 'user', id },
          before: { credential: 'chosen by the user' },
          after: { credential: 'reset by an administrator', sessions_ended: sessionsEnded },
        });
        return load(trx, id);
      });
    },

    async unlock(auth: AuthContext, id: string): Promise<UserAccount> {
      assertCan(auth, 'user.manage', null);
      return knex.transaction(async (trx) => {
        await lockAccount(trx, id);
        await assertMayActOnAccount(trx, auth, id, 'unlock');
        const before = await load(trx, id);
        await repo.clearSignInFailures(trx, id);
        await audit.record(trx, auth, {
          action: 'unlockUser',
          target: { type: 'user', id },
          before: { sign_in_delayed: before.sign_in_delayed },
          after: { sign_in_delayed: false },
        });
        return load(trx, id);
      });
    },

    async revokeSuperAdmin(auth: AuthContext, id: string): Promise<UserAccount> {
      assertCan(auth, 'grant.manage', null);
      if (!auth.permissions.is_super_admin) throw new ForbiddenError('Only a super admin may demote a super admin');
      return knex.transaction(async (trx) => {
        // Every active super admin is locked before counting: two super admins demoting each other at the same
        // moment queue here, and the second sees the first's change.
        const { superAdmins, current } = await lockWithSuperAdmins(trx, id);
        if (!superAdmins.includes(auth.userId)) throw new ForbiddenError('Only a super admin may demote a super admin');
        if (!current.is_super_admin) throw new ConflictError(`${current.username} is not a super admin`);
        if (current.is_active && superAdmins.length <= 1) {
          throw new ConflictError(`${current.username} is the last active super admin and cannot be demoted`);
        }
        await repo.update(trx, id, { is_super_admin: false });
        await audit.record(trx, auth, {
          action: 'revokeSuperAdmin',
          target: { type: 'user', id },
          before: { is_super_admin: true },
          after: { is_super_admin: false },
        });
        return load(trx, id);
      });
    },

    async listGrants(auth: AuthContext, id: string): Promise<Schemas['GrantList']> {
      assertCan(auth, 'user.read', null);
      const account = await repo.findAccount(knex, id);
      if (!account) throw new NotFoundError('User not found');
      return { data: (await repo.grantsOf(knex, id)).map(presentGrant), is_super_admin: account.is_super_admin };
    },

    async addGrant(auth: AuthContext, id: string, input: Schemas['GrantInput']): Promise<Grant> {
      assertCan(auth, 'grant.manage', null);
      const key = input.permission_key;
      const clusterId = input.cluster_id ?? null;
      assertScopeFitsKey(key, clusterId);
      return knex.transaction(async (trx) => {
        const { caller } = await lockForGrantChange(trx, auth, id);
        // The granting rule before the cluster's existence: a caller who holds nothing on a cluster gets the same
        // answer whether the id exists or not.
        assertMayGrant(caller, key, clusterId, 'grant');
        if (clusterId && !(await repo.clusterExists(trx, clusterId))) throw new NotFoundError('Cluster not found');
        await assertMayActOnAccount(trx, auth, id, 'change the grants of', caller);
        const held = await repo.keysOf(trx, id);
        if (held.some((g) => g.permission_key === key && g.cluster_id === clusterId)) {
          throw new ConflictError(`The account already holds ${key} ${scopePhrase(clusterId)}`);
        }
        let grantId: string;
        try {
          grantId = await repo.insertGrant(trx, id, key, clusterId, auth.userId);
        } catch (err) {
          if (isUniqueViolation(err))
            throw new ConflictError(`The account already holds ${key} ${scopePhrase(clusterId)}`);
          throw err;
        }
        const grant = (await repo.findGrant(trx, id, grantId))!;
        await audit.record(trx, auth, {
          action: 'addUserGrant',
          target: { type: 'user', id },
          before: null,
          after: grantFields(grant),
        });
        return presentGrant(grant);
      });
    },

    async removeGrant(auth: AuthContext, id: string, grantId: string): Promise<void> {
      assertCan(auth, 'grant.manage', null);
      await knex.transaction(async (trx) => {
        const { caller } = await lockForGrantChange(trx, auth, id);
        const grant = await repo.findGrant(trx, id, grantId);
        if (!grant) throw new NotFoundError('Grant not found on this account');
        assertMayGrant(caller, grant.permission_key, grant.cluster_id, 'remove');
        await assertMayActOnAccount(trx, auth, id, 'change the grants of', caller);
        await repo.deleteGrant(trx, grantId);
        await audit.record(trx, auth, {
          action: 'removeUserGrant',
          target: { type: 'user', id },
          before: grantFields(grant),
          after: null,
        });
      });
    },
  };
}

export type UserService = ReturnType<typeof userService>;
