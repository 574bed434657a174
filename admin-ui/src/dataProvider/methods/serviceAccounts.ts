import type {
  ApiToken,
  ApiTokenCreate,
  ApiTokenCreated,
  ServiceAccount,
  ServiceAccountCreate,
  ServiceAccountPage,
  ServiceAccountUpdate,
} from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';

const byId = (id: string) => ({ params: { path: { id } } });

/** Service accounts (partners' systems) and their API tokens. Their grants are an account's grants (`userMethods`). */
export function serviceAccountMethods(c: ApiClient) {
  return {
    async listServiceAccounts(
      query: { page?: number; perpage?: number; search?: string } = {},
    ): Promise<ServiceAccountPage> {
      return unwrap(await c.GET('/api-system/service-accounts', { params: { query } }));
    },
    async getServiceAccount(id: string): Promise<ServiceAccount> {
      return unwrap(await c.GET('/api-system/service-accounts/{id}', byId(id)));
    },
    /** 409 when another account has the name. */
    async createServiceAccount(input: ServiceAccountCreate): Promise<ServiceAccount> {
      return unwrap(
        await c.POST('/api-system/service-accounts', { body: pickWritable(input, WRITABLE.ServiceAccountCreate) }),
      );
    },
    /** `is_active: false` deactivates it: its tokens get 401 until it is reactivated. */
    async updateServiceAccount(id: string, input: ServiceAccountUpdate): Promise<ServiceAccount> {
      return unwrap(
        await c.PUT('/api-system/service-accounts/{id}', {
          ...byId(id),
          body: pickWritable(input, WRITABLE.ServiceAccountUpdate),
        }),
      );
    },
    async listApiTokens(id: string): Promise<ApiToken[]> {
      return unwrap(await c.GET('/api-system/service-accounts/{id}/tokens', byId(id))).data;
    },
    /** The answer carries the token's secret, this once. */
    async createApiToken(id: string, input: ApiTokenCreate): Promise<ApiTokenCreated> {
      return unwrap(
        await c.POST('/api-system/service-accounts/{id}/tokens', {
          ...byId(id),
          body: pickWritable(input, WRITABLE.ApiTokenCreate),
        }),
      );
    },
    async revokeApiToken(id: string, tokenId: string): Promise<void> {
      unwrap(
        await c.DELETE('/api-system/service-accounts/{id}/tokens/{credentialId}', {
          params: { path: { id, credentialId: tokenId } },
        }),
      );
    },
  };
}
