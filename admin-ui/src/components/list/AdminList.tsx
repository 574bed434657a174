import { useEffect, type ReactNode } from 'react';
import {
  Title,
  useCanAccess,
  useGetList,
  useRequireAccess,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { keepPreviousData } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import { Link } from 'react-router-dom';
import { usePersistedListState, parseSort, toggleSort, type PersistedListName } from '../../lib/persistedListState';
import { deletedToggleToQuery, statusFilterToQuery } from '../../lib/statusFilter';
import { auditOf } from '../../lib/audit';
import { downloadText, type BusinessUnitCsvRow, type ClusterCsvRow } from '../../lib/csv';
import type { BrandedResource } from '../../dataProvider';
import { DebouncedSearch } from './DebouncedSearch';
import { FilterSheet } from './FilterSheet';
import { AuditCell } from './AuditCell';
import { RowActions } from './RowActions';
import { ErrorState } from '../ErrorState';

/** A row as the contract returns it. */
export type ListRow = RaRecord &
  ClusterCsvRow &
  BusinessUnitCsvRow & { logo?: { url?: string | null } | null; avatar?: { url?: string | null } | null };

export interface ListColumn {
  key: string;
  label: string;
  /** The contract's sort field, when the column is sortable. */
  sortField?: string;
  render: (row: ListRow) => ReactNode;
  align?: 'left' | 'right' | 'center';
  width?: number;
}

export interface AdminListProps {
  resource: BrandedResource;
  listName: PersistedListName;
  title: string;
  columns: ListColumn[];
  createPath: string;
  editPath: (row: ListRow) => string;
  exportCsv: (rows: ListRow[]) => { filename: string; content: string };
}

const PER_PAGE_OPTIONS = [10, 25, 50, 100];

/**
 * The cluster and BU list pages: server paging, debounced search, the filter sheet, sortable
 * columns, audit and deleted columns, CSV export of the loaded page, and the six persisted keys.
 */
export const AdminList = (props: AdminListProps) => {
  const { resource } = props;
  const translate = useTranslate();
  // Redirects to access-denied when refused; the list is only fetched once access is granted, so a refused
  // caller never sends (and logs) a 403.
  useRequireAccess({ action: 'list', resource });
  const { canAccess: canList } = useCanAccess({ action: 'list', resource });
  const [state, update] = usePersistedListState(props.listName);
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource });

  const { data, total, isPending, isFetching, error, refetch } = useGetList<ListRow>(
    resource,
    {
      pagination: { page: state.page, perPage: state.perpage },
      sort: parseSort(state.sort),
      filter: { search: state.search, ...statusFilterToQuery(state.filters), ...deletedToggleToQuery(state.deleted) },
    },
    { enabled: canList === true, placeholderData: keepPreviousData },
  );

  // A page beyond the end (e.g. after deleting the last row of it) falls back to the last page.
  useEffect(() => {
    if (total === undefined || isFetching) return;
    const lastPage = Math.max(1, Math.ceil(total / state.perpage));
    if (state.page > lastPage) update({ page: lastPage });
  }, [total, isFetching, state.page, state.perpage, update]);

  const rows = data ?? [];
  const loading = isPending || isFetching;
  const sort = parseSort(state.sort);
  const hasFilters = state.search !== '' || state.filters.length > 0 || state.deleted;

  const addButton = (testId: string) =>
    canCreate ? (
      <Button component={Link} to={props.createPath} variant="contained" startIcon={<AddIcon />} data-testid={testId}>
        {translate('ra.action.create')}
      </Button>
    ) : null;

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate(props.title, { smart_count: 2 })} />
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <DebouncedSearch value={state.search} onChange={(search) => update({ search })} />
        <FilterSheet statuses={state.filters} showDeleted={state.deleted} onChange={update} />
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={loading || rows.length === 0}
          data-testid="export-csv"
          onClick={() => {
            const { filename, content } = props.exportCsv(rows);
            downloadText(filename, content);
          }}
        >
          {translate('ra.action.export')}
        </Button>
        {addButton('toolbar-add')}
      </Stack>
      <Card>
        {loading && <LinearProgress data-testid="list-loading" />}
        {error ? (
          <Box sx={{ p: 2 }}>
            <ErrorState error={error} onRetry={() => refetch()} />
          </Box>
        ) : !isPending && rows.length === 0 ? (
          <Box sx={{ p: 4, textAlign: 'center' }} data-testid="list-empty">
            <Typography variant="h6" color="text.secondary" gutterBottom>
              {translate(hasFilters ? 'app.list.no_results' : 'app.list.empty')}
            </Typography>
            {!hasFilters && addButton('empty-add')}
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" data-testid={`${resource}-table`}>
              <TableHead>
                <TableRow>
                  {props.columns.map((col) => (
                    <TableCell key={col.key} align={col.align} sx={{ width: col.width, fontWeight: 600 }}>
                      {col.sortField ? (
                        <TableSortLabel
                          active={sort.field === col.sortField}
                          direction={sort.field === col.sortField && sort.order === 'ASC' ? 'asc' : 'desc'}
                          onClick={() => update({ sort: toggleSort(state.sort, col.sortField!) })}
                        >
                          {translate(col.label)}
                        </TableSortLabel>
                      ) : (
                        translate(col.label)
                      )}
                    </TableCell>
                  ))}
                  <TableCell sx={{ fontWeight: 600 }}>
                    <TableSortLabel
                      active={sort.field === 'created_at'}
                      direction={sort.field === 'created_at' && sort.order === 'ASC' ? 'asc' : 'desc'}
                      onClick={() => update({ sort: toggleSort(state.sort, 'created_at') })}
                    >
                      {translate('app.list.created')}
                    </TableSortLabel>
                  </TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>
                    <TableSortLabel
                      active={sort.field === 'updated_at'}
                      direction={sort.field === 'updated_at' && sort.order === 'ASC' ? 'asc' : 'desc'}
                      onClick={() => update({ sort: toggleSort(state.sort, 'updated_at') })}
                    >
                      {translate('app.list.updated')}
                    </TableSortLabel>
                  </TableCell>
                  {state.deleted && (
                    <TableCell sx={{ fontWeight: 600 }} data-testid="deleted-column">
                      {translate('app.list.deleted_column')}
                    </TableCell>
                  )}
                  <TableCell align="right" sx={{ width: 56 }}>
                    <Box component="span" sx={visuallyHidden}>
                      {translate('app.list.actions')}
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => {
                  const audit = auditOf(row);
                  return (
                    <TableRow key={row.id} hover data-testid="list-row" sx={audit.deleted ? { opacity: 0.7 } : undefined}>
                      {props.columns.map((col) => (
                        <TableCell key={col.key} align={col.align}>
                          {col.render(row)}
                        </TableCell>
                      ))}
                      <TableCell>
                        <AuditCell entry={audit.created} />
                      </TableCell>
                      <TableCell>
                        <AuditCell entry={audit.updated} />
                      </TableCell>
                      {state.deleted && (
                        <TableCell>
                          <AuditCell entry={audit.deleted} />
                        </TableCell>
                      )}
                      <TableCell align="right">
                        <RowActions resource={resource} record={row} editPath={props.editPath(row)} onChanged={() => refetch()} />
                      </TableCell>
                    </TableRow>
                  );
                })}
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
          onPageChange={(_, p) => update({ page: p + 1 })}
          onRowsPerPageChange={(e) => update({ perpage: Number(e.target.value) })}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        />
      </Card>
    </Box>
  );
};
