import { toHttpError } from './errors';

/** What an openapi-fetch call resolves to. */
export interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful call; anything else becomes an HttpError. */
export function unwrap<T>({ data, error, response }: Outcome<T>): T {
  if (!response.ok) throw toHttpError(response.status, error);
  // A 2xx carries the body its operation declares (nothing for a 204).
  return data as T;
}
