import { operations } from '../../http/handler.js';
import type { UserSessionService } from './user-sessions.js';

export function userSessionRoutes({ sessions }: { sessions: UserSessionService }) {
  return operations({
    listUserSessions: async ({ auth, params }) => ({ status: 200, body: await sessions.list(auth, params.id) }),
    revokeUserSession: async ({ auth, params }) => {
      await sessions.revoke(auth, params.id, params.sessionId);
      return { status: 204 };
    },
    revokeUserSessions: async ({ auth, params }) => ({ status: 200, body: await sessions.revokeAll(auth, params.id) }),
  });
}
