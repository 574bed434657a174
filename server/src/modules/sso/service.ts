import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import * as oidc from 'openid-client';
import type { Schemas } from '../../core/contract.js';
import type { OidcProviderConfig } from '../../config-oidc.js';
import { assertMayActOn } from '../../core/delegation.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../core/errors.js';
import { assertMayGrant, keyNotGrantable } from '../../core/granting.js';
import { assertCan, assertScopeFitsKey, type AuthContext, type RequestOrigin } from '../../core/permissions.js';
import { iso } from '../../core/audit.js';
import { isUniqueViolation } from '../../db/sql.js';
import type { AuditTrail } from '../audit/service.js';
import { dummyPasswordHash } from '../auth/passwords.js';
import { BAD_SSO_CODE, SERVICE_ACCOUNT_SIGN_IN, type AuthService, type SignInOutcome } from '../auth/service.js';
import { hashRefreshToken } from '../auth/tokens.js';
import { ProviderUnavailableError, type IdentityProviders } from './providers.js';
import { claimLoginNames, lockedStanding } from '../users/service.js';
import { assertPerson } from '../users/people.js';
import { amrOf, isSecondFactorAmr } from './amr.js';
import {
  ssoRepository,
  type AccountRow,
  type Authority,
  type GroupMappingRow,
  type MappedGrant,
} from './repository.js';

/** Why a single sign-on did not complete: the login page's `sso_error`, which it explains to the user. */
export type SsoFailure =
  | 'state'
  | 'denied'
  | 'token'
  | 'email_unverified'
  | 'domain_not_allowed'
  | 'no_account'
  | 'not_linked'
  | 'link_refused'
  | 'inactive'
  | 'provider_unavailable';

class SignInRefused extends Error {
  constructor(
    readonly reason: SsoFailure,
    detail: string,
    /** The account the sign-in would have been, when one was found: the refusal is recorded against it. */
    readonly accountId: string | null = null,
  ) {
    super(detail);
  }
}

/**
 * Why a mapping made by `authorId` would not give its grant to a new account now, or null when it would: its author
 * must still be an active account that may grant the key there.
 */
function notGrantingReason(
  grant: { permission_key: MappedGrant['permission_key']; cluster_id: string | null },
  authorId: string | null,
  authorities: Map<string, Authority>,
): string | null {
  const author = authorId ? authorities.get(authorId) : undefined;
  if (!author) return 'Its author is unknown, so it grants nothing: delete it and map the group again';
  if (!author.is_active)
    return `Its author ${author.username} is deactivated, so it grants nothing: delete it and map the group again as someone who holds the key`;
  const lacking = keyNotGrantable(author.permissions, grant.permission_key, grant.cluster_id);
  if (lacking === null) return null;
  return `Its author ${author.username} no longer holds ${lacking}, so new accounts do not get it: delete it and map the group again as someone who holds it`;
}

const present = (m: GroupMappingRow, authorities: Map<string, Authority>): Schemas['SsoGroupMapping'] => {
  const reason = notGrantingReason(m, m.created_by, authorities);
  return {
    id: m.id,
    provider: m.provider,
    group: m.group_value,
    permission_key: m.permission_key,
    cluster_id: m.cluster_id,
    cluster_code: m.cluster_code,
    created_at: iso(m.created_at),
    grants_fully: reason === null,
    not_granting_reason: reason,
  };
};

/** A grant as the audit trail and the log show it. */
const grantName = (g: { permission_key: string; cluster_id: string | null }) =>
  `${g.permission_key}@${g.cluster_id ?? 'all'}`;

/** The groups claim as a list of strings (providers send an array; some send one string). */
function groupsOf(claims: oidc.IDToken, claim: string): string[] {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** A username from the email's local part, made unique with a number when it is taken. */
async function freeUsername(email: string, taken: (name: string) => Promise<boolean>): Promise<string> {
  const base =
    (email.split('@')[0] ?? 'user')
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '')
      .slice(0, 40) || 'user';
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}

export interface SsoDeps {
  knex: Knex;
  logger: Logger;
  audit: AuditTrail;
  auth: AuthService;
  providers: IdentityProviders;
}

/**
 * Single sign-on with OpenID Connect: the login page's providers, the redirect to a provider and back, the account a
 * sign-in belongs to (linked, matched by verified email, or created just in time with the grants of its groups), the
 * one-time code that hands the session to the console, and signing out at the provider too.
 */
