// The typed client of the platform administration API: every path, parameter and body is checked against the
// contract at compile time. `createAdminClient` takes a token from you; `createAdminSession` signs in itself and keeps
// the session alive (it refreshes the access token before it expires and once more on a 401).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { paths, components, operations } from './schema.js';
export type AdminClient = Client<paths>;
export type TokenPair = components['schemas']['TokenPair'];
export type Problem = components['schemas']['Problem'];

type Fetch = typeof globalThis.fetch;

export interface AdminClientOptions {
  /** Where the API lives, e.g. `http://127.0.0.1:3000` (absolute outside a browser). */
  baseUrl: string;
  /** Returns the current access token, or nothing to call anonymously. */
  getToken?: () => string | undefined | null | Promise<string | undefined | null>;
  /** A fetch implementation, for tests or older runtimes. */
  fetch?: Fetch;
}

/** Builds a client that sends `Authorization: Bearer <token>` on every call and FormData for multipart bodies. */
export function createAdminClient({ baseUrl, getToken, fetch }: AdminClientOptions): AdminClient {
  const client = createClient<paths>({
    baseUrl,
    ...(fetch ? { fetch } : {}),
    // Multipart operations (logo/avatar uploads, the membership import) pass a FormData body through untouched.
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

/** The tokens of a signed-in session, with when the access token expires (milliseconds since the epoch). */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

export interface AdminSessionOptions {
  baseUrl: string;
  fetch?: Fetch;
  /** Tokens kept from an earlier session (see `onTokens`), to resume it without signing in again. */
  tokens?: SessionTokens | null;
  /** Called whenever the tokens change (sign-in, refresh) and with null when the session ends: store them here. */
  onTokens?: (tokens: SessionTokens | null) => void;
  /** Refresh this long before the access token expires (default 30 s). */
  refreshMarginMs?: number;
}

export interface AdminSession {
  /** The typed client; every call carries the session's access token. */
  api: AdminClient;
  /** Signs in with a username (or email) and password. Throws a `SignInError` naming the problem. */
  login(username: string, password: string): Promise<SessionTokens>;
  /** Exchanges the refresh token for new tokens now (calls made through `api` do it by themselves). */
  refresh(): Promise<SessionTokens>;
  /** Ends the session on the server and forgets its tokens. */
  logout(): Promise<void>;
  /** The current tokens, or null when signed out. */
  tokens(): SessionTokens | null;
}

/** A sign-in, refresh or sign-out the server refused: `status` and the problem it answered. */
export class SignInError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> | undefined,
  ) {
    super(problem?.detail ?? problem?.title ?? `the server answered ${status}`);
    this.name = 'SignInError';
  }
}

const AUTH_PATHS = /\/api\/auth\/(login|refresh-token|logout)$/;

/**
 * A signed-in client: `login` once, then call `api`. Before a call whose access token is about to expire, and once
 * after a call answered 401, the session exchanges its refresh token (`POST /api/auth/refresh-token`, single use) for
 * new tokens; concurrent calls share one refresh. A refused refresh ends the session (`tokens()` becomes null).
 */
export function createAdminSession(options: AdminSessionOptions): AdminSession {
  const baseFetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const margin = options.refreshMarginMs ?? 30_000;
  let current: SessionTokens | null = options.tokens ?? null;
  let refreshing: Promise<SessionTokens> | null = null;

  const auth = createAdminClient({ baseUrl: options.baseUrl, fetch: baseFetch });
  const set = (tokens: SessionTokens | null) => {
    current = tokens;
    options.onTokens?.(tokens);
    return tokens;
  };
  const fromPair = (pair: TokenPair): SessionTokens => ({
    accessToken: pair.access_token,
    refreshToken: pair.refresh_token,
    expiresAt: Date.now() + pair.expires_in * 1000,
  });

  const refresh = (): Promise<SessionTokens> => {
    if (!current) return Promise.reject(new SignInError(401, { detail: 'Not signed in: call login first' }));
    const refreshToken = current.refreshToken;
    refreshing ??= (async () => {
      try {
        const { data, error, response } = await auth.POST('/api/auth/refresh-token', {
          body: { refresh_token: refreshToken },
        });
        if (!data) {
          set(null);
          throw new SignInError(response.status, error);
        }
        return set(fromPair(data))!;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  };

  const freshToken = async (): Promise<string | null> => {
    if (!current) return null;
    if (current.expiresAt - margin <= Date.now()) await refresh();
    return current?.accessToken ?? null;
  };

  // Sends each call with the session's token; a 401 refreshes once and sends the call again.
  const sessionFetch: Fetch = async (input, init) => {
    const request = new Request(input, init);
    if (AUTH_PATHS.test(new URL(request.url).pathname)) return baseFetch(request);
    const send = async (token: string | null) => {
      const attempt = request.clone();
      if (token) attempt.headers.set('Authorization', `Bearer ${token}`);
      return baseFetch(attempt);
    };
    const response = await send(await freshToken());
    if (response.status !== 401 || !current) return response;
    await response.body?.cancel();
    await refresh();
    return send(current?.accessToken ?? null);
  };

  return {
    api: createAdminClient({ baseUrl: options.baseUrl, fetch: sessionFetch }),
    async login(username, password) {
      const { data, error, response } = await auth.POST('/api/auth/login', { body: { username, password } });
      if (!data) throw new SignInError(response.status, error);
      // An account with a second factor answers 202: a person's sign-in, which a program's client cannot finish.
      if (!('access_token' in data))
        throw new SignInError(response.status, {
          title: 'Second factor required',
          detail: 'This account signs in with a second factor: call the API with a service account token instead.',
        });
      return set(fromPair(data))!;
    },
    refresh,
    async logout() {
      const tokens = current;
      set(null);
      if (!tokens) return;
      const { error, response } = await auth.POST('/api/auth/logout', { body: { refresh_token: tokens.refreshToken } });
      if (!response.ok) throw new SignInError(response.status, error);
    },
    tokens: () => current,
  };
}
