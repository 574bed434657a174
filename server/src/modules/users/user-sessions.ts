import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { assertMayActOn } from '../../core/delegation.js';
import { NotFoundError } from '../../core/errors.js';
import { assertCan, type AuthContext } from '../../core/permissions.js';
import type { AuditTrail } from '../audit/service.js';
import { accountSessions, presentSession } from '../auth/account-sessions.js';
import { assertPerson, type AccountKind } from './people.js';
import { userRepository } from './repository.js';

const NO_SUCH_SESSION = 'No such session: it is not this account’s, or it has already ended.';

/**
 * The sessions of another account, as a `user.manage` holder sees and ends them (a lost laptop, a colleague who
 * left): under the delegation rule, so nobody signs out, or watches the devices of, an account holding more than
 * they do. One's own account is one's own. A service account has no sessions: it calls with tokens.
 */
export function userSessionService({ knex, audit }: { knex: Knex; audit: AuditTrail }) {
  const users = userRepository({ knex });
  const sessions = accountSessions({ knex });

  /**
   * The delegation rule on the person `account` (as read, or as locked by a write's transaction: then no key or super
   * admin role can reach it between this check and the write).
   */
  async function assertMayActOnPerson(
    db: Knex | Knex.Transaction,
    auth: AuthContext,
    id: string,
    account: { id: string; username: string; kind: AccountKind } | undefined,
    action: string,
  ): Promise<void> {
    if (!account) throw new NotFoundError('User not found');
    assertPerson(account);
    if (id === auth.userId) return;
    const standing = await users.standingOf(db, id);
    if (!standing) throw new NotFoundError('User not found');
    assertMayActOn(auth, standing, action);
  }

  return {
    async list(auth: AuthContext, id: string): Promise<Schemas['SessionList']> {
      assertCan(auth, 'user.manage', null);
      await assertMayActOnPerson(knex, auth, id, await users.findAccount(knex, id), 'see the sessions of');
      return { data: (await sessions.list(id)).map((r) => presentSession(r, auth.sessionId)) };
    },

    /** Ends one session of the account: that device's next request is refused (401 session-ended). */
    async revoke(auth: AuthContext, id: string, sessionId: string): Promise<void> {
      assertCan(auth, 'user.manage', null);
      await knex.transaction(async (trx) => {
        await assertMayActOnPerson(trx, auth, id, await users.lockById(trx, id), 'end the sessions of');
        if (!(await sessions.revoke(trx, id, sessionId))) throw new NotFoundError(NO_SUCH_SESSION);
        // The session names its account, so the trail reads "Ended a session of nok" (audit/labels.ts).
        await audit.record(trx, auth, { action: 'revokeUserSession', target: { type: 'session', id: sessionId } });
      });
    },

    /** Signs the account out everywhere, the caller's own current session too when it is the caller's account. */
    async revokeAll(auth: AuthContext, id: string): Promise<Schemas['RevokedSessions']> {
      assertCan(auth, 'user.manage', null);
      return knex.transaction(async (trx) => {
        await assertMayActOnPerson(trx, auth, id, await users.lockById(trx, id), 'end the sessions of');
        const revoked = await sessions.revokeAll(trx, id);
        await audit.record(trx, auth, {
          action: 'revokeUserSessions',
          target: { type: 'user', id },
          after: { revoked },
        });
        return { revoked };
      });
    },
  };
}

export type UserSessionService = ReturnType<typeof userSessionService>;