export function ssoService({ knex, logger, audit, auth, providers }: SsoDeps) {
  const repo = ssoRepository();

  const providerOf = (id: string): OidcProviderConfig => {
    const p = providers.find(id);
    if (!p) throw new NotFoundError(`No identity provider "${id}" is configured`);
    return p;
  };

  /** The account the verified ID token belongs to, or why it may not sign in. */
  async function accountFor(
    trx: Knex.Transaction,
    p: OidcProviderConfig,
    claims: oidc.IDToken,
    origin: RequestOrigin,
  ): Promise<AccountRow> {
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
    const domain = email?.split('@')[1] ?? '';
    if (p.allowedEmailDomains.length > 0 && !p.allowedEmailDomains.includes(domain)) {
      throw new SignInRefused(
        'domain_not_allowed',
        `${email ?? 'An account without an email'} is not of a domain ${p.displayName} may sign in with`,
      );
    }
    const linked = await repo.accountOfIdentity(trx, p.id, claims.sub);
    if (linked?.kind === 'service') throw new SignInRefused('link_refused', SERVICE_ACCOUNT_SIGN_IN, linked.id);
    if (linked) {
      if (!linked.is_active) throw new SignInRefused('inactive', 'The account is deactivated');
      await repo.touchIdentity(trx, p.id, claims.sub, email);
      return linked;
    }
    // Linking or creating by email trusts the email: only one the provider has verified.
    const verified = claims.email_verified === true || (claims.email_verified === undefined && p.assumeEmailVerified);
    if (!email || !verified)
      throw new SignInRefused('email_unverified', `${p.displayName} has not verified the email address`);
    const existing = await repo.accountByEmail(trx, email);
    if (existing?.kind === 'service') throw new SignInRefused('link_refused', SERVICE_ACCOUNT_SIGN_IN, existing.id);
    if (existing) return linkExisting(trx, p, existing, claims.sub, email, origin);
    if (!p.jitProvisioning) throw new SignInRefused('no_account', `No account has the email ${email}`);
    const username = await freeUsername(email, (name) => repo.usernameTaken(trx, name));
    // Sign-in accepts a username or an email: a new account's email may not be another account's username.
    if (await claimLoginNames(trx, { username, email })) {
      throw new SignInRefused(
        'not_linked',
        `Another account signs in with ${email} as its username; an administrator must resolve the clash`,
      );
    }
    const account = await repo.insertAccount(trx, {
      username,
      email,
      firstname: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 255) : null,
      lastname: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 255) : null,
      // Never used to sign in (the account is SSO-only); a random secret keeps the column's meaning.
      password_hash: await dummyPasswordHash(),
    });
    await repo.linkIdentity(trx, { user_id: account.id, provider: p.id, subject: claims.sub, email });
    const { given, skipped } = await grantsOfMappings(
      trx,
      await repo.grantsForGroups(trx, p.id, groupsOf(claims, p.groupsClaim)),
    );
    await repo.insertGrants(trx, account.id, given);
    if (skipped.length > 0)
      logger.warn(
        { provider: p.id, user: account.id, skipped },
        'single sign-on: group mappings whose author may no longer grant their key gave nothing',
      );
    await audit.record(
      trx,
      { userId: account.id, origin },
      {
        action: 'completeSsoSignIn',
        target: { type: 'user', id: account.id },
        after: {
          username: account.username,
          email,
          provider: p.id,
          subject: claims.sub,
          grants: given.map(grantName),
          ...(skipped.length > 0 ? { grants_skipped: skipped } : {}),
        },
      },
    );
    return account;
  }

  /**
   * Links the provider's subject to the existing account with the verified email, when the provider is trusted to
   * (`link_existing_accounts`) and the account holds nothing on all clusters: such an account (and a super admin) is
   * never handed to a provider by an email match, it signs in with its password. The link is recorded with it.
   */
  async function linkExisting(
    trx: Knex.Transaction,
    p: OidcProviderConfig,
    existing: AccountRow,
    subject: string,
    email: string,
    origin: RequestOrigin,
  ): Promise<AccountRow> {
    if (!existing.is_active) throw new SignInRefused('inactive', 'The account is deactivated');
    if (!p.linkExistingAccounts) {
      throw new SignInRefused(
        'not_linked',
        `The account with the email ${email} is not linked to ${p.displayName}, which is not configured to link existing accounts`,
        existing.id,
      );
    }
    // Locked, so a grant given at the same moment lands before this reads the keys, or after the link.
    const account = await lockedStanding(trx, existing.id);
    if (!account || account.is_super_admin || account.keys.some((k) => k.cluster_id === null)) {
      throw new SignInRefused(
        'link_refused',
        `The account with the email ${email} is a super admin or holds a key on all clusters: it is never linked by email`,
        existing.id,
      );
    }
    await repo.linkIdentity(trx, { user_id: existing.id, provider: p.id, subject, email });
    await audit.record(
      trx,
      { userId: existing.id, origin },
      {
        action: 'completeSsoSignIn',
        target: { type: 'user', id: existing.id },
        after: { provider: p.id, subject, linked_email: email },
      },
    );
    return existing;
  }

  /**
   * The grants the mappings give a new account: each only while its author may still grant it (an active account
   * holding the key there), so a mapping never gives more than its author could give by hand today.
   */
  async function grantsOfMappings(
    trx: Knex.Transaction,
    mapped: MappedGrant[],
  ): Promise<{ given: Array<Omit<MappedGrant, 'created_by'>>; skipped: string[] }> {
    // The authors' rows are held until the account is made: a key taken from one at this moment lands before or after.
    const authorities = await repo.authorities(
      trx,
      mapped.flatMap((m) => (m.created_by ? [m.created_by] : [])),
      true,
    );
    const given = new Map<string, Omit<MappedGrant, 'created_by'>>();
    const refused = new Map<string, string>();
    for (const m of mapped) {
      const name = grantName(m);
      const reason = notGrantingReason(m, m.created_by, authorities);
      if (reason === null) given.set(name, { permission_key: m.permission_key, cluster_id: m.cluster_id });
      else refused.set(name, reason);
    }
    // A grant another mapping still gives is given; it is skipped only when no mapping may give it.
    const skipped = [...refused].filter(([name]) => !given.has(name)).map(([name, reason]) => `${name}: ${reason}`);
    return { given: [...given.values()], skipped };
  }

  return {
    listProviders: (): Schemas['SsoProviderList'] => ({
      data: providers.list().map((p) => ({ id: p.id, display_name: p.displayName })),
    }),

    /**
     * The provider's authorization URL for a new sign-in, remembered by its state, and that state, which the browser
     * keeps (a cookie) to prove at the callback that it began the sign-in; null when the provider cannot be reached.
     */
    async start(
      providerId: string,
      redirectUri: string,
      returnTo: string | null,
    ): Promise<{ url: string; state: string } | null> {
      const p = providerOf(providerId);
      const pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        code_verifier: oidc.randomPKCECodeVerifier(),
      };
      try {
        const url = await providers.authorizationUrl(p, {
          redirectUri,
          codeVerifier: pending.code_verifier,
          state: pending.state,
          nonce: pending.nonce,
        });
        await repo.insertPendingSignIn(knex, {
          ...pending,
          provider: p.id,
          redirect_uri: redirectUri,
          return_to: returnTo,
        });
        return { url, state: pending.state };
      } catch (err) {
        if (!(err instanceof ProviderUnavailableError)) throw err;
        logger.warn({ err: err.cause, provider: p.id }, 'identity provider unreachable at sign-in start');
        return null;
      }
    },

    /**
     * Finishes the sign-in the provider sent back (`query`: its redirect's parameters): the one-time code for the
     * console and where to open, or why it failed. A failure leaves no session.
     * `browserState` is the state the browser kept when it began (its cookie): a callback whose state is not the
     * browser's own was begun elsewhere (someone else's sign-in sent as a link: login CSRF) and stops here.
     */
    async complete(
      providerId: string,
      query: Record<string, string | undefined>,
      browserState: string | undefined,
      origin: RequestOrigin,
    ): Promise<{ code: string; returnTo: string | null } | { failure: SsoFailure }> {
      const p = providerOf(providerId);
      if (!query.state || browserState !== query.state) {
        logger.info(
          { provider: p.id, cookie: browserState ? 'another sign-in' : 'none' },
          'single sign-on refused: the callback was not begun in this browser',
        );
        return { failure: 'state' };
      }
      const pending = await repo.takePendingSignIn(knex, p.id, query.state);
      if (!pending) return { failure: 'state' };
      if (query.error) return { failure: 'denied' };
      const callbackUrl = new URL(pending.redirect_uri);
      for (const [k, v] of Object.entries(query)) if (v !== undefined) callbackUrl.searchParams.set(k, v);
      let verified;
      try {
        verified = await providers.verify(p, callbackUrl, {
          codeVerifier: pending.code_verifier,
          state: pending.state,
          nonce: pending.nonce,
        });
      } catch (err) {
        if (err instanceof ProviderUnavailableError) {
          logger.warn({ err: err.cause, provider: p.id }, 'identity provider unreachable at sign-in callback');
          return { failure: 'provider_unavailable' };
        }
        logger.warn({ err, provider: p.id }, 'single sign-on refused: the provider answer did not pass the checks');
        return { failure: 'token' };
      }
      try {
        return await knex.transaction(async (trx) => {
          const account = await accountFor(trx, p, verified.claims, origin);
          const sessionId = await auth.openSsoSession(trx, account.id, origin, {
            provider: p.id,
            idToken: verified.idToken,
          });
          const amr = amrOf(verified.claims);
          await repo.recordSsoAuthentication(trx, sessionId, amr, isSecondFactorAmr(amr));
          const code = randomBytes(32).toString('base64url');
          await repo.insertHandoff(trx, {
            code_hash: hashRefreshToken(code),
            user_id: account.id,
            session_id: sessionId,
            provider: p.id,
            subject: verified.claims.sub,
          });
          return { code, returnTo: pending.return_to };
        });
      } catch (err) {
        if (!(err instanceof SignInRefused)) throw err;
        logger.info({ provider: p.id, reason: err.reason }, `single sign-on refused: ${err.message}`);
        const target = err.accountId
          ? { type: 'user' as const, id: err.accountId }
          : { type: 'session' as const, id: null };
        await audit.record(
          knex,
          { userId: null, origin },
          {
            action: 'login.failed',
            target,
            after: { provider: p.id, subject: verified.claims.sub, reason: err.reason },
          },
        );
        return { failure: err.reason };
      }
    },

    /**
     * The tokens of the session a finished sign-in opened, for its one-time code: the sign-in completes here, or goes
     * on to this product's second factor when the policy asks for it (see `issueForSsoSession`).
     */
    async exchange(code: string, origin: RequestOrigin): Promise<SignInOutcome> {
      const handoff = await repo.takeHandoff(knex, hashRefreshToken(code));
      if (!handoff) throw new UnauthorizedError(BAD_SSO_CODE);
      return auth.issueForSsoSession(handoff.user_id, handoff.session_id, origin, {
        provider: handoff.provider,
        subject: handoff.subject,
      });
    },

    /** Ends the session, and answers the provider's end-session URL when it began there. */
    async logout(
      refreshToken: string,
      origin: RequestOrigin,
      afterLogout: string,
    ): Promise<Schemas['SsoLogoutResult']> {
      const ended = await auth.endSession(refreshToken, origin);
      const p = ended?.sso_provider ? providers.find(ended.sso_provider) : undefined;
      return { end_session_url: p ? await providers.endSessionUrl(p, ended!.sso_id_token, afterLogout) : null };
    },

    /** Every mapping, each saying whether it still grants: its author may have lost the key since. */
    async listGroupMappings(auth: AuthContext): Promise<Schemas['SsoGroupMappingList']> {
      assertCan(auth, 'grant.manage', null);
      const rows = await repo.listMappings(knex);
      const authorities = await repo.authorities(
        knex,
        rows.flatMap((m) => (m.created_by ? [m.created_by] : [])),
      );
      return { data: rows.map((m) => present(m, authorities)) };
    },

    async createGroupMapping(
      auth: AuthContext,
      input: Schemas['SsoGroupMappingInput'],
    ): Promise<Schemas['SsoGroupMapping']> {
      assertCan(auth, 'grant.manage', null);
      if (!providers.find(input.provider)) {
        throw new BadRequestError(`No identity provider "${input.provider}" is configured`, [
          { path: '/body/provider', message: 'unknown provider' },
        ]);
      }
      const clusterId = input.cluster_id ?? null;
      assertScopeFitsKey(input.permission_key, clusterId);
      return knex.transaction(async (trx) => {
        // The author's keys as they are now, held until the mapping is written: it maps only what it could grant.
        const authorities = await repo.authorities(trx, [auth.userId], true);
        const author = authorities.get(auth.userId);
        if (!author?.is_active) throw new ForbiddenError('Your account can no longer change grants');
        if (clusterId && !(await repo.clusterExists(trx, clusterId))) throw new NotFoundError('Cluster not found');
        assertMayGrant(author.permissions, input.permission_key, clusterId, 'map a group to');
        let id: string;
        try {
          id = await repo.insertMapping(trx, {
            provider: input.provider,
            group_value: input.group,
            permission_key: input.permission_key,
            cluster_id: clusterId,
            created_by: auth.userId,
          });
        } catch (err) {
          if (isUniqueViolation(err))
            throw new ConflictError(
              `The group "${input.group}" of ${input.provider} already maps to ${input.permission_key} there`,
            );
          throw err;
        }
        const created = present((await repo.findMapping(trx, id))!, authorities);
        await audit.record(trx, auth, {
          action: 'createSsoGroupMapping',
          target: { type: 'sso_group_mapping', id },
          after: {
            provider: created.provider,
            group: created.group,
            permission_key: created.permission_key,
            cluster_id: created.cluster_id,
          },
        });
        return created;
      });
    },

    async deleteGroupMapping(auth: AuthContext, id: string): Promise<void> {
      assertCan(auth, 'grant.manage', null);
      await knex.transaction(async (trx) => {
        const mapping = await repo.findMapping(trx, id);
        if (!mapping || !(await repo.deleteMapping(trx, id))) throw new NotFoundError('Group mapping not found');
        await audit.record(trx, auth, {
          action: 'deleteSsoGroupMapping',
          target: { type: 'sso_group_mapping', id },
          before: {
            provider: mapping.provider,
            group: mapping.group_value,
            permission_key: mapping.permission_key,
            cluster_id: mapping.cluster_id,
          },
        });
      });
    },

    async userSso(auth: AuthContext, userId: string): Promise<Schemas['UserSso']> {
      assertCan(auth, 'user.read', null);
      const found = await repo.userSso(knex, userId);
      if (!found) throw new NotFoundError('User not found');
      assertPerson(found);
      return presentUserSso(found);
    },

    async setSsoOnly(auth: AuthContext, userId: string, ssoOnly: boolean): Promise<Schemas['UserSso']> {
      assertCan(auth, 'user.manage', null);
      return knex.transaction(async (trx) => {
        // Locked first, so the keys read are the account's until the change is written.
        const target = await lockedStanding(trx, userId);
        if (!target) throw new NotFoundError('User not found');
        assertPerson(target);
        assertMayActOn(auth, target, 'change the single sign-on settings of');
        const found = await repo.userSso(trx, userId);
        if (!found) throw new NotFoundError('User not found');
        if (ssoOnly && found.identities.length === 0) {
          throw new ConflictError(
            'The account is linked to no identity provider yet: it must sign in with one once before it can be SSO-only',
          );
        }
        if (found.sso_only !== ssoOnly) {
          await repo.setSsoOnly(trx, userId, ssoOnly);
          if (ssoOnly) await repo.endPasswordSessions(trx, userId);
          await audit.record(trx, auth, {
            action: 'setUserSsoOnly',
            target: { type: 'user', id: userId },
            before: { sso_only: found.sso_only },
            after: { sso_only: ssoOnly },
          });
        }
        return presentUserSso({ ...found, sso_only: ssoOnly });
      });
    },
  };
}

function presentUserSso(found: {
  sso_only: boolean;
  identities: Array<{
    provider: string;
    subject: string;
    email: string | null;
    created_at: Date;
    last_sign_in_at: Date;
  }>;
}): Schemas['UserSso'] {
  return {
    sso_only: found.sso_only,
    identities: found.identities.map((i) => ({
      provider: i.provider,
      subject: i.subject,
      email: i.email,
      created_at: iso(i.created_at),
      last_sign_in_at: iso(i.last_sign_in_at),
    })),
  };
}

export type SsoService = ReturnType<typeof ssoService>;
