import { useEffect } from 'react';
import { Title, useCanAccess, useGetList, useRequireAccess, useTranslate } from 'react-admin';
import { keepPreviousData } from '@tanstack/react-query';
import { Box, Card, LinearProgress } from '@mui/material';
import { auditOf } from '../../lib/audit';
import type { BrandedRecords, BrandedResource } from '../../types';
import { usePersistedListState, parseSort, type PersistedListName } from '../../lib/persistedListState';
import { deletedToggleToQuery, statusFilterToQuery } from '../../lib/statusFilter';
import { FilterSheet } from './FilterSheet';
import { ListPagination } from './ListPagination';
import { CreateLink, ListToolbar } from './ListToolbar';
import { ListTable, type ListColumn } from './ListTable';
import { auditColumns, rowActionsColumn } from './brandedColumns';
import { ListStates } from './ListStates';
import { CsvExport } from '../export/CsvExport';
import { BulkToolbar } from '../bulk/BulkToolbar';
import { useResourceSelection } from './useListSelection';
import type { BulkActionOf } from '../../dataProvider/methods/bulk';
import type { ListState } from '../../lib/persistedListState';

interface AdminListProps<N extends BrandedResource> {
  resource: N;
  listName: PersistedListName;
  title: string;
  columns: ListColumn<BrandedRecords[N]>[];
  createPath: string;
  showPath: (row: BrandedRecords[N]) => string;
  editPath: (row: BrandedRecords[N]) => string;
}

const PER_PAGE_OPTIONS = [10, 25, 50, 100];

/**
 * The bulk actions that fit what the list shows. With soft-deleted rows shown the user is there to bring rows back, so
 * only Restore; otherwise Delete, plus Deactivate and/or Activate unless the status filter leaves no row they apply to.
 * The server still answers per row (e.g. restoring a live row fails with its reason).
 */
export function brandedBulkActions(state: Pick<ListState, 'filters' | 'deleted'>): BulkActionOf<BrandedResource>[] {
  if (state.deleted) return ['restore'];
  const { is_active } = statusFilterToQuery(state.filters);
  const toggles: BulkActionOf<BrandedResource>[] =
    is_active === undefined ? ['deactivate', 'activate'] : [is_active ? 'deactivate' : 'activate'];
  return [...toggles, 'delete'];
}

/** A row as the results of a bulk action name it. */
const rowLabel = (row: { code: string; name: string }) => `${row.code} — ${row.name}`;

/**
 * The cluster and BU list pages: server paging, debounced search, the filter sheet, sortable
 * columns, audit and deleted columns, CSV export (this page or every matching row), and the six persisted keys.
 */
export const AdminList = <N extends BrandedResource>(props: AdminListProps<N>) => {
  const { resource } = props;
  const translate = useTranslate();
  // Redirects to access-denied when refused; the list is only fetched once access is granted, so a refused
  // caller never sends (and logs) a 403.
  useRequireAccess({ action: 'list', resource });
  const { canAccess: canList } = useCanAccess({ action: 'list', resource });
  const [state, update] = usePersistedListState(props.listName);
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource });

  const pagination = { page: state.page, perPage: state.perpage };
  const sort = parseSort(state.sort);
  const filter = {
    search: state.search,
    ...statusFilterToQuery(state.filters),
    ...deletedToggleToQuery(state.deleted),
  };
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, total, isPending, isFetching, error, refetch } = useGetList<BrandedRecords[N]>(
    resource,
    { pagination, sort, filter },
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
  const selection = useResourceSelection(
    resource,
    rows.map((r) => r.id),
    JSON.stringify([filter, sort, pagination]),
  );
  const hasFilters = state.search !== '' || state.filters.length > 0 || state.deleted;

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate(props.title, { smart_count: 2 })} />
      <ListToolbar
        search={state.search}
        onSearch={(search) => update({ search })}
        filters={<FilterSheet statuses={state.filters} showDeleted={state.deleted} onChange={update} />}
        exporter={
          <CsvExport
            request={{ resource, filter, sort }}
            page={pagination}
            pageRows={rows.length}
            total={total ?? rows.length}
            loading={loading}
          />
        }
        createPath={canCreate ? props.createPath : null}
      />
      <Card>
        <BulkToolbar
          resource={resource}
          selection={selection}
          actions={brandedBulkActions(state)}
          labelOf={(id) => {
            const row = rows.find((r) => r.id === id);
            return row ? rowLabel(row) : String(id);
          }}
          onDone={() => void refetch()}
        />
        {loading && <LinearProgress data-testid="list-loading" />}
        <ListStates
          error={error}
          onRetry={() => void refetch()}
          empty={!isPending && rows.length === 0}
          emptyText={translate(hasFilters ? 'app.list.no_results' : 'app.list.empty')}
          emptyAction={!hasFilters && canCreate ? <CreateLink to={props.createPath} testId="empty-add" /> : null}
        >
          <ListTable
            testId={`${resource}-table`}
            rows={rows}
            columns={[
              ...props.columns,
              ...auditColumns<BrandedRecords[N]>(state.deleted),
              rowActionsColumn(resource, props, () => void refetch()),
            ]}
            sort={{ value: state.sort, onSort: (sort) => update({ sort }) }}
            selection={selection}
            rowLabel={rowLabel}
            // A soft-deleted record has no read view: only its row menu (Restore) applies.
            rowPath={(row) => (auditOf(row).deleted ? null : props.showPath(row))}
            dimmed={(row) => auditOf(row).deleted !== null}
          />
        </ListStates>
        <ListPagination
          total={total ?? 0}
          page={state.page}
          perpage={state.perpage}
          options={PER_PAGE_OPTIONS}
          onChange={update}
        />
      </Card>
    </Box>
  );
};
