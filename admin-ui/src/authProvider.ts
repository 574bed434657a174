import type { AuthProvider, UserIdentity } from 'react-admin';
import { api, type Api, type SecondFactorChallenge, type SecondFactorCode } from './dataProvider/api';
import { enrolment as defaultEnrolment, type Enrolment } from './dataProvider/enrolment';
import { endReasonStore, tokenStore } from './dataProvider/tokens';
import { reauth as defaultReauth, type Reauth } from './dataProvider/reauth';
import { passwordChange as defaultPasswordChange, type PasswordChange } from './dataProvider/passwordChange';
import { PROBLEM, problemOfError } from './dataProvider/errors';
import type { PlatformPermissions } from './types';
import { canAccessWith } from './auth/permissions';

/** What the login page hands over when its address holds a single sign-on's one-time code. */
export interface SsoSignInParams {
  sso_code: string;
  return_to?: string | null;
}

const isSsoSignIn = (params: object): params is SsoSignInParams =>
  typeof (params as { sso_code?: unknown }).sso_code === 'string';

/**
 * Where a second step goes on from: the password step (the username it was for), or a single sign-on whose provider
 * signed the account in (`sso`, with the console path to open afterwards).
 */
export interface SecondStepOf {
  username?: string;
  sso?: { return_to: string | null };
}

/** The second step of a sign-in, with a code: the token the first step answered. */
export type SecondFactorSignInParams = SecondFactorCode & SecondStepOf & { second_factor_token: string };

/** A passkey sign-in: the second step (with the first step's token), or on its own without a password. */
export type PasskeySignInParams = SecondStepOf & { passkey: true; second_factor_token?: string };

export type SignInParams = { username: string; password: string } | SsoSignInParams | SecondFactorSignInParams;

const isSecondFactorSignIn = (params: object): params is SecondFactorSignInParams =>
  typeof (params as { code?: unknown }).code === 'string' &&
  typeof (params as { second_factor_token?: unknown }).second_factor_token === 'string';

const isPasskeySignIn = (params: object): params is PasskeySignInParams =>
  (params as { passkey?: unknown }).passkey === true;

/**
 * The password was right and the account has a second factor: the login page asks for it next. No session exists yet;
 * the challenge holds the token the second step goes on with, and the methods the account may use.
 */
export class SecondFactorRequired extends Error {
  constructor(readonly challenge: SecondFactorChallenge) {
    super('A second factor is required');
    this.name = 'SecondFactorRequired';
  }
}

export const isSecondFactorRequired = (error: unknown): error is SecondFactorRequired =>
  error instanceof SecondFactorRequired;

/** A console path to open after signing in: same site only (a single leading slash, no `//host` or `/\host`). */
export function sameSitePath(path: string | null | undefined): string | null {
  return path && /^\/(?![/\\])/.test(path) ? path : null;
}

/**
 * Session and permission handling. Tokens are refreshed inside the API client (single flight on
 * the first 401); here a 401 only ends the session when that refresh has failed, and a 403 never does.
 * The permissions also say whether the account must change its password first (`passwordChange`).
 */
