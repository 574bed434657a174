import { useState, type HTMLAttributes, type ReactNode } from 'react';
import { Title, useCanAccess, useGetList, useRequireAccess, useTranslate } from 'react-admin';
import { keepPreviousData } from '@tanstack/react-query';
import {
  Box,
  Card,
  Chip,
  LinearProgress,
  Link as MuiLink,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TablePagination,
  TableSortLabel,
  TextField,
  Typography,
} from '@mui/material';
import { Link, useNavigate } from 'react-router-dom';
import type { Cluster, UserAccount } from '../../types';
import { ListToolbar } from '../../components/list/ListToolbar';
import { hiddenBelow, isPlainRowClick } from '../../components/list/ListTable';
import { ErrorState } from '../../components/ErrorState';
import { CsvExport } from '../../components/export/CsvExport';
import { StatusChip } from '../../components/StatusChip';
import { formatDateTime } from '../../lib/audit';
import { parseSort, toggleSort } from '../../lib/persistedListState';
import { ClusterAutocomplete } from './RecordAutocomplete';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { USER_SCREEN_MESSAGES } from './screenMessages';
import { BulkToolbar } from '../../components/bulk/BulkToolbar';
import { SelectAllCell, SelectRowCell } from '../../components/bulk/SelectionCells';
import { useBulkSelection } from '../../components/bulk/useBulkSelection';
import type { BulkActionOf } from '../../dataProvider/methods/bulk';

const PER_PAGE_OPTIONS = [10, 25, 50, 100];
const DEFAULT_SORT = 'username:asc';

type Tristate = '' | 'true' | 'false';

interface UserListState {
  search: string;
  page: number;
  perpage: number;
  sort: string;
  active: Tristate;
  grants: Tristate;
  cluster: Cluster | null;
}

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

/** The bulk actions that fit the status filter: accounts it shows as active can only be deactivated, and the reverse. */
export function userBulkActions(active: Tristate): BulkActionOf<'users'>[] {
  if (active === 'true') return ['deactivate'];
  if (active === 'false') return ['reactivate'];
  return ['deactivate', 'reactivate'];
}

interface Column {
  key: keyof UserAccount;
  sortField?: string;
  render: (r: UserAccount) => ReactNode;
  hideBelow?: 'md' | 'lg';
  align?: 'right';
}

const TristateSelect = (props: {
  label: string;
  value: Tristate;
  yes: string;
  no: string;
  onChange: (v: Tristate) => void;
  testId: string;
}) => {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value as Tristate)}
      sx={{ minWidth: 160 }}
      SelectProps={{ SelectDisplayProps: { 'data-testid': props.testId } as HTMLAttributes<HTMLDivElement> }}
    >
      <MenuItem value="">{translate('audit.log.any')}</MenuItem>
      <MenuItem value="true">{props.yes}</MenuItem>
      <MenuItem value="false">{props.no}</MenuItem>
    </TextField>
  );
};

/**
 * The operator accounts: server paging, debounced search, status / grants / cluster filters, sortable columns and CSV
 * export (this page or every matching row). A row opens the account's read view.
 */
