import type { CookieOptions, Request } from 'express';
import { originOf } from '../../http/auth.js';
import { operations } from '../../http/handler.js';
import { baseUrlOf } from '../../http/static.js';
import type { SsoService } from './service.js';

/** A console path to open after signing in: same site only (no scheme, no `//host`), else none. */
function sameSitePath(path: string | undefined): string | null {
  return path && /^\/(?![/\\])/.test(path) ? path : null;
}

/** The cookie that binds a sign-in to the browser that began it: it holds the sign-in's state. */
const STATE_COOKIE = 'sso_state';
/** As long as a sign-in in flight is remembered. */
const STATE_COOKIE_MS = 10 * 60 * 1000;

/** A cookie of the request, by name (no cookie middleware: this is the only cookie the service reads). */
function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The state cookie's attributes: sent back only to the provider's callback, never readable by scripts, kept on the
 * provider's redirect back (a top-level navigation, which SameSite=Lax allows) and over https only where the
 * service is reached by https.
 */
function stateCookie(callbackUrl: string): CookieOptions {
  const url = new URL(callbackUrl);
  return { httpOnly: true, sameSite: 'lax', secure: url.protocol === 'https:', path: url.pathname };
}

/**
 * The sign-in redirects are browser navigations, so they answer 302s, never problem documents: a failure goes back
 * to the console's login page with the reason (`sso_error`), which explains it.
 */
export function ssoRoutes({ sso, publicBaseUrl }: { sso: SsoService; publicBaseUrl: string | null }) {
  const baseOf = (req: Request) => baseUrlOf(req, publicBaseUrl);
  const loginPage = (req: Request, params: Record<string, string>) =>
    `${baseOf(req)}/#/login?${new URLSearchParams(params).toString()}`;
  const redirect = (location: string) => ({ status: 302 as const, headers: { Location: location } });
  const callbackOf = (req: Request, provider: string) => `${baseOf(req)}/api/auth/sso/${provider}/callback`;

  return operations({
    listSsoProviders: () => Promise.resolve({ status: 200, body: sso.listProviders() }),
    startSsoSignIn: async ({ params, query, req, res }) => {
      const callback = callbackOf(req, params.provider);
      const started = await sso.start(params.provider, callback, sameSitePath(query.return_to));
      if (!started) return redirect(loginPage(req, { sso_error: 'provider_unavailable' }));
      res.cookie(STATE_COOKIE, started.state, { ...stateCookie(callback), maxAge: STATE_COOKIE_MS });
      return redirect(started.url);
    },
    completeSsoSignIn: async ({ params, query, req, res }) => {
      // Spent whatever the outcome: a callback is the end of the sign-in it began.
      res.clearCookie(STATE_COOKIE, stateCookie(callbackOf(req, params.provider)));
      const outcome = await sso.complete(params.provider, query, cookieOf(req, STATE_COOKIE), originOf(req));
      if ('failure' in outcome) return redirect(loginPage(req, { sso_error: outcome.failure }));
      return redirect(
        loginPage(req, { sso_code: outcome.code, ...(outcome.returnTo ? { return_to: outcome.returnTo } : {}) }),
      );
    },
    exchangeSsoCode: async ({ body, req }) => {
      const outcome = await sso.exchange(body.code, originOf(req));
      return 'challenge' in outcome ? { status: 202, body: outcome.challenge } : { status: 200, body: outcome.tokens };
    },
    logoutSso: async ({ body, req }) => ({
      status: 200,
      body: await sso.logout(body.refresh_token, originOf(req), `${baseOf(req)}/`),
    }),

    listSsoGroupMappings: async ({ auth }) => ({ status: 200, body: await sso.listGroupMappings(auth) }),
    createSsoGroupMapping: async ({ auth, body }) => ({ status: 201, body: await sso.createGroupMapping(auth, body) }),
    deleteSsoGroupMapping: async ({ auth, params }) => {
      await sso.deleteGroupMapping(auth, params.id);
      return { status: 204 };
    },
    getUserSso: async ({ auth, params }) => ({ status: 200, body: await sso.userSso(auth, params.id) }),
    setUserSsoOnly: async ({ auth, params, body }) => ({
      status: 200,
      body: await sso.setSsoOnly(auth, params.id, body.sso_only),
    }),
  });
}
