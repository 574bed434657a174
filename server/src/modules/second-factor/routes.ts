import { consoleOriginOf } from '../../http/auth.js';
import { operations } from '../../http/handler.js';
import type { SecondFactorService } from './service.js';

export function secondFactorRoutes({ factors }: { factors: SecondFactorService }) {
  return operations({
    getMySecondFactors: async ({ auth }) => ({ status: 200, body: await factors.mine(auth) }),
    startTotpEnrolment: async ({ auth }) => ({ status: 200, body: await factors.startTotp(auth) }),
    confirmTotpEnrolment: async ({ auth, body }) => ({ status: 200, body: await factors.confirmTotp(auth, body.code) }),
    removeTotp: async ({ auth }) => {
      await factors.removeTotp(auth);
      return { status: 204 };
    },
    regenerateRecoveryCodes: async ({ auth }) => ({ status: 200, body: await factors.regenerateRecoveryCodes(auth) }),
    passkeyRegistrationOptions: async ({ auth, req }) => ({
      status: 200,
      body: await factors.registrationOptions(auth, consoleOriginOf(req)),
    }),
    registerPasskey: async ({ auth, body, req }) => ({
      status: 201,
      body: await factors.registerPasskey(auth, body, consoleOriginOf(req)),
    }),
    removePasskey: async ({ auth, params }) => {
      await factors.removePasskey(auth, params.passkeyId);
      return { status: 204 };
    },
    getUserSecondFactors: async ({ auth, params }) => ({ status: 200, body: await factors.ofUser(auth, params.id) }),
    resetSecondFactors: async ({ auth, params }) => {
      await factors.reset(auth, params.id);
      return { status: 204 };
    },
    getSecondFactorPolicy: async () => ({ status: 200, body: await factors.policy() }),
    updateSecondFactorPolicy: async ({ auth, body }) => ({ status: 200, body: await factors.updatePolicy(auth, body) }),
  });
}
