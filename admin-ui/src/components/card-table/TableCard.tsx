import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, LinearProgress } from '@mui/material';

/**
 * The card around a card table: a title, the card's own buttons, a thin bar while the rows refetch, and the table (with
 * any notices above it) as children.
 */
export const TableCard = (props: {
  title: ReactNode;
  subheader?: ReactNode;
  action?: ReactNode;
  /** A refetch is running; the first load shows as placeholder rows in the table instead. */
  refreshing?: boolean;
  testId?: string;
  children: ReactNode;
}) => (
  <Card data-testid={props.testId}>
    <CardHeader title={props.title} subheader={props.subheader} action={props.action} />
    {props.refreshing && <LinearProgress />}
    <CardContent>{props.children}</CardContent>
  </Card>
);
