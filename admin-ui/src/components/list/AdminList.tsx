import { useCanAccess, useListContext } from 'react-admin';
import { auditOf } from '../../lib/audit';
import type { BrandedRecords, BrandedResource } from '../../types';
import { statusFilterToQuery, type StatusValue } from '../../lib/statusFilter';
import type { ListState } from '../../lib/persistedListState';
import type { BulkActionOf } from '../../dataProvider/methods/bulk';
import { FilterSheet } from './FilterSheet';
import type { ListColumn } from './ListTable';
import { auditColumns, rowActionsColumn } from './brandedColumns';
import { ListScreen, ResourceList, useFilterValues, useSetFilter } from './ResourceList';

interface AdminListProps<N extends BrandedResource> {
  resource: N;
  title: string;
  columns: ListColumn<BrandedRecords[N]>[];
  createPath: string;
  showPath: (row: BrandedRecords[N]) => string;
  editPath: (row: BrandedRecords[N]) => string;
}

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

/** The list's Status and soft-deleted filters, as the filter sheet and the bulk actions read them. */
function useBrandedFilters() {
  const filter = useFilterValues();
  const statuses = Array.isArray(filter.status)
    ? filter.status.filter((s): s is StatusValue => s === 'active' || s === 'inactive')
    : [];
  return { statuses, deleted: filter.deleted === 'include', search: typeof filter.search === 'string' };
}

const AdminListBody = <N extends BrandedResource>(props: AdminListProps<N>) => {
  const { resource } = props;
  const { refetch } = useListContext();
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource });
  const { statuses, deleted, search } = useBrandedFilters();
  const setFilter = useSetFilter();
  return (
    <ListScreen<BrandedRecords[N], BrandedResource>
      resource={resource}
      columns={[
        ...props.columns,
        ...auditColumns<BrandedRecords[N]>(deleted),
        rowActionsColumn(resource, props, () => void refetch()),
      ]}
      filters={
        <FilterSheet
          statuses={statuses}
          showDeleted={deleted}
          onChange={(change) =>
            setFilter({
              ...(change.filters ? { status: change.filters } : {}),
              ...(change.deleted !== undefined ? { deleted: change.deleted ? 'include' : undefined } : {}),
            })
          }
        />
      }
      filtered={search || statuses.length > 0 || deleted}
      createPath={canCreate ? props.createPath : null}
      emptyCreate
      rowLabel={rowLabel}
      // A soft-deleted record has no read view: only its row menu (Restore) applies.
      rowPath={(row) => (auditOf(row).deleted ? null : props.showPath(row))}
      dimmed={(row) => auditOf(row).deleted !== null}
      bulkActions={brandedBulkActions({ filters: statuses, deleted })}
    />
  );
};

/**
 * The cluster and BU list pages: react-admin's `<List>` with server paging, debounced search, the filter sheet,
 * sortable columns, audit and deleted columns, bulk actions, CSV export through the server (this page or every
 * matching row), and the seed's six persisted keys.
 */
export const AdminList = <N extends BrandedResource>(props: AdminListProps<N>) => (
  <ResourceList resource={props.resource} title={props.title} sort={{ field: 'created_at', order: 'DESC' }}>
    <AdminListBody<N> {...props} />
  </ResourceList>
);
