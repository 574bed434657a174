import type { components } from '../../../../openapi/generated/schema.js';

export interface UserNameParts {
  username: string | null;
  email: string | null;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
}

/**
 * SQL for a user's display name: first, middle and last name joined, else the username, else the email.
 * `alias` is the users table alias in the query; the result is null when the user row is absent.
 */
export function displayNameSql(alias: string): string {
  const part = (c: string) => `nullif(btrim(${alias}.${c}), '')`;
  return `coalesce(nullif(concat_ws(' ', ${part('firstname')}, ${part('middlename')}, ${part('lastname')}), ''), ${part('username')}, ${alias}.email)`;
}

/** The same rule in TypeScript, for rows already loaded. */
export function displayName(u: UserNameParts): string {
  const full = [u.firstname, u.middlename, u.lastname].map((p) => p?.trim() ?? '').filter(Boolean).join(' ');
  return full || u.username?.trim() || u.email || '';
}

export function userInfoOf(u: Pick<UserNameParts, 'firstname' | 'middlename' | 'lastname'>): components['schemas']['UserInfo'] {
  return { firstname: u.firstname ?? null, middlename: u.middlename ?? null, lastname: u.lastname ?? null };
}
