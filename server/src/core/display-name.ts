import type { components } from '../../../openapi/generated/schema.js';

export interface UserNameParts {
  username: string | null;
  email: string | null;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
}

/** A user's display name: first, middle and last name joined, else the username, else the email (`displayNameSql` is the same rule in SQL). */
export function displayName(u: UserNameParts): string {
  const full = [u.firstname, u.middlename, u.lastname]
    .map((p) => p?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  return full || u.username?.trim() || u.email || '';
}

export function userInfoOf(
  u: Pick<UserNameParts, 'firstname' | 'middlename' | 'lastname'>,
): components['schemas']['UserInfo'] {
  return { firstname: u.firstname ?? null, middlename: u.middlename ?? null, lastname: u.lastname ?? null };
}
