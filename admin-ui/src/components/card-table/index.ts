export { CardTable, type CardColumn, type CardTableProps } from './CardTable';
export { TableCard } from './TableCard';
