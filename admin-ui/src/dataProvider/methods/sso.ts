import type { Identifier } from 'react-admin';
import type { SsoGroupMapping, SsoGroupMappingInput, SsoProvider, UserSso } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';

const byId = (id: Identifier) => ({ params: { path: { id: String(id) } } });

/** Single sign-on: the providers, the grants their groups give new accounts, and each account's linked identities. */
export function ssoMethods(c: ApiClient) {
  return {
    /** The providers of the login page's "Sign in with" buttons; public, so it also works before signing in. */
    async listSsoProviders(): Promise<SsoProvider[]> {
      return unwrap(await c.GET('/api/auth/sso/providers')).data;
    },
    async listSsoGroupMappings(): Promise<SsoGroupMapping[]> {
      return unwrap(await c.GET('/api-system/sso/group-mappings')).data;
    },
    /** 400 for an unknown provider or a platform key on a cluster, 404 for an unknown cluster, 409 for a duplicate. */
    async createSsoGroupMapping(input: SsoGroupMappingInput): Promise<SsoGroupMapping> {
      return unwrap(
        await c.POST('/api-system/sso/group-mappings', { body: pickWritable(input, WRITABLE.SsoGroupMappingInput) }),
      );
    },
    async deleteSsoGroupMapping(id: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/sso/group-mappings/{id}', byId(id)));
    },
    async getUserSso(userId: Identifier): Promise<UserSso> {
      return unwrap(await c.GET('/api-system/users/{id}/sso', byId(userId)));
    },
    /** 409 when the account was never linked to a provider: it could then no longer sign in at all. */
    async setUserSsoOnly(userId: Identifier, ssoOnly: boolean): Promise<UserSso> {
      return unwrap(
        await c.PUT('/api-system/users/{id}/sso', {
          ...byId(userId),
          body: pickWritable({ sso_only: ssoOnly }, WRITABLE.UserSsoUpdate),
        }),
      );
    },
  };
}
