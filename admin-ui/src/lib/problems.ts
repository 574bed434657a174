/**
 * A failed call in words for a notification. The data provider turns a problem+json answer into an error whose
 * `body.errors` maps each field to its message; here those become "Code: must not be longer than 50 characters"
 * with the field's own label, instead of the raw `/body/code …` detail.
 */
export interface FieldProblem {
  field: string;
  message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field errors an error carries (as the data provider attaches them under `body.errors`). */
export function fieldProblemsOf(error: unknown): FieldProblem[] {
  const body = isRecord(error) ? error.body : undefined;
  const errors = isRecord(body) ? body.errors : undefined;
  if (!isRecord(errors)) return [];
  return Object.entries(errors)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')
    .map(([field, message]) => ({ field, message }));
}

/** The HTTP status an error carries, if any. */
export function statusOf(error: unknown): number | undefined {
  const status = isRecord(error) ? error.status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/** A request cancelled on purpose (its AbortController fired): not a failure to report. */
export const isAbortError = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

/**
 * The reason shown to the user: the field problems with their labels when there are any, else the error's
 * message (the problem's detail), else the given fallback.
 */
export function readableProblem(error: unknown, labelOf: (field: string) => string, fallback: string): string {
  const fields = fieldProblemsOf(error);
  if (fields.length > 0) return fields.map((p) => `${labelOf(p.field)}: ${p.message}`).join('; ');
  const message =
    error instanceof Error ? error.message : isRecord(error) && typeof error.message === 'string' ? error.message : '';
  return message || fallback;
}

/**
 * A refused sign-in as a message key and its arguments. Throttling (429) is said in whole minutes from the
 * problem's `retry_after` (the server's own sentence reads "minute(s)"); anything else is the server's detail.
 */
export function signInProblem(error: unknown): { message: string; args?: Record<string, unknown> } {
  if (statusOf(error) === 429) {
    const body = isRecord(error) ? error.body : undefined;
    const seconds = isRecord(body) && typeof body.retry_after === 'number' ? body.retry_after : 60;
    return { message: 'app.login.throttled', args: { smart_count: Math.max(1, Math.ceil(seconds / 60)) } };
  }
  const message = error instanceof Error ? error.message : '';
  return { message: message || 'ra.auth.sign_in_error' };
}
