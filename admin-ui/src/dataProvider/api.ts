import createClient from 'openapi-fetch';
import type { paths, PlatformPermissions } from '../types';
import { createSession, type FetchLike } from './session';
import { tokenStore } from './tokens';
import { toHttpError } from './errors';
import { WRITABLE, pickWritable } from './writable';
import { reauth } from './reauth';
import { passwordChange } from './passwordChange';

/** The single typed client of the contract, plus the session calls the auth provider needs. */
export function createApi(
  options: { baseUrl?: string; fetch?: FetchLike; reauthenticate?: () => Promise<boolean> } = {},
) {
  // Relative in the browser: the console is served by the API server (or proxied by vite in development).
  const baseUrl = options.baseUrl ?? '';
  const session = createSession({
    baseUrl,
    fetch: options.fetch,
    reauthenticate: options.reauthenticate ?? (() => reauth.request()),
    onPasswordChangeRequired: () => passwordChange.require(),
  });
  const client = createClient<paths>({ baseUrl, fetch: session.authFetch });

  const auth = {
    async login(username: string, password: string): Promise<void> {
      const body = pickWritable({ username, password }, WRITABLE.LoginRequest);
      const { data, error, response } = await client.POST('/api/auth/login', { body });
      if (!data) throw toHttpError(response.status, error);
      // 202: the account's second factor is asked for next; the console does not take that step yet.
      if (!('access_token' in data)) throw toHttpError(response.status, undefined);
      tokenStore.set(data, 'password');
    },
    /** The one-time code the SSO callback put in the login page's address, for the session it opened. */
    async exchangeSsoCode(code: string): Promise<void> {
      const body = pickWritable({ code }, WRITABLE.SsoExchangeRequest);
      const { data, error, response } = await client.POST('/api/auth/sso/exchange', { body });
      if (!data) throw toHttpError(response.status, error);
      tokenStore.set(data, 'sso');
    },
    /** Ends an SSO session; answers where the browser should go to end the provider's session too (or null). */
    async logoutSso(refreshToken: string): Promise<string | null> {
      const body = pickWritable({ refresh_token: refreshToken }, WRITABLE.RefreshTokenRequest);
      const { data, error, response } = await client.POST('/api/auth/sso/logout', { body });
      if (!data) throw toHttpError(response.status, error);
      return data.end_session_url;
    },
    async logout(refreshToken: string): Promise<void> {
      const body = pickWritable({ refresh_token: refreshToken }, WRITABLE.RefreshTokenRequest);
      await client.POST('/api/auth/logout', { body });
    },
    async permissions(): Promise<PlatformPermissions> {
      const { data, error, response } = await client.GET('/api/user/permission/platform');
      if (!data) throw toHttpError(response.status, error);
      return data;
    },
  };

  return { client, session, auth, baseUrl };
}

export type Api = ReturnType<typeof createApi>;
export type ApiClient = Api['client'];

export const api = createApi();
