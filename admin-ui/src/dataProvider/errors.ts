import { HttpError } from 'react-admin';
import type { Problem } from '../types';

/** `/body/code` or `body.code` or `code` → `code`, so react-admin can show it under the field. */
function fieldOf(path: string): string {
  const parts = path.split(/[/.]/).filter(Boolean);
  if (parts[0] === 'body') parts.shift();
  return parts.join('.') || path;
}

/** Turns a failed response into the HttpError react-admin understands (field errors under body.errors). */
export function toHttpError(status: number, body: unknown): HttpError {
  // Anything in front of the API (a proxy, a dev server) may answer with less than a full problem.
  const problem: Partial<Problem> = body && typeof body === 'object' ? body : {};
  const message = problem.detail || problem.title || (typeof body === 'string' && body ? body : `HTTP ${status}`);
  const fieldErrors: Record<string, string> = {};
  for (const e of problem.errors ?? []) {
    if (e.path && e.message) fieldErrors[fieldOf(e.path)] = e.message;
  }
  return new HttpError(message, status, {
    ...problem,
    ...(Object.keys(fieldErrors).length ? { errors: fieldErrors } : {}),
    problemErrors: problem.errors,
  });
}

/** The problem types the console acts on, by the last segment of their URI. */
export const PROBLEM = {
  /** The account must change its initial or reset password before anything else (403). */
  passwordChangeRequired: 'password-change-required',
  /** The account was deactivated while signed in (401): signing in again cannot help. */
  accountDeactivated: 'account-deactivated',
  /** This device's session was revoked (401): by the user elsewhere, or by a password change. */
  sessionEnded: 'session-ended',
  /** The account must set up a second factor before anything else (403). */
  enrolmentRequired: 'second-factor-enrolment-required',
  /** A sensitive action needs a second factor used within the last minutes (403): asked for in place. */
  stepUpRequired: 'step-up-required',
  /** A wrong or used code, or a passkey that did not verify (401): the session itself is fine. */
  secondFactorInvalid: 'second-factor-invalid',
  /** The sign-in between the password and the second factor expired or was used (401): start again. */
  secondFactorTokenInvalid: 'second-factor-token-invalid',
} as const;

export type ProblemName = (typeof PROBLEM)[keyof typeof PROBLEM];

/** Why a session ended other than by expiring: the login page says so. */
export type SessionEndReason = typeof PROBLEM.accountDeactivated | typeof PROBLEM.sessionEnded;

const SESSION_END_REASONS: readonly string[] = [PROBLEM.accountDeactivated, PROBLEM.sessionEnded];

/** The last path segment of a problem type URI (`…/problems/session-ended` → `session-ended`), or undefined. */
export function problemNameOf(type: unknown): string | undefined {
  if (typeof type !== 'string' || !type || type === 'about:blank') return undefined;
  return (
    type
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() || undefined
  );
}

/** The problem name an error of the data provider carries (its body is the problem document). */
export function problemOfError(error: unknown): string | undefined {
  const body = typeof error === 'object' && error !== null ? (error as { body?: unknown }).body : undefined;
  return typeof body === 'object' && body !== null ? problemNameOf((body as { type?: unknown }).type) : undefined;
}

export function isSessionEndReason(name: string | undefined): name is SessionEndReason {
  return name !== undefined && SESSION_END_REASONS.includes(name);
}

/** The problem name of a failed response, read from a copy of its body (the caller still gets the original). */
export async function problemOfResponse(res: Response): Promise<string | undefined> {
  try {
    const body: unknown = await res.clone().json();
    return typeof body === 'object' && body !== null ? problemNameOf((body as { type?: unknown }).type) : undefined;
  } catch {
    // No JSON body (a proxy's page, an empty answer): no problem type to act on.
    return undefined;
  }
}
