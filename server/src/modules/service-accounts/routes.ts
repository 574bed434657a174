import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import type { ServiceAccountService } from './service.js';
import type { ApiTokenService } from './tokens.js';

export function serviceAccountRoutes({
  accounts,
  tokens,
}: {
  accounts: ServiceAccountService;
  tokens: ApiTokenService;
}) {
  return operations({
    listServiceAccounts: async ({ auth, query }) => ({ status: 200, body: await accounts.list(auth, query) }),
    createServiceAccount: async ({ auth, body }) => {
      const created = await accounts.create(auth, body);
      return versioned(201, created, { Location: `/api-system/service-accounts/${created.id}` });
    },
    getServiceAccount: async ({ auth, params }) => versioned(200, await accounts.get(auth, params.id)),
    updateServiceAccount: async ({ auth, params, body, req }) =>
      versioned(200, await accounts.update(auth, params.id, body, ifMatch(req.headers['if-match']))),
    listApiTokens: async ({ auth, params }) => ({ status: 200, body: await tokens.list(auth, params.id) }),
    createApiToken: async ({ auth, params, body }) => {
      const created = await tokens.create(auth, params.id, body);
      return {
        status: 201,
        body: created,
        headers: { Location: `/api-system/service-accounts/${params.id}/tokens/${created.id}` },
      };
    },
    revokeApiToken: async ({ auth, params }) => {
      await tokens.revoke(auth, params.id, params.credentialId);
      return { status: 204 };
    },
  });
}
