import { useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslate, type Identifier } from 'react-admin';
import {
  Collapse,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { Link, useNavigate } from 'react-router-dom';
import { parseSort, toggleSort } from '../../lib/persistedListState';
import { SelectAllCell, SelectRowCell, type ListSelection } from './SelectionCells';

export interface ListColumn<R> {
  key: string;
  /** An i18n key; an empty label leaves the header blank (a column of buttons names itself). */
  label: string;
  /** The contract's sort field, when the column is sortable. */
  sortField?: string;
  render: (row: R) => ReactNode;
  align?: 'left' | 'right' | 'center';
  width?: number;
  /**
   * Secondary columns fold away on narrower screens: below 1280 px (`lg`), below 900 px (`md`) or, for what a 768 px
   * screen can still show but a phone cannot, below 600 px (`sm`).
   */
  hideBelow?: 'sm' | 'md' | 'lg';
  /** The column whose value links to the record's read view (the keyboard's way in; a click anywhere on the row works too). */
  opensRecord?: boolean;
  /** The row's buttons: they stay at the right edge and never open the record. */
  actions?: boolean;
}

/** Rows under a heading of their own (the mapping list's document types), in one table so every group lines up. */
export interface RowGroup<R> {
  key: string;
  heading: ReactNode;
  rows: R[];
}

/** Hides a cell below a breakpoint. Written as a max-width query, so a screen without media queries shows every column. */
export const hiddenBelow = (breakpoint: 'sm' | 'md' | 'lg' | undefined) => (theme: Theme) =>
  breakpoint ? { [theme.breakpoints.down(breakpoint)]: { display: 'none' } } : {};

/** The row-actions column stays at the right edge. */
const stickyActions = { position: 'sticky', right: 0, bgcolor: 'background.paper', zIndex: 1 } as const;

/** A click on the row itself (not on a button, link or the row menu, which lives in a portal) opens the record. */
export function isPlainRowClick(e: MouseEvent<HTMLElement>): boolean {
  const target = e.target as HTMLElement;
  if (!e.currentTarget.contains(target)) return false;
  return !target.closest('button, a, input, [role="menuitem"]');
}

const SortableHeader = (props: {
  field: string;
  sort: string;
  onSort: (sort: string) => void;
  children: ReactNode;
}) => {
  const current = parseSort(props.sort);
  const active = current.field === props.field;
  return (
    <TableSortLabel
      active={active}
      direction={active && current.order === 'ASC' ? 'asc' : 'desc'}
      onClick={() => props.onSort(toggleSort(props.sort, props.field))}
    >
      {props.children}
    </TableSortLabel>
  );
};

export interface ListTableProps<R extends { id: Identifier }> {
  testId: string;
  rows: R[];
  columns: ListColumn<R>[];
  /** `field:dir`, with the handler a sortable header calls. */
  sort?: { value: string; onSort: (sort: string) => void };
  /** Row selection for bulk actions, when the list offers any; `rowLabel` names a row's checkbox. */
  selection?: ListSelection;
  rowLabel?: (row: R) => string;
  /** The record's read view; null for a row that has none (a soft-deleted record). */
  rowPath?: (row: R) => string | null;
  /** Rows under headings; without it every row comes in one body. */
  groups?: RowGroup<R>[];
  rowTestId?: string;
  /** A group's body is `<groupTestId>-<group key>`. */
  groupTestId?: string;
  dimmed?: (row: R) => boolean;
  /** Rows that unfold to more (the audit log's field changes): the toggle comes first, the detail under the row. */
  detail?: RowDetail<R>;
}

export interface RowDetail<R> {
  toggle: (open: boolean, onToggle: () => void) => ReactNode;
  render: (row: R) => ReactNode;
}

/** One row, with its unfolded detail when the list has one. */
const Row = <R extends { id: Identifier }>(props: { row: R; table: ListTableProps<R>; columnCount: number }) => {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { row, table } = props;
  const { selection, detail } = table;
  const path = table.rowPath?.(row) ?? null;
  return (
    <>
      <TableRow
        hover
        data-testid={table.rowTestId ?? 'list-row'}
        data-id={row.id}
        onClick={
          path
            ? (e) => {
                if (isPlainRowClick(e)) void navigate(path);
              }
            : undefined
        }
        sx={[
          table.dimmed?.(row) ? { opacity: 0.7 } : {},
          path ? { cursor: 'pointer' } : {},
          open ? { '& > td': { borderBottom: 'none' } } : {},
        ]}
      >
        {detail && <TableCell padding="checkbox">{detail.toggle(open, () => setOpen((o) => !o))}</TableCell>}
        {selection && (
          <SelectRowCell selection={selection} id={row.id} name={table.rowLabel?.(row) ?? String(row.id)} />
        )}
        {table.columns.map((col) => (
          <TableCell
            key={col.key}
            align={col.align}
            sx={[col.actions ? { whiteSpace: 'nowrap', ...stickyActions } : {}, hiddenBelow(col.hideBelow)]}
          >
            {col.opensRecord && path ? (
              <MuiLink component={Link} to={path} underline="hover" color="inherit">
                {col.render(row)}
              </MuiLink>
            ) : (
              col.render(row)
            )}
          </TableCell>
        ))}
      </TableRow>
      {detail && (
        <TableRow>
          <TableCell colSpan={props.columnCount} sx={{ py: 0 }}>
            <Collapse in={open} unmountOnExit>
              {detail.render(row)}
            </Collapse>
          </TableCell>
        </TableRow>
      )}
    </>
  );
};

/**
 * The table body of every full-page list, driven by its column declarations: sortable headers, the selection
 * checkboxes, a row click that opens the record, columns that fold on narrow screens, and optional group headings.
 */
export const ListTable = <R extends { id: Identifier }>(props: ListTableProps<R>) => {
  const translate = useTranslate();
  const { columns, selection, sort } = props;
  const columnCount = columns.length + (selection ? 1 : 0) + (props.detail ? 1 : 0);

  const renderRow = (row: R) => <Row key={row.id} row={row} table={props} columnCount={columnCount} />;

  return (
    <TableContainer>
      <Table size="small" data-testid={props.testId}>
        <TableHead>
          <TableRow>
            {props.detail && <TableCell padding="checkbox" />}
            {selection && <SelectAllCell selection={selection} />}
            {columns.map((col) => (
              <TableCell
                key={col.key}
                align={col.align}
                data-testid={`column-${col.key}`}
                sx={[
                  { width: col.width, fontWeight: 600 },
                  col.actions ? stickyActions : {},
                  hiddenBelow(col.hideBelow),
                ]}
              >
                {col.sortField && sort ? (
                  <SortableHeader field={col.sortField} sort={sort.value} onSort={sort.onSort}>
                    {translate(col.label)}
                  </SortableHeader>
                ) : col.label ? (
                  translate(col.label)
                ) : null}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        {props.groups ? (
          props.groups.map((group) => (
            <TableBody key={group.key} data-testid={`${props.groupTestId ?? 'list-group'}-${group.key}`}>
              <TableRow>
                <TableCell
                  component="th"
                  scope="colgroup"
                  colSpan={columnCount}
                  sx={{ bgcolor: 'action.hover', py: 1 }}
                >
                  <Typography variant="subtitle1" component="h2">
                    {group.heading}
                  </Typography>
                </TableCell>
              </TableRow>
              {group.rows.map(renderRow)}
            </TableBody>
          ))
        ) : (
          <TableBody>{props.rows.map(renderRow)}</TableBody>
        )}
      </Table>
    </TableContainer>
  );
};
