export { CardTable, type CardColumn, type CardTableProps, type RowsQuery } from './CardTable';
export { TableCard } from './TableCard';
export { RecordsCard, type CardAdd, type CardRemoval } from './RecordsCard';
export { useConfirmedRowAction, type ConfirmedRowAction } from './useConfirmedRowAction';
