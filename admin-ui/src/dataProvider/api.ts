import createClient from 'openapi-fetch';
import type { paths } from './schema';
import { createSession, type FetchLike } from './session';
import { tokenStore, type TokenPair } from './tokens';
import { toHttpError } from './errors';
import type { PlatformPermissions } from '../auth/permissions';

/** The single typed client of the contract, plus the session calls the auth provider needs. */
export function createApi(options: { baseUrl?: string; fetch?: FetchLike } = {}) {
  // Relative in the browser: the console is served by the API server (or proxied by vite in development).
  const baseUrl = options.baseUrl ?? '';
  const session = createSession({ baseUrl, fetch: options.fetch });
  const client = createClient<paths>({ baseUrl, fetch: session.authFetch });

  const auth = {
    async login(username: string, password: string): Promise<void> {
      const { data, error, response } = await client.POST('/api/auth/login', { body: { username, password } });
      if (!data) throw toHttpError(response.status, error);
      tokenStore.set(data as TokenPair);
    },
    async logout(refreshToken: string): Promise<void> {
      await client.POST('/api/auth/logout', { body: { refresh_token: refreshToken } });
    },
    async permissions(): Promise<PlatformPermissions> {
      const { data, error, response } = await client.GET('/api/user/permission/platform');
      if (!data) throw toHttpError(response.status, error);
      return data as PlatformPermissions;
    },
  };

  return { client, session, auth, baseUrl };
}

export type Api = ReturnType<typeof createApi>;
export type ApiClient = Api['client'];

export const api = createApi();
