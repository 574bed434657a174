import { Title, useCanAccess, useGetList, useRequireAccess, useTranslate } from 'react-admin';
import { keepPreviousData } from '@tanstack/react-query';
import { Box, Card, Chip, LinearProgress } from '@mui/material';
import type { UserAccount } from '../../types';
import { ListToolbar } from '../../components/list/ListToolbar';
import { ListTable, type ListColumn } from '../../components/list/ListTable';
import { ListPagination } from '../../components/list/ListPagination';
import { useResourceSelection } from '../../components/list/useListSelection';
import { ListStates } from '../../components/list/ListStates';
import { CsvExport } from '../../components/export/CsvExport';
import { StatusChip } from '../../components/StatusChip';
import { useFormat } from '../../lib/format';
import { parseSort } from '../../lib/persistedListState';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { USER_SCREEN_MESSAGES } from './screenMessages';
import { BulkToolbar } from '../../components/bulk/BulkToolbar';
import { UserFilters } from './UserFilters';
import { userBulkActions, userListFilter, useUserListState } from './userListState';

export { userBulkActions, userListFilter } from './userListState';

const PER_PAGE_OPTIONS = [10, 25, 50, 100];

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

/**
 * The operator accounts: server paging, debounced search, the Filters sheet (status, grants, cluster), sortable
 * columns and CSV export (this page or every matching row). Search, filters, sort and paging are remembered.
 */
const UserListScreen = () => {
  const translate = useTranslate();
  useRequireAccess({ action: 'list', resource: 'users' });
  const { canAccess: canList } = useCanAccess({ action: 'list', resource: 'users' });
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource: 'users' });
  const [state, update] = useUserListState();
  const columns = useUserColumns();

  const pagination = { page: state.page, perPage: state.perpage };
  const sort = parseSort(state.sort);
  const filter = userListFilter(state);
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, total, isPending, isFetching, error, refetch } = useGetList<UserAccount>(
    'users',
    { pagination, sort, filter },
    { enabled: canList === true, placeholderData: keepPreviousData },
  );
  const rows = data ?? [];
  const loading = isPending || isFetching;
  const selection = useResourceSelection(
    'users',
    rows.map((r) => r.id),
    JSON.stringify([filter, sort, pagination]),
  );
  const hasFilters = state.search !== '' || state.active !== '' || state.grants !== '' || state.cluster !== null;

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('resources.users.name', { smart_count: 2 })} />
      <ListToolbar
        search={state.search}
        onSearch={(search) => update({ search })}
        filters={<UserFilters state={state} update={update} />}
        exporter={
          <CsvExport
            request={{ resource: 'users', filter, sort }}
            page={pagination}
            pageRows={rows.length}
            total={total ?? rows.length}
            loading={loading}
          />
        }
        createPath={canCreate ? '/users/create' : null}
      />
      <Card>
        <BulkToolbar
          resource="users"
          selection={selection}
          actions={userBulkActions(state.active)}
          labelOf={(id) => rows.find((r) => r.id === id)?.username ?? String(id)}
          onDone={() => void refetch()}
        />
        {loading && <LinearProgress data-testid="list-loading" />}
        <ListStates
          error={error}
          onRetry={() => void refetch()}
          empty={!isPending && rows.length === 0}
          emptyText={translate(hasFilters ? 'app.list.no_results' : 'app.list.empty')}
        >
          <ListTable
            testId="users-table"
            rows={rows}
            columns={columns}
            sort={{ value: state.sort, onSort: (sort) => update({ sort, page: state.page }) }}
            selection={selection}
            rowLabel={(r) => r.username}
            rowPath={(r) => `/users/${r.id}`}
            dimmed={(r) => !r.is_active}
          />
        </ListStates>
        <ListPagination
          total={total ?? 0}
          page={state.page}
          perpage={state.perpage}
          options={PER_PAGE_OPTIONS}
          onChange={(change) => update({ ...change, page: change.page ?? 1 })}
        />
      </Card>
    </Box>
  );
};

export const UserList = () => (
  <ScreenMessages modules={USER_SCREEN_MESSAGES}>
    <UserListScreen />
  </ScreenMessages>
);
