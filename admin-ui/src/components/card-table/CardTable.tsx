import type { MouseEvent, ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { Breakpoint, SxProps, Theme } from '@mui/material/styles';
import type { SystemStyleObject } from '@mui/system';
import { visuallyHidden } from '@mui/utils';
import { ErrorState } from '../ErrorState';

/** One column of a card table: its header and how a row shows in it. */
export interface CardColumn<R> {
  /** Stable name of the column, unique in its table. */
  id: string;
  /** The header, already translated. */
  label: ReactNode;
  render: (row: R) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** A secondary column that steps aside below this breakpoint, so the table fits a narrow screen. */
  hideBelow?: Breakpoint;
  /** Extra cell styles, for a column whose values need them (monospace JSON, a minimum width for an input). */
  sx?: SystemStyleObject<Theme>;
}

/** What a card needs of the query its rows come from (a TanStack Query result fits). */
export interface RowsQuery {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface CardTableProps<R> {
  /** Undefined while the first load runs. */
  rows: readonly R[] | undefined;
  columns: readonly CardColumn<R>[];
  /** The row's React key; by default its `id` (every record the API lists has one). */
  rowKey?: (row: R, index: number) => string;
  /** The first load is running: a few placeholder rows hold the card's shape. */
  loading?: boolean;
  /** A failed load: its message and Retry take the table's place. */
  error?: unknown;
  onRetry?: () => void;
  /** The query the rows come from: its first load, its failure and Retry, in place of the three props above. */
  query?: RowsQuery;
  /** What the card says when there is nothing to list. */
  empty: ReactNode;
  emptyTestId?: string;
  /** The row's own buttons (edit, remove), in a narrow last column. */
  actions?: (row: R) => ReactNode;
  /** Names the actions column for screen readers; it shows no header text. */
  actionsLabel?: string;
  /** Opens the row; a click on a link or a button inside the row keeps its own meaning. */
  onRowClick?: (row: R) => void;
  ariaLabel?: string;
  testId?: string;
  rowTestId?: string;
}

const PLACEHOLDER_ROWS = 3;

const idOf = (row: unknown, index: number): string =>
  typeof row === 'object' && row !== null && 'id' in row ? String(row.id) : String(index);

/** Long unbroken values (emails, ids, JSON) wrap inside their cell instead of widening the table past the card. */
const FIT_WIDTH: SxProps<Theme> = {
  tableLayout: 'auto',
  '& th, & td': { overflowWrap: 'anywhere' },
  '& th': { fontWeight: 600 },
};

const hiddenBelow = (bp: Breakpoint | undefined) => (bp ? { display: { xs: 'none', [bp]: 'table-cell' } } : {});

/** A click on the row itself, not on a control inside it. */
function isPlainRowClick(e: MouseEvent<HTMLElement>): boolean {
  const target = e.target as HTMLElement;
  if (!e.currentTarget.contains(target)) return false;
  return !target.closest('button, a, input, [role="menuitem"], [role="option"]');
}

/**
 * The one table of the console's cards (members, grants, config entries, SSO mappings, a cluster's BUs, history):
 * columns declared once, the same loading, empty and error states everywhere, optional row actions, and no sideways
 * scrolling at 768 px.
 */
export const CardTable = <R,>(props: CardTableProps<R>) => {
  const translate = useTranslate();
  const { columns, actions, query } = props;
  const loading = props.loading ?? query?.isPending;
  const error = props.error ?? query?.error;
  const onRetry = props.onRetry ?? (query ? () => void query.refetch() : undefined);
  if (error) return <ErrorState error={error} onRetry={onRetry} />;
  if (!loading && props.rows?.length === 0) {
    return (
      <Typography color="text.secondary" data-testid={props.emptyTestId ?? 'card-table-empty'}>
        {props.empty}
      </Typography>
    );
  }
  const span = columns.length + (actions ? 1 : 0);
  return (
    <Table size="small" sx={FIT_WIDTH} aria-label={props.ariaLabel} data-testid={props.testId}>
      <TableHead>
        <TableRow>
          {columns.map((c) => (
            <TableCell key={c.id} align={c.align} sx={hiddenBelow(c.hideBelow)}>
              {c.label}
            </TableCell>
          ))}
          {actions && (
            <TableCell align="right" sx={{ width: '1%' }}>
              {props.actionsLabel && (
                <Typography component="span" sx={visuallyHidden}>
                  {props.actionsLabel}
                </Typography>
              )}
            </TableCell>
          )}
        </TableRow>
      </TableHead>
      <TableBody>
        {loading || !props.rows
          ? Array.from({ length: PLACEHOLDER_ROWS }, (_, i) => (
              <TableRow key={i} data-testid="card-table-loading" aria-busy>
                <TableCell colSpan={span}>
                  {i === 0 && (
                    <Typography component="span" sx={visuallyHidden}>
                      {translate('ra.page.loading')}
                    </Typography>
                  )}
                  <Skeleton variant="text" />
                </TableCell>
              </TableRow>
            ))
          : props.rows.map((row, i) => (
              <TableRow
                key={(props.rowKey ?? idOf)(row, i)}
                data-testid={props.rowTestId}
                hover={!!props.onRowClick}
                onClick={
                  props.onRowClick
                    ? (e) => {
                        if (isPlainRowClick(e)) props.onRowClick?.(row);
                      }
                    : undefined
                }
                sx={props.onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {columns.map((c) => (
                  <TableCell key={c.id} align={c.align} sx={{ ...c.sx, ...hiddenBelow(c.hideBelow) }}>
                    {c.render(row)}
                  </TableCell>
                ))}
                {actions && (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap', overflowWrap: 'normal' }}>
                    {actions(row)}
                  </TableCell>
                )}
              </TableRow>
            ))}
      </TableBody>
    </Table>
  );
};
