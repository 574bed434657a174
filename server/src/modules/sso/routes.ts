import type { Request } from 'express';
import { originOf } from '../../http/auth.js';
import { operations } from '../../http/handler.js';
import { baseUrlOf } from '../../http/static.js';
import type { SsoService } from './service.js';

/** A console path to open after signing in: same site only (no scheme, no `//host`), else none. */
function sameSitePath(path: string | undefined): string | null {
  return path && /^\/(?![/\\])/.test(path) ? path : null;
}

/**
 * The sign-in redirects are browser navigations, so they answer 302s, never problem documents: a failure goes back
 * to the console's login page with the reason (`sso_error`), which explains it.
 */
export function ssoRoutes(sso: SsoService, publicBaseUrl: string | null) {
  const baseOf = (req: Request) => baseUrlOf(req, publicBaseUrl);
  const loginPage = (req: Request, params: Record<string, string>) => `${baseOf(req)}/#/login?${new URLSearchParams(params)}`;
  const redirect = (location: string) => ({ status: 302 as const, headers: { Location: location } });

  return operations({
    listSsoProviders: async () => ({ status: 200, body: sso.listProviders() }),
    startSsoSignIn: async ({ params, query, req }) => {
      const callback = `${baseOf(req)}/api/auth/sso/${params.provider}/callback`;
      const url = await sso.start(params.provider, callback, sameSitePath(query.return_to));
      return redirect(url ?? loginPage(req, { sso_error: 'provider_unavailable' }));
    },
    completeSsoSignIn: async ({ params, query, req }) => {
      const outcome = await sso.complete(params.provider, query, originOf(req));
      if ('failure' in outcome) return redirect(loginPage(req, { sso_error: outcome.failure }));
      return redirect(loginPage(req, { sso_code: outcome.code, ...(outcome.returnTo ? { return_to: outcome.returnTo } : {}) }));
    },
    exchangeSsoCode: async ({ body, req }) => ({ status: 200, body: await sso.exchange(body.code, originOf(req)) }),
    logoutSso: async ({ body, req }) => ({ status: 200, body: await sso.logout(body.refresh_token, originOf(req), `${baseOf(req)}/`) }),

    listSsoGroupMappings: async ({ auth }) => ({ status: 200, body: await sso.listGroupMappings(auth) }),
    createSsoGroupMapping: async ({ auth, body }) => ({ status: 201, body: await sso.createGroupMapping(auth, body) }),
    deleteSsoGroupMapping: async ({ auth, params }) => {
      await sso.deleteGroupMapping(auth, params.id);
      return { status: 204 };
    },
    getUserSso: async ({ auth, params }) => ({ status: 200, body: await sso.userSso(auth, params.id) }),
    setUserSsoOnly: async ({ auth, params, body }) => ({ status: 200, body: await sso.setSsoOnly(auth, params.id, body.sso_only) }),
  });
}
