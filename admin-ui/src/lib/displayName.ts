import type { Loose, PlatformUser } from '../types';

/** What a member row or a pool user carries of a person's names. */
export type UserNameParts = Loose<Pick<PlatformUser, 'username' | 'email' | 'userInfo'>>;

/** First/middle/last joined, else username, else email. */
export function displayName(u: UserNameParts | null | undefined): string {
  if (!u) return '';
  const info = u.userInfo;
  const full = [info?.firstname, info?.middlename, info?.lastname]
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(' ');
  if (full) return full;
  if (u.username?.trim()) return u.username.trim();
  return u.email?.trim() ?? '';
}

/** Users card order: display name, then email (case-insensitive). */
export function compareByNameThenEmail(a: UserNameParts, b: UserNameParts): number {
  const byName = displayName(a).localeCompare(displayName(b), undefined, { sensitivity: 'base' });
  if (byName !== 0) return byName;
  return (a.email ?? '').localeCompare(b.email ?? '', undefined, { sensitivity: 'base' });
}

/** Client-side filter by username, email and full name. */
export function matchesUserSearch(u: UserNameParts, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [u.username, u.email, displayName(u)].some((v) => (v ?? '').toLowerCase().includes(needle));
}
