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
  const message =
    problem.detail || problem.title || (typeof body === 'string' && body ? body : `HTTP ${status}`);
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
