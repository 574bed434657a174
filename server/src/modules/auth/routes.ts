import { BadRequestError } from '../../core/errors.js';
import { consoleOriginOf, originOf } from '../../http/auth.js';
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
      const outcome = await auth.login(login, body.password, originOf(req), device, (attempt) => {
        requestLogNotes(res).signInRefused = attempt;
      });
      // The device cookie: the next sign-in of this account from this browser is judged by this device's failures
      // only. Set with the second step's 202 too: the password was right.
      const headers = { 'Set-Cookie': auth.devices.setCookie(outcome.userId, device, req.secure) };
      if ('challenge' in outcome) return { status: 202, body: outcome.challenge, headers };
      return { status: 200, body: outcome.tokens, headers };
    },
    verifySecondFactor: async ({ body, req }) => ({
      status: 200,
      body: await auth.verifySecondFactor(body, originOf(req), auth.devices.ofRequest(req)),
    }),
    passkeySignInOptions: async ({ body, req }) => ({
      status: 200,
      body: await auth.passkeySignInOptions(body.second_factor_token, consoleOriginOf(req)),
    }),
    signInWithPasskey: async ({ body, req }) => ({
      status: 200,
      body: await auth.signInWithPasskey(body, originOf(req), auth.devices.ofRequest(req), consoleOriginOf(req)),
    }),
    stepUpPasskeyOptions: async ({ auth: caller, req }) => ({
      status: 200,
      body: await auth.stepUpOptions(caller, consoleOriginOf(req)),
    }),
    stepUp: async ({ auth: caller, body, req }) => ({
      status: 200,
      body: await auth.stepUp(caller, body, consoleOriginOf(req)),
    }),
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
