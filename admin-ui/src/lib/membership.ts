import type { BusinessUnit, Loose, MembershipRole } from '../types';
import { everyMember } from './exhaustive';
import { isAtLicenceLimit } from './licence';

/** The roles in the order the role select offers them; a role added to the contract must be placed here. */
export const MEMBERSHIP_ROLES = everyMember<MembershipRole>()(['user', 'admin']);
export const DEFAULT_ROLE: MembershipRole = 'user';

type BuOptionSource = Pick<BusinessUnit, 'id'> & Loose<Pick<BusinessUnit, 'users_count' | 'max_license_users'>>;

/** A BU at its user cap cannot be chosen for a new assignment; the user's current BU always stays selectable. */
export function isBuOptionDisabled(bu: BuOptionSource, currentBuId?: string | null): boolean {
  if (currentBuId && bu.id === currentBuId) return false;
  return isAtLicenceLimit(bu.users_count ?? 0, bu.max_license_users);
}

/** Infinite lists load more once the scroll position is within this many pixels of the end. */
const LOAD_MORE_THRESHOLD_PX = 40;

export function isNearScrollEnd(
  el: { scrollTop: number; scrollHeight: number; clientHeight: number },
  threshold: number = LOAD_MORE_THRESHOLD_PX,
): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}

/** `?add_user=1` on a cluster's page opens its Add user dialog. */
export const ADD_USER_PARAM = 'add_user';

/** Where a business unit's Add user dialog sends someone it cannot offer: the cluster's page, adding a user. */
export const clusterAddUserPath = (clusterId: string) =>
  `/clusters/${encodeURIComponent(clusterId)}?${ADD_USER_PARAM}=1`;