export function createAuthProvider(
  deps: Api = api,
  reauth: Reauth = defaultReauth,
  passwordChange: PasswordChange = defaultPasswordChange,
  enrolment: Enrolment = defaultEnrolment,
): AuthProvider {
  let cached: { token: string | null; generation: string; perms: Promise<PlatformPermissions> } | null = null;

  function permissions(): Promise<PlatformPermissions> {
    // The user is being asked to sign in again in place: the answer comes with the new session.
    if (!tokenStore.access && !tokenStore.refresh && reauth.isAsking()) {
      return reauth.request().then(() => permissions());
    }
    // Signed out: there is nothing to ask the server, and asking would only log a 401 on the login page.
    if (!tokenStore.access && !tokenStore.refresh) {
      return Promise.reject(Object.assign(new Error('ra.auth.auth_check_error'), { status: 401 }));
    }
    const token = tokenStore.refresh;
    // A password change keeps the session (and its tokens) but changes what the permissions say.
    // So does a second factor set up by an account that had to.
    const generationNow = () => `${passwordChange.generation()}.${enrolment.generation()}`;
    const generation = generationNow();
    if (!cached || cached.token !== token || cached.generation !== generation) {
      const perms = deps.auth.permissions();
      cached = { token, generation, perms };
      perms.then(
        (p) => {
          // The sign-in-again dialog fills the username in from the session.
          reauth.rememberUser(p.user?.username);
          // Read before a change that happened meanwhile: the next read says it anew.
          if (cached?.perms === perms && generationNow() === generation) {
            passwordChange.fromPermissions(p.must_change_password);
            enrolment.fromPermissions(p.must_enrol_second_factor);
          }
        },
        () => undefined,
      );
      perms.catch(() => {
        if (cached?.perms === perms) cached = null;
      });
    }
    return cached.perms;
  }

  /**
   * Exchanges the code for the session the provider's callback opened; the tokens are kept as a password sign-in's.
   * When the policy asks single sign-ons for a second factor too, rejects with SecondFactorRequired, as a password does.
   */
  async function ssoSignIn(params: SsoSignInParams) {
    cached = null;
    const challenge = await deps.auth.exchangeSsoCode(params.sso_code);
    if (challenge) throw new SecondFactorRequired(challenge);
    return signedIn({ sso: { return_to: params.return_to ?? null } });
  }

  /** A session is open: the login page has said why the last one ended. */
  function signedIn({ username, sso }: SecondStepOf) {
    // Whether the password must change (or a factor be set up) stays as it was: signing in again in place is the
    // same account, and the permissions read next say it anew.
    endReasonStore.clear();
    if (!sso) reauth.rememberUser(username);
    // After a single sign-on, the path the user wanted before going to the provider, if it is one of the console's own.
    return { redirectTo: (sso && sameSitePath(sso.return_to)) ?? '/' };
  }

  return {
    /**
     * react-admin's useLogin is the one way in (it resets the permissions it holds): an SSO code, the second step and
     * a passkey come this way too. A password step that needs a second factor rejects with SecondFactorRequired.
     */
    async login(params: SignInParams | PasskeySignInParams) {
      if (isSsoSignIn(params)) return ssoSignIn(params);
      cached = null;
      if (isPasskeySignIn(params)) {
        await deps.auth.signInWithPasskey(params.second_factor_token, params.sso ? 'sso' : 'password');
        return signedIn(params);
      }
      if (isSecondFactorSignIn(params)) {
        await deps.auth.verifySecondFactor(params.second_factor_token, params, params.sso ? 'sso' : 'password');
        return signedIn(params);
      }
      const challenge = await deps.auth.login(params.username, params.password);
      if (challenge) throw new SecondFactorRequired(challenge);
      return signedIn(params);
    },
    async logout(): Promise<string | void> {
      cached = null;
      passwordChange.reset();
      enrolment.reset();
      const refresh = tokenStore.refresh;
      const fromSso = tokenStore.fromSso;
      tokenStore.clear();
      if (!refresh) return;
      if (!fromSso) {
        await deps.auth.logout(refresh).catch(() => undefined);
        return;
      }
      // The provider's session outlives ours: react-admin sends the browser to an absolute URL it is given, so the
      // provider can end its session too and send the browser back to the login page.
      const endSessionUrl = await deps.auth.logoutSso(refresh).catch(() => null);
      return endSessionUrl ?? undefined;
    },
    async checkAuth() {
      if (!tokenStore.access && !tokenStore.refresh && reauth.isAsking()) await reauth.request();
      if (!tokenStore.access && !tokenStore.refresh) throw new Error('ra.auth.auth_check_error');
    },
    async checkError(error: { status?: number; message?: string }) {
      // Asked while nobody is signed in: there is no session to end (ending it again would only loop).
      if (error?.message === 'ra.auth.auth_check_error' && !tokenStore.access && !tokenStore.refresh) return;
      if (error?.status === 401) {
        // The client already tried a refresh for this call; a second attempt joins or repeats it once.
        if (tokenStore.refresh && (await deps.session.refresh())) return;
        cached = null;
        tokenStore.clear();
        throw new Error('ra.notification.logged_out');
      }
      // The server holds every call until the password is changed: the layout then shows only that screen.
      if (error?.status === 403 && problemOfError(error) === PROBLEM.passwordChangeRequired) passwordChange.require();
      // Likewise until a second factor is set up.
      if (error?.status === 403 && problemOfError(error) === PROBLEM.enrolmentRequired) enrolment.require();
      // 403 and everything else: the session is still valid.
    },
    async getIdentity(): Promise<UserIdentity> {
      const perms = await permissions();
      const u = perms.user;
      reauth.rememberUser(u?.username);
      return { id: u?.id ?? 'me', fullName: u?.display_name || u?.username || u?.email || '' };
    },
    async getPermissions() {
      return permissions();
    },
    async canAccess({ action, resource, record }) {
      try {
        return canAccessWith(await permissions(), { action, resource, record });
      } catch (e) {
        // The refresh inside the client already failed: the session is gone, so sign in again
        // rather than showing access-denied.
        if ((e as { status?: number }).status === 401) {
          cached = null;
          tokenStore.clear();
          if (typeof window !== 'undefined') window.location.hash = '#/login';
        }
        return false;
      }
    },
  };
}

export const authProvider = createAuthProvider();
