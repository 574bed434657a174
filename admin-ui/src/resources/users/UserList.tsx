import { useCanAccess, useTranslate } from 'react-admin';
import { Chip } from '@mui/material';
import type { UserAccount } from '../../types';
import type { ListColumn } from '../../components/list/ListTable';
import { ListScreen, ResourceList, useFilterValues } from '../../components/list/ResourceList';
import { StatusChip } from '../../components/StatusChip';
import { useFormat } from '../../lib/format';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { USER_SCREEN_MESSAGES } from './screenMessages';
import { UserFilters } from './UserFilters';
import { tristateOf, userBulkActions, userFilterCount } from './userListState';

export { userBulkActions } from './userListState';

/** The account list's columns; the display name, grants and last sign-in fold away on narrower screens. */
function useUserColumns(): ListColumn<UserAccount>[] {
  const translate = useTranslate();
  const format = useFormat();
  const field = (key: string) => `resources.users.fields.${key}`;
  return [
    { key: 'username', label: field('username'), sortField: 'username', render: (r) => r.username, opensRecord: true },
    { key: 'display_name', label: field('display_name'), render: (r) => r.display_name, hideBelow: 'lg' },
    { key: 'email', label: field('email'), sortField: 'email', render: (r) => r.email, hideBelow: 'sm' },
    {
      key: 'is_active',
      label: field('is_active'),
      sortField: 'is_active',
      render: (r) => <StatusChip active={r.is_active} />,
    },
    {
      key: 'is_super_admin',
      label: field('is_super_admin'),
      render: (r) =>
        r.is_super_admin ? <Chip size="small" color="secondary" label={translate(field('is_super_admin'))} /> : null,
      hideBelow: 'md',
    },
    { key: 'grant_count', label: field('grant_count'), render: (r) => r.grant_count, align: 'right', hideBelow: 'md' },
    {
      key: 'last_sign_in_at',
      label: field('last_sign_in_at'),
      sortField: 'last_sign_in_at',
      render: (r) =>
        r.last_sign_in_at ? format.dateTime(r.last_sign_in_at) : translate('resources.users.never_signed_in'),
      hideBelow: 'lg',
    },
  ];
}

/** The accounts on the page, with the Filters sheet's status, grants and cluster. */
const UserListBody = () => {
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource: 'users' });
  const columns = useUserColumns();
  const filter = useFilterValues();
  return (
    <ListScreen<UserAccount, 'users'>
      resource="users"
      columns={columns}
      filters={<UserFilters />}
      filtered={typeof filter.search === 'string' || userFilterCount(filter) > 0}
      createPath={canCreate ? '/users/create' : null}
      rowLabel={(r) => r.username}
      rowPath={(r) => `/users/${r.id}`}
      dimmed={(r) => !r.is_active}
      bulkActions={userBulkActions(tristateOf(filter.is_active))}
    />
  );
};

/**
 * The operator accounts: react-admin's `<List>` with server paging, debounced search, the Filters sheet (status,
 * grants, cluster), sortable columns, bulk actions and CSV export through the server (this page or every matching
 * row). Search, filters, sort and paging stay in its store.
 */
export const UserList = () => (
  <ScreenMessages modules={USER_SCREEN_MESSAGES}>
    <ResourceList resource="users" title="resources.users.name" sort={{ field: 'username', order: 'ASC' }}>
      <UserListBody />
    </ResourceList>
  </ScreenMessages>
);
