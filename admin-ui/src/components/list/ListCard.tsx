import type { ReactNode } from 'react';
import { useListContext } from 'react-admin';
import { Card, LinearProgress } from '@mui/material';
import type { CsvExportProps } from '../export/CsvExportDialog';
import { ListPagination } from './ListPagination';
import { ListStates } from './ListStates';

/** What a list's Export needs to know of the page on screen, read from react-admin's list context. */
export function useListExportPage(): Omit<CsvExportProps, 'request'> {
  const list = useListContext();
  const rows = list.data?.length ?? 0;
  return {
    page: { page: list.page, perPage: list.perPage },
    pageRows: rows,
    total: list.total ?? rows,
    loading: Boolean(list.isPending || list.isFetching),
  };
}

/**
 * The card of a full-page list under its toolbar, read from react-admin's list context: what goes over the rows (the
 * bulk toolbar), a loading bar while a page loads, the server's refusal with Retry or the empty state in place of the
 * rows, and the pagination.
 */
export const ListCard = (props: {
  header?: ReactNode;
  emptyText: string;
  emptyAction?: ReactNode;
  perPageOptions: readonly number[];
  children: ReactNode;
}) => {
  const list = useListContext();
  return (
    <Card>
      {props.header}
      {(list.isPending || list.isFetching) && <LinearProgress data-testid="list-loading" />}
      <ListStates
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={!list.isPending && (list.data?.length ?? 0) === 0}
        emptyText={props.emptyText}
        emptyAction={props.emptyAction}
      >
        {props.children}
      </ListStates>
      <ListPagination
        total={list.total ?? 0}
        page={list.page}
        perpage={list.perPage}
        options={props.perPageOptions}
        onChange={(change) => (change.perpage ? list.setPerPage(change.perpage) : list.setPage(change.page ?? 1))}
      />
    </Card>
  );
};
