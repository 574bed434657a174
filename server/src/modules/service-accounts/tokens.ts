import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Schemas } from '../../core/contract.js';
import { iso } from '../../core/audit.js';
import { displayName } from '../../core/display-name.js';
import { assertMayGrant, scopePhrase } from '../../core/granting.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import {
  assertCan,
  assertScopeFitsKey,
  can,
  type AuthContext,
  type PermissionKey,
  type Permissions,
  type RequestOrigin,
} from '../../core/permissions.js';
import type { CallerRefusal } from '../../http/auth.js';
import type { AuditTrail } from '../audit/service.js';
import { serviceAccountRepository, type TokenRow, type TokenScope } from './repository.js';
import type { ServiceAccountService } from './service.js';
import { hashApiToken, isApiTokenShaped, newApiToken } from './token-format.js';

type ApiToken = Schemas['ApiToken'];

/** The longest a token may live: a year. */
export const MAX_TOKEN_DAYS = 365;
/** A token's use is written at most this often (per token, per replica; the database keeps it once a minute overall). */
const TOUCH_EVERY_MS = 60_000;
const MAX_TOUCH_ENTRIES = 10_000;

function presentToken(row: TokenRow): ApiToken {
  const creator = row.creator_username
    ? displayName({
        username: row.creator_username,
        email: null,
        firstname: row.creator_firstname,
        middlename: row.creator_middlename,
        lastname: row.creator_lastname,
      })
    : null;
  return {
    id: row.id,
    name: row.name,
    prefix: `pa_${row.lookup}`,
    scopes: row.scopes,
    status: row.revoked_at ? 'revoked' : row.expired ? 'expired' : 'active',
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
    created_by_name: creator,
    last_used_at: iso(row.last_used_at),
    last_used_ip: row.last_used_ip === null ? null : row.last_used_ip.replace(/%.*$/, '').slice(0, 45) || null,
    revoked_at: iso(row.revoked_at),
  };
}

/**
 * What a token may do now: the keys it is narrowed to that its account still holds (every key of the account when it
 * is not narrowed). A key narrowed to all clusters that the account holds on some clusters only holds there. Never
 * super admin, never a forced password change.
 */
export function tokenPermissions(
  accountKeys: readonly TokenScope[],
  scopes: readonly TokenScope[] | null,
): Permissions {
  const account: Permissions = {
    platform: [],
    clusters: {},
    is_super_admin: false,
    must_change_password: false,
    must_enrol_second_factor: false,
  };
  for (const k of accountKeys) {
    if (k.cluster_id === null) account.platform.push(k.permission_key);
    else (account.clusters[k.cluster_id] ??= []).push(k.permission_key);
  }
  if (scopes === null) return account;
  const out: Permissions = {
    platform: [],
    clusters: {},
    is_super_admin: false,
    must_change_password: false,
    must_enrol_second_factor: false,
  };
  const add = (key: PermissionKey, clusterId: string | null) => {
    if (clusterId === null) {
      if (!out.platform.includes(key)) out.platform.push(key);
    } else {
      const keys = (out.clusters[clusterId] ??= []);
      if (!keys.includes(key)) keys.push(key);
    }
  };
  for (const s of scopes) {
    if (s.cluster_id === null) {
      if (account.platform.includes(s.permission_key)) add(s.permission_key, null);
      for (const [clusterId, keys] of Object.entries(account.clusters))
        if (keys.includes(s.permission_key)) add(s.permission_key, clusterId);
    } else if (can(account, s.permission_key, s.cluster_id)) {
      add(s.permission_key, s.cluster_id);
    }
  }
  return out;
}

/** The narrowing as sent, without repeats; null for none. */
function scopesOf(input: Schemas['ApiTokenCreate']['scopes']): TokenScope[] | null {
  if (!input) return null;
  const seen = new Map<string, TokenScope>();
  for (const s of input)
    seen.set(`${s.permission_key}|${s.cluster_id ?? ''}`, {
      permission_key: s.permission_key,
      cluster_id: s.cluster_id ?? null,
    });
  return [...seen.values()];
}

function assertExpiry(expiresAt: Date): void {
  const at = expiresAt.getTime();
  const fail = (detail: string) => {
    throw new BadRequestError(detail, [{ path: '/body/expires_at', message: detail }]);
  };
  if (Number.isNaN(at)) fail('expires_at is not a date');
  if (at <= Date.now()) fail('expires_at must be in the future');
  if (at > Date.now() + MAX_TOKEN_DAYS * 86_400_000)
    fail(`A token lives at most ${MAX_TOKEN_DAYS} days: choose an expires_at within a year from now`);
}

