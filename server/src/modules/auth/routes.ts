import { BadRequestError } from '../../core/errors.js';
import { operations } from '../../http/handler.js';
import type { AuthService } from './service.js';

export function authRoutes(auth: AuthService) {
  return operations({
    login: async ({ body }) => {
      const login = body.username ?? body.email;
      if (!login) throw new BadRequestError('Send a username or an email address with the password.');
      return { status: 200, body: await auth.login(login, body.password) };
    },
    refreshToken: async ({ body }) => ({ status: 200, body: await auth.refresh(body.refresh_token) }),
    logout: async ({ body }) => {
      await auth.logout(body.refresh_token);
      return { status: 204 };
    },
    getPlatformPermissions: async ({ auth: caller }) => ({ status: 200, body: await auth.platformPermissions(caller.userId) }),
  });
}
