// The typed client for this API: every path, parameter and body is checked against the contract at compile time.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema.js';

export type { paths, components, operations } from './generated/schema.js';
export type AdminClient = Client<paths>;

export interface AdminClientOptions {
  /** Where the API lives, e.g. `http://127.0.0.1:3000` (absolute outside a browser). */
  baseUrl: string;
  /** Returns the current access token, or nothing to call anonymously. */
  getToken?: () => string | undefined | null | Promise<string | undefined | null>;
  /** A fetch implementation, for tests or older runtimes. */
  fetch?: typeof globalThis.fetch;
}

/** Builds a client that sends `Authorization: Bearer <token>` on every call and FormData for multipart bodies. */
export function createAdminClient({ baseUrl, getToken, fetch }: AdminClientOptions): AdminClient {
  const client = createClient<paths>({
    baseUrl,
    ...(fetch ? { fetch } : {}),
    // Multipart operations (logo/avatar uploads) pass a FormData body through untouched.
    bodySerializer: (body: unknown) => (body instanceof FormData ? body : JSON.stringify(body)),
  });
  const bearer: Middleware = {
    async onRequest({ request }) {
      const token = await getToken?.();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(bearer);
  return client;
}
