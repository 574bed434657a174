// Calls to the API from the test itself (not the browser): an administrator preparing or changing data behind the
// console's back, or a second device signing in.

export interface ApiSession {
  accessToken: string;
  refreshToken: string;
}

/** Signs in through the API; the session is a device of its own, separate from the browser's. */
export async function apiSignIn(baseUrl: string, username: string, password: string): Promise<ApiSession> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${username} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** A call with a session's bearer token; resolves to the raw response. */
export function apiCall(
  baseUrl: string,
  session: ApiSession,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${session.accessToken}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A call that must succeed; resolves to its JSON body (undefined for 204). */
export async function apiOk<T>(
  baseUrl: string,
  session: ApiSession,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await apiCall(baseUrl, session, method, path, body);
  if (!res.ok) throw new Error(`${method} ${path} failed: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}
