import { BadRequestError } from '../../core/errors.js';
import { originOf } from '../../http/auth.js';
import { operations } from '../../http/handler.js';
import { requestLogNotes } from '../../http/logging.js';
import type { AuthService } from './service.js';

export function authRoutes({ auth }: { auth: AuthService }) {
  return operations({
    login: async ({ body, req, res }) => {
      const login = body.username ?? body.email;
      if (!login) throw new BadRequestError('Send a username or an email address with the password.');
      const device = auth.devices.ofRequest(req);
      // A refused sign-in is a warning in the request's log line, naming the account tried.
      const { tokens, userId } = await auth.login(login, body.password, originOf(req), device, (attempt) => {
        requestLogNotes(res).signInRefused = attempt;
      });
      // The device cookie: the next sign-in of this account from this browser is judged by this device's failures only.
      return {
        status: 200,
        body: tokens,
        headers: { 'Set-Cookie': auth.devices.setCookie(userId, device, req.secure) },
      };
    },
    refreshToken: async ({ body, req }) => ({
      status: 200,
      body: await auth.refresh(body.refresh_token, originOf(req)),
    }),
    logout: async ({ body, req }) => {
      await auth.logout(body.refresh_token, originOf(req));
      return { status: 204 };
    },
    getPlatformPermissions: async ({ auth: caller }) => ({
      status: 200,
      body: await auth.platformPermissions(caller),
    }),
    changeMyPassword: async ({ auth: caller, body }) => {
      await auth.changePassword(caller, body);
      return { status: 204 };
    },
    listMySessions: async ({ auth: caller }) => ({ status: 200, body: await auth.listSessions(caller) }),
    revokeMySession: async ({ auth: caller, params }) => {
      await auth.revokeSession(caller, params.id);
      return { status: 204 };
    },
    revokeMyOtherSessions: async ({ auth: caller }) => ({ status: 200, body: await auth.revokeOtherSessions(caller) }),
  });
}
