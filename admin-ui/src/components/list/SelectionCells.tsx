import { Checkbox, TableCell } from '@mui/material';
import type { Identifier } from 'react-admin';
import { useBulkTranslate } from '../bulk/messages';
import type { ListSelection } from './useListSelection';

export type { ListSelection } from './useListSelection';

const cell = { width: 48, pl: 1, pr: 0 } as const;

/** The header checkbox: selects every row of the page; half-checked while only some are. */
export const SelectAllCell = ({ selection }: { selection: ListSelection }) => {
  const translate = useBulkTranslate();
  return (
    <TableCell padding="checkbox" sx={cell}>
      <Checkbox
        size="small"
        checked={selection.allSelected}
        indeterminate={selection.someSelected}
        onChange={selection.toggleAll}
        inputProps={{ 'aria-label': translate('bulk.select_all') }}
        data-testid="select-all"
      />
    </TableCell>
  );
};

/** A row's checkbox; a click on it selects the row without opening the record. */
export const SelectRowCell = ({ selection, id, name }: { selection: ListSelection; id: Identifier; name: string }) => {
  const translate = useBulkTranslate();
  return (
    <TableCell padding="checkbox" sx={cell} onClick={(e) => e.stopPropagation()}>
      <Checkbox
        size="small"
        checked={selection.isSelected(id)}
        onChange={() => selection.toggle(id)}
        inputProps={{ 'aria-label': translate('bulk.select_row', { name }) }}
        data-testid={`select-row-${id}`}
      />
    </TableCell>
  );
};
