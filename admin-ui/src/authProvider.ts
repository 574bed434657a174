import type { AuthProvider, UserIdentity } from 'react-admin';
import { api, type Api } from './dataProvider/api';
import { tokenStore } from './dataProvider/tokens';
import type { PlatformPermissions } from './types';
import { canAccessWith } from './auth/permissions';

/**
 * Session and permission handling. Tokens are refreshed inside the API client (single flight on
 * the first 401); here a 401 only ends the session when that refresh has failed, and a 403 never does.
 */
export function createAuthProvider(deps: Api = api): AuthProvider {
  let cached: { token: string | null; perms: Promise<PlatformPermissions> } | null = null;

  function permissions(): Promise<PlatformPermissions> {
    // Signed out: there is nothing to ask the server, and asking would only log a 401 on the login page.
    if (!tokenStore.access && !tokenStore.refresh) {
      return Promise.reject(Object.assign(new Error('ra.auth.auth_check_error'), { status: 401 }));
    }
    const token = tokenStore.refresh;
    if (!cached || cached.token !== token) {
      const perms = deps.auth.permissions();
      cached = { token, perms };
      perms.catch(() => {
        if (cached?.perms === perms) cached = null;
      });
    }
    return cached.perms;
  }

  return {
    async login(params: { username: string; password: string }) {
      cached = null;
      await deps.auth.login(params.username, params.password);
      return { redirectTo: '/' };
    },
    async logout() {
      cached = null;
      const refresh = tokenStore.refresh;
      tokenStore.clear();
      if (refresh) await deps.auth.logout(refresh).catch(() => undefined);
    },
    async checkAuth() {
      if (!tokenStore.access && !tokenStore.refresh) throw new Error('ra.auth.auth_check_error');
    },
    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        // The client already tried a refresh for this call; a second attempt joins or repeats it once.
        if (tokenStore.refresh && (await deps.session.refresh())) return;
        cached = null;
        tokenStore.clear();
        throw new Error('ra.notification.logged_out');
      }
      // 403 and everything else: the session is still valid.
    },
    async getIdentity(): Promise<UserIdentity> {
      const perms = await permissions();
      const u = perms.user;
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
