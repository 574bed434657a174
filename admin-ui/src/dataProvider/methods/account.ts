import type { Identifier } from 'react-admin';
import type { Schemas } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';

export type PasswordChange = Schemas['PasswordChange'];
export type AccountSession = Schemas['Session'];
export type AccountSessionList = Schemas['SessionList'];
export type RevokedSessions = Schemas['RevokedSessions'];

/** The caller's own password and sessions. */
export function accountMethods(c: ApiClient) {
  return {
    /** 204 once changed; the server then ends every other session of the caller. */
    async changeMyPassword(body: PasswordChange): Promise<void> {
      unwrap(await c.PUT('/api-system/me/password', { body: pickWritable(body, WRITABLE.PasswordChange) }));
    },
    async listMySessions(): Promise<AccountSessionList> {
      return unwrap(await c.GET('/api-system/me/sessions'));
    },
    async revokeMySession(sessionId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/me/sessions/{id}', { params: { path: { id: String(sessionId) } } }));
    },
    async revokeMyOtherSessions(): Promise<RevokedSessions> {
      return unwrap(await c.POST('/api-system/me/sessions/revoke-others'));
    },
  };
}
