/**
 * Whether the signed-in account must choose a new password before anything else (a new account, or an
 * administrator's reset of an open session's password: `password-change-required`).
 */
import { createRequiredStep } from './requiredStep';

export function createPasswordChange() {
  const step = createRequiredStep();
  return { ...step, /** The password was changed. */ changed: step.taken };
}

export type PasswordChange = ReturnType<typeof createPasswordChange>;

export const passwordChange = createPasswordChange();
