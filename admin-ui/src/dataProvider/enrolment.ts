/**
 * Whether the signed-in account must set up a second factor before anything else (the organisation's policy, or an
 * administrator's reset: `second-factor-enrolment-required`). It comes after a required password change.
 */
import { createRequiredStep } from './requiredStep';

export function createEnrolment() {
  const step = createRequiredStep();
  return { ...step, /** A factor was confirmed. */ enrolled: step.taken };
}

export type Enrolment = ReturnType<typeof createEnrolment>;

export const enrolment = createEnrolment();
