import type { BulkActionOf } from '../../dataProvider/methods/bulk';

export type Tristate = '' | 'true' | 'false';

/** A yes/no filter of the list's filter values as the sheet's three-way choice (any, yes, no). */
export const tristateOf = (value: unknown): Tristate => (value === true ? 'true' : value === false ? 'false' : '');

/** The three-way choice as a filter value; "any" leaves the filter out. */
export const booleanOf = (value: Tristate): boolean | undefined => (value === '' ? undefined : value === 'true');

/** How many of the sheet's filters are in use (the Filters button's badge). */
export const userFilterCount = (filter: Record<string, unknown>) =>
  [typeof filter.is_active === 'boolean', typeof filter.has_grants === 'boolean', Boolean(filter.cluster_id)].filter(
    Boolean,
  ).length;

/** The bulk actions that fit the status filter: accounts it shows as active can only be deactivated, and the reverse. */
export function userBulkActions(active: Tristate): BulkActionOf<'users'>[] {
  if (active === 'true') return ['deactivate'];
  if (active === 'false') return ['reactivate'];
  return ['deactivate', 'reactivate'];
}
