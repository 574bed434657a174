import { NotFoundError } from '../../core/errors.js';
import { operations } from '../../http/handler.js';

const NOT_SERVED = 'Not served by this server yet: second factors';
const notServed = () => Promise.reject(new NotFoundError(NOT_SERVED));

export function secondFactorRoutes() {
  return operations({
    verifySecondFactor: notServed,
    passkeySignInOptions: notServed,
    signInWithPasskey: notServed,
    getMySecondFactors: notServed,
    startTotpEnrolment: notServed,
    removeTotp: notServed,
    confirmTotpEnrolment: notServed,
    regenerateRecoveryCodes: notServed,
    passkeyRegistrationOptions: notServed,
    registerPasskey: notServed,
    removePasskey: notServed,
    stepUpPasskeyOptions: notServed,
    stepUp: notServed,
    getUserSecondFactors: notServed,
    resetSecondFactors: notServed,
    getSecondFactorPolicy: notServed,
    updateSecondFactorPolicy: notServed,
  });
}
