export { CardTable, type CardColumn, type CardTableProps, type RowsQuery } from './CardTable';
export { TableCard } from './TableCard';
export { useConfirmedRowAction, type ConfirmedRowAction } from './useConfirmedRowAction';
export { CardAddButton, RemoveRowButton, RowActionConfirm, RowActionFailure, useRemoveColumn } from './RowActionParts';
