import createClient from 'openapi-fetch';
import type { paths, PlatformPermissions, Schemas } from '../types';
import { createSession, type FetchLike } from './session';
import { tokenStore } from './tokens';
import { toHttpError } from './errors';
import { WRITABLE, pickWritable } from './writable';
import { reauth } from './reauth';
import { passwordChange } from './passwordChange';
import { enrolment } from './enrolment';
import { stepUp } from './stepUp';
import { passkeyAssertion } from './webauthn';

/** What the password step answers for an account with a second factor: the token of the sign-in's second step. */
export type SecondFactorChallenge = Schemas['SecondFactorChallenge'];
/** How a sign-in's first step was taken: the session's tokens remember it (an SSO sign-out ends the provider's too). */
export type SignedInWith = 'password' | 'sso';
/** A code typed at the second step: from the authenticator app, or one of the recovery codes. */
export type SecondFactorCode = { method: 'totp' | 'recovery_code'; code: string };

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
    onEnrolmentRequired: () => enrolment.require(),
    stepUp: (methods) => stepUp.request(methods),
  });
  const client = createClient<paths>({ baseUrl, fetch: session.authFetch });

  const auth = {
    /**
     * The password step. Null once signed in; for an account with a second factor (202) no session exists yet, and
     * the answer is the challenge the second step continues with.
     */
    async login(username: string, password: string): Promise<SecondFactorChallenge | null> {
      const body = pickWritable({ username, password }, WRITABLE.LoginRequest);
      const { data, error, response } = await client.POST('/api/auth/login', { body });
      if (!data) throw toHttpError(response.status, error);
      if ('second_factor_token' in data) return data;
      tokenStore.set(data, 'password');
      return null;
    },
    /** The second step with a code; opens the session (`signedInWith`: how the first step was taken). */
    async verifySecondFactor(
      token: string,
      { method, code }: SecondFactorCode,
      signedInWith: SignedInWith = 'password',
    ): Promise<void> {
      const body = pickWritable({ second_factor_token: token, method, code }, WRITABLE.SecondFactorVerify);
      const { data, error, response } = await client.POST('/api/auth/second-factor', { body });
      if (!data) throw toHttpError(response.status, error);
      tokenStore.set(data, signedInWith);
    },
    /**
     * Signs in with a passkey: the second step after the password (with its token), or on its own without one (the
     * authenticator then offers the passkeys it holds for this site).
     */
    async signInWithPasskey(token?: string, signedInWith: SignedInWith = 'password'): Promise<void> {
      const tokenPart: Schemas['PasskeySignInOptionsRequest'] = token ? { second_factor_token: token } : {};
      const started = await client.POST('/api/auth/passkey/options', {
        body: pickWritable(tokenPart, WRITABLE.PasskeySignInOptionsRequest),
      });
      if (!started.data) throw toHttpError(started.response.status, started.error);
      const assertion = await passkeyAssertion(started.data.options);
      const { data, error, response } = await client.POST('/api/auth/passkey', {
        body: pickWritable<Schemas['PasskeySignIn'], keyof Schemas['PasskeySignIn']>(
          { challenge_id: started.data.challenge_id, response: assertion, ...tokenPart },
          WRITABLE.PasskeySignIn,
        ),
      });
      if (!data) throw toHttpError(response.status, error);
      tokenStore.set(data, signedInWith);
    },
    /**
     * The one-time code the SSO callback put in the login page's address, for the session it opened. Null once signed
     * in; when the policy asks single sign-ons for this product's second factor too (202), the challenge of that step.
     */
    async exchangeSsoCode(code: string): Promise<SecondFactorChallenge | null> {
      const body = pickWritable({ code }, WRITABLE.SsoExchangeRequest);
      const { data, error, response } = await client.POST('/api/auth/sso/exchange', { body });
      if (!data) throw toHttpError(response.status, error);
      if ('second_factor_token' in data) return data;
      tokenStore.set(data, 'sso');
      return null;
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
