import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, LinearProgress, Stack } from '@mui/material';
import type { RowsQuery } from './CardTable';

/**
 * The card around a card table: a title, the card's own buttons, a thin bar while the rows refetch, and the table as
 * children, with any notices (a refused action, an explanation) above it.
 */
export const TableCard = (props: {
  title: ReactNode;
  subheader?: ReactNode;
  action?: ReactNode;
  /** A refetch is running; the first load shows as placeholder rows in the table instead. */
  refreshing?: boolean;
  /** The rows' query: a refetch after the first load shows as the thin bar (unless `refreshing` says otherwise). */
  query?: RowsQuery;
  alerts?: ReactNode;
  testId?: string;
  children: ReactNode;
}) => {
  const refreshing = props.refreshing ?? (!!props.query?.isFetching && !props.query.isPending);
  return (
    <Card data-testid={props.testId}>
      <CardHeader title={props.title} subheader={props.subheader} action={props.action} />
      {refreshing && <LinearProgress />}
      <CardContent>
        {props.alerts ? (
          <Stack spacing={2}>
            {props.alerts}
            {props.children}
          </Stack>
        ) : (
          props.children
        )}
      </CardContent>
    </Card>
  );
};
