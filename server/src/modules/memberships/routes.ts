import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import type { MembershipService } from './service.js';

export function membershipRoutes({ memberships }: { memberships: MembershipService }) {
  return operations({
    listClusterUsers: async ({ auth, params, query }) => ({
      status: 200,
      body: await memberships.listClusterUsers(auth, params.id, query),
    }),
    exportClusterMembers: async ({ auth, query, req }) =>
      csvReply(await memberships.exportClusterUsers(auth, pageOrAll(req, query))),
    addClusterUser: async ({ auth, body }) => versioned(201, await memberships.addClusterUser(auth, body)),
    updateClusterUser: async ({ auth, params, body, req }) =>
      versioned(200, await memberships.updateClusterUser(auth, params.id, body, ifMatch(req.headers['if-match']))),
    removeClusterUser: async ({ auth, params }) => {
      await memberships.removeClusterUser(auth, params.id);
      return { status: 204 };
    },

    listBusinessUnitUsers: async ({ auth, params, query }) => ({
      status: 200,
      body: await memberships.listBusinessUnitUsers(auth, params.id, query),
    }),
    exportBusinessUnitMembers: async ({ auth, query, req }) =>
      csvReply(await memberships.exportBusinessUnitUsers(auth, pageOrAll(req, query))),
    addBusinessUnitUser: async ({ auth, body }) => versioned(201, await memberships.addBusinessUnitUser(auth, body)),
    updateBusinessUnitUser: async ({ auth, params, body, req }) =>
      versioned(200, await memberships.updateBusinessUnitUser(auth, params.id, body, ifMatch(req.headers['if-match']))),
    removeBusinessUnitUser: async ({ auth, params }) => {
      await memberships.removeBusinessUnitUser(auth, params.id);
      return { status: 204 };
    },
  });
}
