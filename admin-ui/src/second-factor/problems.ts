import { PROBLEM, problemOfError } from '../dataProvider/errors';
import { isPasskeyCancelled } from '../dataProvider/webauthn';
import { statusOf } from '../lib/problems';

/** A refused second factor in words that say what to do next, as a message key and its arguments. */
export interface FactorProblem {
  message: string;
  args?: Record<string, unknown>;
  /** The sign-in between the password and the second factor is over: only starting again helps. */
  restart?: boolean;
}

function retryAfterSeconds(error: unknown): number {
  const body = typeof error === 'object' && error !== null ? (error as { body?: unknown }).body : undefined;
  const seconds = typeof body === 'object' && body !== null ? (body as { retry_after?: unknown }).retry_after : null;
  return typeof seconds === 'number' && seconds > 0 ? Math.ceil(seconds) : 30;
}

/**
 * A wrong code, too many tries (with the wait, in seconds under a minute), an expired sign-in, a passkey prompt that
 * was closed; anything else is the server's own detail (`reason`).
 */
export function factorProblem(error: unknown, viaPasskey = false): FactorProblem {
  if (isPasskeyCancelled(error)) return { message: 'second_factor.errors.passkey_cancelled' };
  if (statusOf(error) === 429) {
    const seconds = retryAfterSeconds(error);
    return seconds < 60
      ? { message: 'second_factor.errors.throttled_seconds', args: { smart_count: seconds } }
      : { message: 'second_factor.errors.throttled_minutes', args: { smart_count: Math.ceil(seconds / 60) } };
  }
  const problem = problemOfError(error);
  if (problem === PROBLEM.secondFactorInvalid)
    return { message: viaPasskey ? 'second_factor.errors.passkey_invalid' : 'second_factor.errors.invalid' };
  if (problem === PROBLEM.secondFactorTokenInvalid) return { message: 'second_factor.errors.expired', restart: true };
  if (error instanceof TypeError) return { message: 'second_factor.errors.unreachable' };
  const detail = error instanceof Error ? error.message : '';
  return { message: 'second_factor.errors.other', args: { reason: detail || 'HTTP error' } };
}
