import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { authRepository, type StoredSession } from './repository.js';
import { sessionMethods } from './service.js';

type Session = Schemas['Session'];

/**
 * A session as My sessions and an administrator's list of an account's sessions show it. `current` is the session of
 * the caller's own access token: on another account's list it is never true, since a session is one account's.
 */
export function presentSession(r: StoredSession, callerSessionId: string | undefined): Session {
  return {
    id: r.id,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: new Date(r.last_used_at).toISOString(),
    // The contract's address shape; an address with a zone id (fe80::1%eth0) is shown without one.
    ip: r.ip === null ? null : r.ip.replace(/%.*$/, '').slice(0, 45) || null,
    user_agent: r.user_agent === null ? null : r.user_agent.slice(0, 500),
    current: r.id === callerSessionId,
    methods: sessionMethods(r.methods),
    sso_provider: r.sso_provider,
    second_factor_at: r.second_factor_at === null ? null : new Date(r.second_factor_at).toISOString(),
  };
}

/**
 * An account's sessions for the modules that act on accounts (an administrator ending another person's sessions):
 * the same reads and revocations as the caller's own, so a session ends the same way whoever ends it (its refresh
 * tokens with it, and its next request answered 401 session-ended).
 */
export function accountSessions({ knex }: { knex: Knex }) {
  const repo = authRepository({ knex });
  return {
    /** The account's live sessions, most recently used first. */
    list: (userId: string): Promise<StoredSession[]> => repo.listSessions(userId),
    /** Ends the session when it is the account's and live; false otherwise. */
    revoke: (trx: Knex.Transaction, userId: string, sessionId: string): Promise<boolean> =>
      repo.revokeSession(trx, userId, sessionId),
    /** Ends every live session of the account; how many ended. */
    revokeAll: (trx: Knex.Transaction, userId: string): Promise<number> => repo.revokeSessionsExcept(trx, userId, null),
  };
}
