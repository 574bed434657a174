import { useCallback } from 'react';
import { useStore } from 'react-admin';
import type { Cluster } from '../../types';
import type { BulkActionOf } from '../../dataProvider/methods/bulk';

export type Tristate = '' | 'true' | 'false';

export interface UserListState {
  search: string;
  page: number;
  perpage: number;
  /** `field:asc|desc`, the wire syntax. */
  sort: string;
  active: Tristate;
  grants: Tristate;
  /** The cluster picked in the filter, kept whole so its name shows again without a fetch. */
  cluster: Cluster | null;
}

export const USER_LIST_DEFAULTS: UserListState = {
  search: '',
  page: 1,
  perpage: 10,
  sort: 'username:asc',
  active: '',
  grants: '',
  cluster: null,
};

const asBoolean = (v: Tristate) => (v === '' ? undefined : v === 'true');

/** The list filters as the data provider reads them; an unset filter is left out. */
export function userListFilter(
  state: Pick<UserListState, 'search' | 'active' | 'grants' | 'cluster'>,
): Record<string, unknown> {
  const filter: Record<string, unknown> = { search: state.search };
  const active = asBoolean(state.active);
  const grants = asBoolean(state.grants);
  if (active !== undefined) filter.is_active = active;
  if (grants !== undefined) filter.has_grants = grants;
  if (state.cluster) filter.cluster_id = state.cluster.id;
  return filter;
}

/** How many of the sheet's filters are in use (the Filters button's badge). */
export const userFilterCount = (state: UserListState) =>
  [state.active !== '', state.grants !== '', state.cluster !== null].filter(Boolean).length;

/** The bulk actions that fit the status filter: accounts it shows as active can only be deactivated, and the reverse. */
export function userBulkActions(active: Tristate): BulkActionOf<'users'>[] {
  if (active === 'true') return ['deactivate'];
  if (active === 'false') return ['reactivate'];
  return ['deactivate', 'reactivate'];
}

/**
 * The account list's search, filters, sort and paging, kept in react-admin's store so they are still there after the
 * operator opens an account and comes back. A new search or filter starts again at page 1.
 */
export function useUserListState() {
  const [state, setState] = useStore<UserListState>('users.listState', USER_LIST_DEFAULTS);
  const update = useCallback(
    (change: Partial<UserListState>) => setState((prev) => ({ ...USER_LIST_DEFAULTS, ...prev, page: 1, ...change })),
    [setState],
  );
  return [{ ...USER_LIST_DEFAULTS, ...state }, update] as const;
}
