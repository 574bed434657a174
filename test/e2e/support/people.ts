// People a flow creates for itself through the API: an account with its own chosen password (so the forced password
// change is behind it), optionally with platform-wide grants.
import { apiOk, apiSignIn, type ApiSession } from './api.js';
import { Authenticator } from '../../support/totp.js';
import { uniqueCode } from './data.js';

export interface Person {
  id: string;
  username: string;
  password: string;
  /** The session the password was changed with (a device of its own). */
  session: ApiSession;
}

/** Creates an account as `admin`, gives it `grants` on every cluster, and sets the password it signs in with. */
export async function createPerson(
  baseUrl: string,
  admin: ApiSession,
  prefix: string,
  grants: string[] = [],
): Promise<Person> {
  const username = uniqueCode(prefix).toLowerCase();
  const initial = 'Initial-Andaman-2026';
  const password = 'Krabi-Sunrise-Harbour-9';
  const { id } = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/users', {
    username,
    email: `${username}@example.com`,
    firstname: 'Second',
    lastname: 'Factor',
    password: initial,
  });
  for (const permission_key of grants)
    await apiOk(baseUrl, admin, 'POST', `/api-system/users/${id}/grants`, { permission_key, cluster_id: null });
  const own = await apiSignIn(baseUrl, username, initial);
  await apiOk(baseUrl, own, 'PUT', '/api-system/me/password', { current_password: initial, new_password: password });
  return { id, username, password, session: own };
}

/**
 * Sets up an authenticator app for the session's account through the API, as the person would on another device:
 * the app (which computes the next codes) and the recovery codes shown once.
 */
export async function enrolTotp(
  baseUrl: string,
  own: ApiSession,
): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  const { secret } = await apiOk<{ secret: string }>(baseUrl, own, 'POST', '/api-system/me/second-factors/totp');
  const app = new Authenticator(secret);
  const enrolled = await apiOk<{ recovery_codes: string[] }>(
    baseUrl,
    own,
    'POST',
    '/api-system/me/second-factors/totp/confirm',
    { code: await app.nextCode() },
  );
  return { app, recoveryCodes: enrolled.recovery_codes };
}
