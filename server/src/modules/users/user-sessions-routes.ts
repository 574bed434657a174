import { NotFoundError } from '../../core/errors.js';
import { operations } from '../../http/handler.js';

/** Until an administrator's view of another account's sessions is served, its operations answer 404. */
const NOT_SERVED = 'Not served by this server yet: the sessions of another account';

export function userSessionRoutes() {
  return operations({
    listUserSessions: () => Promise.reject(new NotFoundError(NOT_SERVED)),
    revokeUserSession: () => Promise.reject(new NotFoundError(NOT_SERVED)),
    revokeUserSessions: () => Promise.reject(new NotFoundError(NOT_SERVED)),
  });
}
