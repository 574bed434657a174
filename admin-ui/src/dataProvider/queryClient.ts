import { QueryClient } from '@tanstack/react-query';
import { SessionEndedError } from './reauth';

const MAX_RETRIES = 2;
/** The auth provider's answer to a question asked while nobody is signed in. */
export const SIGNED_OUT = 'ra.auth.auth_check_error';

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/**
 * Whether a failed read is tried again. A 4xx is the answer itself (a validation problem, a refusal, a missing
 * record): asking again only delays the screen that explains it. Network failures and 5xx get two more tries.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof SessionEndedError) return false;
  // Signed out: react-admin asks for the permissions at the root of the app, on the login page too. That answer keeps
  // react-query's three tries, so the login page does not turn it into an error (and a logout) the moment it loads.
  if (error instanceof Error && error.message === SIGNED_OUT) return failureCount < 3;
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** The console's query cache: reads retry by the rule above; writes are never repeated behind the user's back. */
export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: shouldRetry }, mutations: { retry: false } } });
