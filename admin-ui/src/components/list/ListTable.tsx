import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { BrandedRecords, BrandedResource } from '../../types';
import { parseSort, toggleSort } from '../../lib/persistedListState';
import { auditOf } from '../../lib/audit';
import { AuditCell } from './AuditCell';
import { RowActions } from './RowActions';

export interface ListColumn<R> {
  key: string;
  label: string;
  /** The contract's sort field, when the column is sortable. */
  sortField?: string;
  render: (row: R) => ReactNode;
  align?: 'left' | 'right' | 'center';
  width?: number;
}

const SortableHeader = (props: { field: string; sort: string; onSort: (sort: string) => void; children: ReactNode }) => {
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

/** The rows of a cluster or BU list: the resource's columns, then Created, Updated, Deleted (when shown) and the row menu. */
export const ListTable = <N extends BrandedResource>(props: {
  resource: N;
  rows: BrandedRecords[N][];
  columns: ListColumn<BrandedRecords[N]>[];
  sort: string;
  onSort: (sort: string) => void;
  showDeleted: boolean;
  editPath: (row: BrandedRecords[N]) => string;
  onChanged: () => void;
}) => {
  const translate = useTranslate();
  const header = { fontWeight: 600 };
  return (
    <TableContainer>
      <Table size="small" data-testid={`${props.resource}-table`}>
        <TableHead>
          <TableRow>
            {props.columns.map((col) => (
              <TableCell key={col.key} align={col.align} sx={{ width: col.width, ...header }}>
                {col.sortField ? (
                  <SortableHeader field={col.sortField} sort={props.sort} onSort={props.onSort}>
                    {translate(col.label)}
                  </SortableHeader>
                ) : (
                  translate(col.label)
                )}
              </TableCell>
            ))}
            <TableCell sx={header}>
              <SortableHeader field="created_at" sort={props.sort} onSort={props.onSort}>
                {translate('app.list.created')}
              </SortableHeader>
            </TableCell>
            <TableCell sx={header}>
              <SortableHeader field="updated_at" sort={props.sort} onSort={props.onSort}>
                {translate('app.list.updated')}
              </SortableHeader>
            </TableCell>
            {props.showDeleted && (
              <TableCell sx={header} data-testid="deleted-column">
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
          {props.rows.map((row) => {
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
                {props.showDeleted && (
                  <TableCell>
                    <AuditCell entry={audit.deleted} />
                  </TableCell>
                )}
                <TableCell align="right">
                  <RowActions resource={props.resource} record={row} editPath={props.editPath(row)} onChanged={props.onChanged} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
