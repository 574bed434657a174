import type { ListQuery } from '../types';

export type StatusValue = 'active' | 'inactive';
export const STATUS_VALUES: readonly StatusValue[] = ['active', 'inactive'];

/**
 * Exactly one chosen status adds an is_active equality constraint;
 * both or neither chosen means no constraint at all.
 */
export function statusFilterToQuery(statuses: readonly string[]): Pick<ListQuery, 'is_active'> {
  const chosen = new Set(statuses.filter((s): s is StatusValue => s === 'active' || s === 'inactive'));
  if (chosen.size !== 1) return {};
  return { is_active: chosen.has('active') };
}

/** The soft-deleted toggle maps onto the contract's `deleted` filter. */
export function deletedToggleToQuery(showDeleted: boolean): Required<Pick<ListQuery, 'deleted'>> {
  return { deleted: showDeleted ? 'include' : 'exclude' };
}