/** API tokens of service accounts: created (shown once), listed, revoked, and turned into the caller of a request. */
export function apiTokenService({
  knex,
  audit,
  accounts,
  logger,
}: {
  knex: Knex;
  audit: AuditTrail;
  accounts: ServiceAccountService;
  logger: Logger;
}) {
  const repo = serviceAccountRepository({ knex });
  const touched = new Map<string, number>();

  async function touch(tokenId: string, origin: RequestOrigin): Promise<void> {
    const now = Date.now();
    if ((touched.get(tokenId) ?? 0) > now - TOUCH_EVERY_MS) return;
    if (touched.size >= MAX_TOUCH_ENTRIES) touched.clear();
    touched.set(tokenId, now);
    try {
      await repo.touchToken(tokenId, origin.ip);
    } catch (err) {
      // Bookkeeping: a failed write must not fail the call it records.
      logger.warn({ err, tokenId }, 'api token: could not record its last use');
    }
  }

  return {
    async list(auth: AuthContext, accountId: string): Promise<Schemas['ApiTokenList']> {
      assertCan(auth, 'user.read', null);
      await accounts.get(auth, accountId);
      return { data: (await repo.tokens(knex, accountId)).map(presentToken) };
    },

    /**
     * A token for the account. The caller acts on the account (delegation rule: it holds every key the account holds),
     * and each narrowed key must be one the account holds there, so a token never exceeds the account nor its creator.
     */
    async create(
      auth: AuthContext,
      accountId: string,
      input: Schemas['ApiTokenCreate'],
    ): Promise<Schemas['ApiTokenCreated']> {
      assertCan(auth, 'user.manage', null);
      const expiresAt = new Date(input.expires_at);
      assertExpiry(expiresAt);
      const scopes = scopesOf(input.scopes);
      for (const [i, s] of (scopes ?? []).entries()) {
        try {
          assertScopeFitsKey(s.permission_key, s.cluster_id);
        } catch {
          const detail = `${s.permission_key} is a platform key: it holds on all clusters only (send cluster_id: null)`;
          throw new BadRequestError(detail, [{ path: `/body/scopes/${i}/cluster_id`, message: detail }]);
        }
      }
      const name = input.name.trim();
      if (!name) throw new BadRequestError('Name the token', [{ path: '/body/name', message: 'Name the token' }]);
      const minted = newApiToken();
      return knex.transaction(async (trx) => {
        const account = await accounts.lockForChange(trx, auth, accountId, 'create a token for');
        if (!account.is_active)
          throw new ConflictError('The service account is deactivated: reactivate it before creating a token');
        const held = tokenPermissions(account.keys, null);
        for (const [i, s] of (scopes ?? []).entries()) {
          if (!can(held, s.permission_key, s.cluster_id)) {
            const detail = `The service account does not hold ${s.permission_key} ${scopePhrase(s.cluster_id)}: a token can be narrowed only to keys its account holds`;
            throw new BadRequestError(detail, [{ path: `/body/scopes/${i}`, message: detail }]);
          }
          // Implied by the delegation rule; checked on its own so no future change of either rule lets a token exceed its creator.
          assertMayGrant(auth.permissions, s.permission_key, s.cluster_id, 'give a token');
        }
        const id = await repo.insertToken(trx, {
          user_id: accountId,
          name,
          lookup: minted.lookup,
          token_hash: minted.hash,
          scopes,
          expires_at: expiresAt,
          created_by_id: auth.userId,
        });
        // The secret and its hash are never recorded: the prefix tells the token.
        await audit.record(trx, auth, {
          action: 'createApiToken',
          target: { type: 'api_token', id },
          after: {
            service_account_id: accountId,
            service_account: account.username,
            name,
            prefix: minted.prefix,
            scopes: scopes && scopes.map((s) => `${s.permission_key} ${s.cluster_id ?? 'all clusters'}`),
            expires_at: expiresAt.toISOString(),
          },
        });
        const [row] = await repo.tokens(trx, accountId, id);
        return { ...presentToken(row!), token: minted.token };
      });
    },

    async revoke(auth: AuthContext, accountId: string, tokenId: string): Promise<void> {
      assertCan(auth, 'user.manage', null);
      await knex.transaction(async (trx) => {
        const account = await accounts.lockForChange(trx, auth, accountId, 'revoke a token of');
        const [token] = await repo.tokens(trx, accountId, tokenId);
        if (!token) throw new NotFoundError('Token not found on this service account');
        if (!(await repo.revokeToken(trx, tokenId, auth.userId))) return;
        await audit.record(trx, auth, {
          action: 'revokeApiToken',
          target: { type: 'api_token', id: tokenId },
          before: { service_account: account.username, prefix: `pa_${token.lookup}`, revoked: false },
          after: { service_account: account.username, prefix: `pa_${token.lookup}`, revoked: true },
        });
      });
    },

    /**
     * The caller behind an API token: its service account, with the token's keys as they hold now (the narrowing
     * met with the account's current grants), or why it is refused. Read on every call, so a revocation, an expiry,
     * a deactivation or a grant taken away takes effect at the next one.
     */
    async caller(credential: string, origin: RequestOrigin): Promise<AuthContext | { refused: CallerRefusal }> {
      if (!isApiTokenShaped(credential)) return { refused: 'api-token-ended' };
      const found = await repo.caller(hashApiToken(credential));
      if (!found || !found.live) return { refused: 'api-token-ended' };
      if (!found.is_active) return { refused: 'account-deactivated' };
      await touch(found.token_id, origin);
      return {
        userId: found.user_id,
        tokenId: found.token_id,
        permissions: tokenPermissions(found.keys, found.scopes),
      };
    },
  };
}

export type ApiTokenService = ReturnType<typeof apiTokenService>;
