import { createContext, useContext, useMemo, useRef, type MutableRefObject, type ReactNode } from 'react';
import { List, StoreContext, useListContext, useStoreContext, useTranslate, type SortPayload } from 'react-admin';
import { Box } from '@mui/material';
import type { BrandedResource } from '../../types';
import { parseSort, withSeedListKeys } from '../../lib/persistedListState';
import type { BulkActionOf, BulkResource } from '../../dataProvider/methods/bulk';
import { CsvExport } from '../export/CsvExport';
import { BulkToolbar } from '../bulk/BulkToolbar';
import { ListCard, useListExportPage } from './ListCard';
import { CreateLink, ListToolbar } from './ListToolbar';
import { ListTable, type ListColumn } from './ListTable';
import { RequireAccess } from '../RequireAccess';
import { useListContextSelection } from './useListSelection';

const PER_PAGE_OPTIONS = [10, 25, 50, 100];

/** The filter last sent to react-admin, and the filter it was built on: shared by every part of one list. */
type SentFilter = MutableRefObject<{ over: string; filter: Record<string, unknown> } | null>;
const SentFilterContext = createContext<SentFilter | null>(null);

/** The lists that page on the server, select rows for bulk actions and export through the server's CSV. */
export type ListedResource = BulkResource & ('users' | BrandedResource);

/**
 * react-admin's `<List>` as every full-page list uses it: paging, sort and filters in its store (the cluster and BU
 * lists in the seed's six localStorage keys), access checked before the first fetch, and none of its own chrome, which
 * `ListScreen` draws.
 */
export const ResourceList = (props: {
  resource: ListedResource | 'audit-log';
  title: string;
  sort: SortPayload;
  /** Rows per page until the operator picks another (the seed's lists start at 10). */
  perPage?: number;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  const parent = useStoreContext();
  // The provider itself, not StoreContextProvider: the parent store is already set up, and must not be torn down here.
  const store = useMemo(() => withSeedListKeys(parent), [parent]);
  const sent: SentFilter = useRef(null);
  // react-admin's own check redirects only after its first fetch has gone out: the guard asks before anything is fetched.
  return (
    <RequireAccess action="list" resource={props.resource}>
      <StoreContext.Provider value={store}>
        <SentFilterContext.Provider value={sent}>
          <List
            resource={props.resource}
            title={translate(props.title, { smart_count: 2 })}
            sort={props.sort}
            perPage={props.perPage ?? 10}
            actions={false}
            pagination={false}
            component="div"
            empty={false}
            exporter={false}
            sx={{ '& .RaList-main': { minWidth: 0 } }}
          >
            {props.children}
          </List>
        </SentFilterContext.Provider>
      </StoreContext.Provider>
    </RequireAccess>
  );
};

/** The list's filter values, field by field (react-admin hands them over untyped). */
export function useFilterValues(): Record<string, unknown> {
  const values: unknown = useListContext().filterValues;
  return values && typeof values === 'object' ? (values as Record<string, unknown>) : {};
}

/**
 * Sets one filter (or several), dropping those set to nothing (`false` is a value); react-admin goes back to page 1.
 * react-admin applies filters later (the next tick, then the navigation): a second change before then, from any part of
 * the list (the search box, the filter sheet), builds on the first, not on the old filter.
 */
export function useSetFilter() {
  const { setFilters } = useListContext();
  const filters = useFilterValues();
  const current = JSON.stringify(filters);
  const own: SentFilter = useRef(null);
  const sent = useContext(SentFilterContext) ?? own;
  return (change: Record<string, unknown>) => {
    const base = sent.current?.over === current ? sent.current.filter : filters;
    const next = { ...base, ...change };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
        delete next[key];
      }
    }
    sent.current = { over: current, filter: next };
    setFilters(next, undefined, false);
  };
}

export interface ListScreenProps<R extends { id: string }, N extends ListedResource> {
  resource: N;
  columns: ListColumn<R>[];
  /** The Filters button and sheet of this list. */
  filters: ReactNode;
  /** Search or a filter is in use: an empty page then says "no results", not "nothing yet". */
  filtered: boolean;
  /** The create route, or null when the caller may not create. */
  createPath: string | null;
  /** The empty state offers Create too (the lists the seed gives one). */
  emptyCreate?: boolean;
  rowPath: (row: R) => string | null;
  rowLabel: (row: R) => string;
  dimmed: (row: R) => boolean;
  /** The bulk actions that fit the current filter. */
  bulkActions: readonly BulkActionOf<N>[];
}

/**
 * The body of a full-page list inside react-admin's `<List>`: the toolbar (search, Filters, Export through the
 * server, Create), the bulk toolbar over react-admin's selection, the loading, error and empty states, the
 * column-driven table with sortable headers, and the pagination.
 */
export const ListScreen = <R extends { id: string }, N extends ListedResource>(props: ListScreenProps<R, N>) => {
  const translate = useTranslate();
  const list = useListContext<R>();
  const filter = useFilterValues();
  const setFilter = useSetFilter();
  const selection = useListContextSelection();
  const exportPage = useListExportPage();
  const rows = list.data ?? [];
  const search = typeof filter.search === 'string' ? filter.search : '';
  return (
    <Box sx={{ mt: 2 }}>
      <ListToolbar
        search={search}
        onSearch={(value) => setFilter({ search: value })}
        filters={props.filters}
        exporter={<CsvExport request={{ resource: props.resource, filter, sort: list.sort }} {...exportPage} />}
        createPath={props.createPath}
      />
      <ListCard
        header={
          <BulkToolbar
            resource={props.resource}
            selection={selection}
            actions={props.bulkActions}
            labelOf={(id) => {
              const row = rows.find((r) => r.id === id);
              return row ? props.rowLabel(row) : String(id);
            }}
            onDone={() => void list.refetch()}
          />
        }
        emptyText={translate(props.filtered ? 'app.list.no_results' : 'app.list.empty')}
        emptyAction={
          props.emptyCreate && !props.filtered && props.createPath ? (
            <CreateLink to={props.createPath} testId="empty-add" />
          ) : null
        }
        perPageOptions={PER_PAGE_OPTIONS}
      >
        <ListTable
          testId={`${props.resource}-table`}
          rows={rows}
          columns={props.columns}
          sort={{
            value: `${list.sort.field}:${list.sort.order.toLowerCase()}`,
            onSort: (sort) => list.setSort(parseSort(sort)),
          }}
          selection={selection}
          rowLabel={props.rowLabel}
          rowPath={props.rowPath}
          dimmed={props.dimmed}
        />
      </ListCard>
    </Box>
  );
};
