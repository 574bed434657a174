import { fieldProblemsOf, statusOf } from '../../lib/problems';

/**
 * Where a refused account write is shown: the contract's field errors under their fields; a 400 without them names a
 * password rule (the only rule the schema cannot state); a 409 is a username or email another account holds.
 */
export function accountFieldErrors(error: unknown, opts: { hasPassword: boolean }): Record<string, string> | undefined {
  const fields = fieldProblemsOf(error);
  if (fields.length > 0) return Object.fromEntries(fields.map((p) => [p.field, p.message]));
  const detail = error instanceof Error ? error.message : '';
  if (!detail) return undefined;
  const status = statusOf(error);
  if (status === 400 && opts.hasPassword) return { password: detail };
  if (status === 409) return /e-?mail/i.test(detail) ? { email: detail } : { username: detail };
  return undefined;
}