const UserListScreen = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  useRequireAccess({ action: 'list', resource: 'users' });
  const { canAccess: canList } = useCanAccess({ action: 'list', resource: 'users' });
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource: 'users' });
  const [state, setState] = useState<UserListState>({
    search: '',
    page: 1,
    perpage: 10,
    sort: DEFAULT_SORT,
    active: '',
    grants: '',
    cluster: null,
  });
  // A new search or filter starts again at page 1.
  const update = (change: Partial<UserListState>) => setState((prev) => ({ ...prev, page: 1, ...change }));

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
  const selection = useBulkSelection(
    rows.map((r) => r.id),
    JSON.stringify([filter, sort, pagination]),
  );
  const hasFilters = state.search !== '' || state.active !== '' || state.grants !== '' || state.cluster !== null;
  const f = (field: string) => translate(`resources.users.fields.${field}`);

  const columns: Column[] = [
    { key: 'username', sortField: 'username', render: (r) => r.username },
    { key: 'display_name', render: (r) => r.display_name, hideBelow: 'md' },
    { key: 'email', sortField: 'email', render: (r) => r.email },
    { key: 'is_active', sortField: 'is_active', render: (r) => <StatusChip active={r.is_active} /> },
    {
      key: 'is_super_admin',
      render: (r) =>
        r.is_super_admin ? (
          <Chip size="small" color="secondary" label={translate('resources.users.fields.is_super_admin')} />
        ) : null,
    },
    { key: 'grant_count', render: (r) => r.grant_count, align: 'right' },
    {
      key: 'last_sign_in_at',
      sortField: 'last_sign_in_at',
      render: (r) =>
        r.last_sign_in_at ? formatDateTime(r.last_sign_in_at) : translate('resources.users.never_signed_in'),
      hideBelow: 'lg',
    },
  ];
  const current = parseSort(state.sort);

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('resources.users.name', { smart_count: 2 })} />
      <ListToolbar
        search={state.search}
        onSearch={(search) => update({ search })}
        filters={
          <>
            <TristateSelect
              label={f('is_active')}
              value={state.active}
              yes={translate('app.status.active')}
              no={translate('app.status.inactive')}
              onChange={(active) => update({ active })}
              testId="filter-active"
            />
            <TristateSelect
              label={translate('resources.users.fields.grant_count')}
              value={state.grants}
              yes={translate('resources.users.filters.with_grants')}
              no={translate('resources.users.filters.without_grants')}
              onChange={(grants) => update({ grants })}
              testId="filter-grants"
            />
            <ClusterAutocomplete
              label={translate('resources.clusters.name', { smart_count: 1 })}
              value={state.cluster}
              onChange={(cluster) => update({ cluster })}
              testId="filter-cluster"
            />
          </>
        }
        exporter={
          <CsvExport
            request={{ resource: 'users', filter, sort }}
            page={pagination}
            pageRows={rows.length}
            total={total ?? rows.length}
            loading={loading}
          />
        }
        createPath={canCreate ? '/users/new' : null}
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
        {error ? (
          <Box sx={{ p: 2 }}>
            <ErrorState error={error} onRetry={() => void refetch()} />
          </Box>
        ) : !isPending && rows.length === 0 ? (
          <Box sx={{ p: 4, textAlign: 'center' }} data-testid="list-empty">
            <Typography variant="h6" color="text.secondary">
              {translate(hasFilters ? 'app.list.no_results' : 'app.list.empty')}
            </Typography>
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" data-testid="users-table">
              <TableHead>
                <TableRow>
                  <SelectAllCell selection={selection} />
                  {columns.map((col) => (
                    <TableCell key={col.key} align={col.align} sx={[{ fontWeight: 600 }, hiddenBelow(col.hideBelow)]}>
                      {col.sortField ? (
                        <TableSortLabel
                          active={current.field === col.sortField}
                          direction={current.field === col.sortField && current.order === 'DESC' ? 'desc' : 'asc'}
                          onClick={() => setState((prev) => ({ ...prev, sort: toggleSort(prev.sort, col.sortField!) }))}
                        >
                          {f(col.key)}
                        </TableSortLabel>
                      ) : (
                        f(col.key)
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow
                    key={row.id}
                    hover
                    data-testid="list-row"
                    onClick={(e) => {
                      if (isPlainRowClick(e)) void navigate(`/users/${row.id}`);
                    }}
                    sx={{ cursor: 'pointer', opacity: row.is_active ? 1 : 0.7 }}
                  >
                    <SelectRowCell selection={selection} id={row.id} name={row.username} />
                    {columns.map((col) => (
                      <TableCell key={col.key} align={col.align} sx={hiddenBelow(col.hideBelow)}>
                        {col.key === 'username' ? (
                          <MuiLink component={Link} to={`/users/${row.id}`} underline="hover" color="inherit">
                            {row.username}
                          </MuiLink>
                        ) : (
                          col.render(row)
                        )}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <TablePagination
          component="div"
          count={total ?? 0}
          page={Math.max(0, state.page - 1)}
          rowsPerPage={state.perpage}
          rowsPerPageOptions={PER_PAGE_OPTIONS}
          onPageChange={(_, p) => setState((prev) => ({ ...prev, page: p + 1 }))}
          onRowsPerPageChange={(e) => update({ perpage: Number(e.target.value) })}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
          labelDisplayedRows={({ from, to, count }) => translate('app.list.range', { from, to, count })}
          getItemAriaLabel={(type) => translate(`app.list.go_to_${type}`)}
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
