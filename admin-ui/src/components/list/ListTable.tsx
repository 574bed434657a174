import type { MouseEvent, ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  Box,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { Link, useNavigate } from 'react-router-dom';
import { visuallyHidden } from '@mui/utils';
import type { BrandedRecords, BrandedResource } from '../../types';
import { parseSort, toggleSort } from '../../lib/persistedListState';
import { auditOf } from '../../lib/audit';
import { AuditCell } from './AuditCell';
import { RowActions } from './RowActions';
import { SelectAllCell, SelectRowCell } from '../bulk/SelectionCells';
import type { BulkSelection } from '../bulk/useBulkSelection';

export interface ListColumn<R> {
  key: string;
  label: string;
  /** The contract's sort field, when the column is sortable. */
  sortField?: string;
  render: (row: R) => ReactNode;
  align?: 'left' | 'right' | 'center';
  width?: number;
  /** Secondary columns fold away on narrower screens: below 1280 px (`lg`) or below 900 px (`md`). */
  hideBelow?: 'md' | 'lg';
  /** The column whose value links to the record's read view (the keyboard's way in; a click anywhere on the row works too). */
  opensRecord?: boolean;
}

/** Hides a cell below a breakpoint. Written as a max-width query, so a screen without media queries shows every column. */
export const hiddenBelow = (breakpoint: 'md' | 'lg' | undefined) => (theme: Theme) =>
  breakpoint ? { [theme.breakpoints.down(breakpoint)]: { display: 'none' } } : {};

/** The row-actions column stays in view at the right edge when a narrow screen scrolls the table sideways. */
export const stickyActions = { position: 'sticky', right: 0, bgcolor: 'background.paper', zIndex: 1 } as const;

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

/**
 * The rows of a cluster or BU list: the resource's columns, then Created, Updated, Deleted (when shown) and the row
 * menu. A click on a row opens the record's read view.
 */
export const ListTable = <N extends BrandedResource>(props: {
  resource: N;
  rows: BrandedRecords[N][];
  columns: ListColumn<BrandedRecords[N]>[];
  sort: string;
  onSort: (sort: string) => void;
  showDeleted: boolean;
  showPath: (row: BrandedRecords[N]) => string;
  editPath: (row: BrandedRecords[N]) => string;
  onChanged: () => void;
  /** Row selection for bulk actions, when the list offers any. */
  selection?: BulkSelection;
  /** How a row is named (its checkbox's label). */
  rowLabel?: (row: BrandedRecords[N]) => string;
}) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const header = { fontWeight: 600 };
  const auditColumn = hiddenBelow('lg');
  return (
    <TableContainer>
      <Table size="small" data-testid={`${props.resource}-table`}>
        <TableHead>
          <TableRow>
            {props.selection && <SelectAllCell selection={props.selection} />}
            {props.columns.map((col) => (
              <TableCell
                key={col.key}
                align={col.align}
                sx={[{ width: col.width, ...header }, hiddenBelow(col.hideBelow)]}
              >
                {col.sortField ? (
                  <SortableHeader field={col.sortField} sort={props.sort} onSort={props.onSort}>
                    {translate(col.label)}
                  </SortableHeader>
                ) : (
                  translate(col.label)
                )}
              </TableCell>
            ))}
            <TableCell sx={[header, auditColumn]}>
              <SortableHeader field="created_at" sort={props.sort} onSort={props.onSort}>
                {translate('app.list.created')}
              </SortableHeader>
            </TableCell>
            <TableCell sx={[header, auditColumn]}>
              <SortableHeader field="updated_at" sort={props.sort} onSort={props.onSort}>
                {translate('app.list.updated')}
              </SortableHeader>
            </TableCell>
            {props.showDeleted && (
              <TableCell sx={[header, auditColumn]} data-testid="deleted-column">
                {translate('app.list.deleted_column')}
              </TableCell>
            )}
            <TableCell align="right" sx={{ width: 56, ...stickyActions }}>
              <Box component="span" sx={visuallyHidden}>
                {translate('app.list.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.rows.map((row) => {
            const audit = auditOf(row);
            // A soft-deleted record has no read view: only its row menu (Restore) applies.
            const opens = !audit.deleted;
            const showPath = props.showPath(row);
            return (
              <TableRow
                key={row.id}
                hover
                data-testid="list-row"
                onClick={
                  opens
                    ? (e) => {
                        if (isPlainRowClick(e)) void navigate(showPath);
                      }
                    : undefined
                }
                sx={[audit.deleted ? { opacity: 0.7 } : {}, opens ? { cursor: 'pointer' } : {}]}
              >
                {props.selection && (
                  <SelectRowCell
                    selection={props.selection}
                    id={row.id}
                    name={props.rowLabel?.(row) ?? String(row.id)}
                  />
                )}
                {props.columns.map((col) => (
                  <TableCell key={col.key} align={col.align} sx={hiddenBelow(col.hideBelow)}>
                    {col.opensRecord && opens ? (
                      <MuiLink component={Link} to={showPath} underline="hover" color="inherit">
                        {col.render(row)}
                      </MuiLink>
                    ) : (
                      col.render(row)
                    )}
                  </TableCell>
                ))}
                <TableCell sx={auditColumn}>
                  <AuditCell entry={audit.created} />
                </TableCell>
                <TableCell sx={auditColumn}>
                  <AuditCell entry={audit.updated} />
                </TableCell>
                {props.showDeleted && (
                  <TableCell sx={auditColumn}>
                    <AuditCell entry={audit.deleted} />
                  </TableCell>
                )}
                <TableCell align="right" sx={stickyActions}>
                  <RowActions
                    resource={props.resource}
                    record={row}
                    showPath={showPath}
                    editPath={props.editPath(row)}
                    onChanged={props.onChanged}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
