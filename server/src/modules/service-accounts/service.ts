import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { iso } from '../../core/audit.js';
import { assertMayActOn } from '../../core/delegation.js';
import type { FreshnessCheck } from '../../core/etag.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { paginateInfo, parseListQuery } from '../../core/list-query.js';
import { assertCan, type AuthContext } from '../../core/permissions.js';
import { isUniqueViolation } from '../../db/sql.js';
import type { AuditTrail } from '../audit/service.js';
import { dummyPasswordHash } from '../auth/passwords.js';
import { assertLoginNamesFree } from '../users/service.js';
import { serviceAccountRepository, serviceEmail, type LockedAccount, type ServiceAccountRow } from './repository.js';

type ServiceAccount = Schemas['ServiceAccount'];

const NOT_FOUND = 'Service account not found';

function present(row: ServiceAccountRow): ServiceAccount {
  return {
    id: row.id,
    name: row.username,
    description: row.description,
    is_active: row.is_active,
    grant_count: Number(row.grant_count ?? 0),
    active_token_count: Number(row.active_token_count ?? 0),
    last_used_at: iso(row.last_used_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

const descriptionOf = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

/**
 * Service accounts: `users` rows of kind `service` (docs/adr/0027-service-accounts-and-api-tokens.md). They hold
 * grants through the users module's grant operations, so the granting and delegation rules apply to them unchanged;
 * what this module adds is their record, and refusing everything a person's sign-in would need.
 */
export function serviceAccountService({ knex, audit }: { knex: Knex; audit: AuditTrail }) {
  const repo = serviceAccountRepository({ knex });

  async function load(db: Knex | Knex.Transaction, id: string): Promise<ServiceAccount> {
    const row = await repo.find(db, id);
    if (!row) throw new NotFoundError(NOT_FOUND);
    return present(row);
  }

  /** A name is a login name like any username: unique, and never another account's email. */
  async function guardName<T>(
    trx: Knex.Transaction,
    name: string,
    exceptId: string | undefined,
    write: () => Promise<T>,
  ) {
    await assertLoginNamesFree(trx, { username: name, email: serviceEmail(name) }, exceptId);
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`Another account already has the name "${name}"`);
      throw err;
    }
  }

  return {
    /**
     * The account locked for the rest of the transaction, after the delegation rule: the caller holds every key it
     * holds. `action` is what was refused ("create a token for"). For the token operations too.
     */
    async lockForChange(trx: Knex.Transaction, auth: AuthContext, id: string, action: string): Promise<LockedAccount> {
      const account = await repo.lock(trx, id);
      if (!account) throw new NotFoundError(NOT_FOUND);
      assertMayActOn(auth, account, action);
      return account;
    },

    async list(auth: AuthContext, query: QueryParams<'listServiceAccounts'>): Promise<Schemas['ServiceAccountPage']> {
      assertCan(auth, 'user.read', null);
      const list = parseListQuery(query, { sortable: {}, defaultSort: '' });
      const { rows, total } = await repo.list({
        search: list.search,
        isActive: query.is_active,
        limit: list.limit,
        offset: list.offset,
      });
      return { data: rows.map(present), paginate: paginateInfo(total, list) };
    },

    async get(auth: AuthContext, id: string): Promise<ServiceAccount> {
      assertCan(auth, 'user.read', null);
      return load(knex, id);
    },

    async create(auth: AuthContext, input: Schemas['ServiceAccountCreate']): Promise<ServiceAccount> {
      assertCan(auth, 'user.manage', null);
      const name = input.name.trim();
      const description = descriptionOf(input.description);
      // Never used: a service account cannot sign in, whatever its password column holds.
      const passwordHash = await dummyPasswordHash();
      return knex.transaction(async (trx) => {
        const id = await guardName(trx, name, undefined, () =>
          repo.insert(trx, { username: name, description, password_hash: passwordHash }),
        );
        await audit.record(trx, auth, {
          action: 'createServiceAccount',
          target: { type: 'user', id },
          after: { username: name, description, kind: 'service', is_active: true },
        });
        return load(trx, id);
      });
    },

    async update(
      auth: AuthContext,
      id: string,
      input: Schemas['ServiceAccountUpdate'],
      assertFresh: FreshnessCheck,
    ): Promise<ServiceAccount> {
      assertCan(auth, 'user.manage', null);
      const values = {
        username: input.name.trim(),
        description: descriptionOf(input.description),
        is_active: input.is_active,
      };
      return knex.transaction(async (trx) => {
        const current = await repo.lock(trx, id);
        if (!current) throw new NotFoundError(NOT_FOUND);
        assertMayActOn(auth, current, values.is_active ? 'edit' : 'deactivate');
        assertFresh(current);
        await guardName(trx, values.username, id, () => repo.update(trx, id, values));
        await audit.record(trx, auth, {
          // A deactivation or reactivation reads as is_active changing.
          action: 'updateServiceAccount',
          target: { type: 'user', id },
          before: { username: current.username, description: current.description, is_active: current.is_active },
          after: values,
        });
        return load(trx, id);
      });
    },
  };
}

export type ServiceAccountService = ReturnType<typeof serviceAccountService>;
