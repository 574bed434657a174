import type { Identifier } from 'react-admin';
import type { Schemas } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';

export type UserSession = Schemas['Session'];
export type UserSessionList = Schemas['SessionList'];
export type UserSecondFactors = Schemas['SecondFactors'];

const byId = (id: Identifier) => ({ params: { path: { id: String(id) } } });

/** Another account's sessions and second factors, for a `user.manage` holder (the delegation rule applies). */
export function userSessionMethods(c: ApiClient) {
  return {
    async listUserSessions(userId: Identifier): Promise<UserSessionList> {
      return unwrap(await c.GET('/api-system/users/{id}/sessions', byId(userId)));
    },
    /** The device is signed out at its next request. */
    async revokeUserSession(userId: Identifier, sessionId: Identifier): Promise<void> {
      unwrap(
        await c.DELETE('/api-system/users/{id}/sessions/{sessionId}', {
          params: { path: { id: String(userId), sessionId: String(sessionId) } },
        }),
      );
    },
    async revokeUserSessions(userId: Identifier): Promise<Schemas['RevokedSessions']> {
      return unwrap(await c.POST('/api-system/users/{id}/sessions/revoke-all', byId(userId)));
    },
    async getUserSecondFactors(userId: Identifier): Promise<UserSecondFactors> {
      return unwrap(await c.GET('/api-system/users/{id}/second-factors', byId(userId)));
    },
    /** Removes every factor: the account must enrol again, and every session of it ends. */
    async resetSecondFactors(userId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/users/{id}/second-factors', byId(userId)));
    },
  };
}
