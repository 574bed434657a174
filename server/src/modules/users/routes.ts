import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import { runBulk } from '../../http/bulk.js';
import type { UserService } from './service.js';

export function userRoutes({ users }: { users: UserService }) {
  return operations({
    searchUsers: async ({ auth, query }) => ({ status: 200, body: await users.search(auth, query) }),
    listUsers: async ({ auth, query }) => ({ status: 200, body: await users.list(auth, query) }),
    // A refused export rejects the handler's promise, as every other handler's refusal does.
    exportUsers: ({ auth, query, req }) =>
      Promise.resolve().then(() => csvReply(users.export(auth, pageOrAll(req, query)))),
    bulkUsers: async ({ auth, body, req }) =>
      runBulk(req, body, {
        deactivate: (id) => users.deactivate(auth, id),
        reactivate: (id) => users.reactivate(auth, id),
      }),
    getUser: async ({ auth, params }) => versioned(200, await users.get(auth, params.id)),
    createUser: async ({ auth, body }) => {
      const created = await users.create(auth, body);
      return versioned(201, created, { Location: `/api-system/users/${created.id}` });
    },
    updateUser: async ({ auth, params, body, req }) =>
      versioned(200, await users.update(auth, params.id, body, ifMatch(req.headers['if-match']))),
    deactivateUser: async ({ auth, params }) => versioned(200, await users.deactivate(auth, params.id)),
    reactivateUser: async ({ auth, params }) => versioned(200, await users.reactivate(auth, params.id)),
    resetUserPassword: async ({ auth, params, body }) =>
      versioned(200, await users.resetPassword(auth, params.id, body)),
    unlockUser: async ({ auth, params }) => versioned(200, await users.unlock(auth, params.id)),
    revokeSuperAdmin: async ({ auth, params }) => versioned(200, await users.revokeSuperAdmin(auth, params.id)),
    listUserGrants: async ({ auth, params }) => ({ status: 200, body: await users.listGrants(auth, params.id) }),
    addUserGrant: async ({ auth, params, body }) => ({
      status: 201,
      body: await users.addGrant(auth, params.id, body),
    }),
    removeUserGrant: async ({ auth, params }) => {
      await users.removeGrant(auth, params.id, params.grantId);
      return { status: 204 };
    },
  });
}
