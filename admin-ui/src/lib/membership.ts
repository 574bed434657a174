import { isAtLicenceLimit } from './licence';

export const MEMBERSHIP_ROLES = ['user', 'admin'] as const;
export type Role = (typeof MEMBERSHIP_ROLES)[number];
export const DEFAULT_ROLE: Role = 'user';

export interface BuOptionSource {
  id: string;
  users_count?: number | null;
  max_license_users?: number | null;
}

/** A BU at its user cap cannot be chosen for a new assignment; the user's current BU always stays selectable. */
export function isBuOptionDisabled(bu: BuOptionSource, currentBuId?: string | null): boolean {
  if (currentBuId && bu.id === currentBuId) return false;
  return isAtLicenceLimit(bu.users_count ?? 0, bu.max_license_users);
}

/** Infinite lists load more once the scroll position is within this many pixels of the end. */
export const LOAD_MORE_THRESHOLD_PX = 40;

export function isNearScrollEnd(
  el: { scrollTop: number; scrollHeight: number; clientHeight: number },
  threshold: number = LOAD_MORE_THRESHOLD_PX,
): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}
