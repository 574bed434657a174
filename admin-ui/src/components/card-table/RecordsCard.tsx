import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { CardTable, type CardColumn, type CardTableProps, type RowsQuery } from './CardTable';
import { TableCard } from './TableCard';
import type { ConfirmedRowAction } from './useConfirmedRowAction';
import { CardAddButton, RemoveRowButton, RowActionConfirm, RowActionFailure } from './RowActionParts';

/** A card's one adding button. */
export interface CardAdd {
  labelKey: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
}

/** A card's confirmed remove (revoke, delete) on each row: the button, its confirmation, and its refusal in place. */
export interface CardRemoval<R> {
  action: ConfirmedRowAction<R>;
  labelKey: string;
  testId: string;
  failureTestId: string;
  /** The confirmation's title and sentence keys, and the sentence's arguments from the waiting row. */
  title: string;
  content: string;
  args: (row: R) => Record<string, unknown>;
  /** No button on a row this rules out (a token already revoked). */
  when?: (row: R) => boolean;
}

/**
 * The card of an embedded list of records (grants, tokens, SSO mappings, webhooks, deliveries, service accounts): its
 * title, an Add button for who may add, the rows of one query with its loading, empty and error states, and a
 * confirmed remove per row. The screen gives what differs: its columns, its keys and test ids, its dialogs (children).
 */
export const RecordsCard = <R,>(props: {
  testId: string;
  title: ReactNode;
  subheader?: ReactNode;
  query: RowsQuery;
  rows: readonly R[] | undefined;
  columns: readonly CardColumn<R>[];
  /** Message keys: what the card says when there is nothing to list, and the table's name for screen readers. */
  emptyKey: string;
  captionKey?: string;
  emptyTestId: string;
  rowTestId: string;
  /** Left out (or false) for a caller who may not add. */
  add?: CardAdd | false;
  /** Left out (or false) for a caller who may not remove. */
  removal?: CardRemoval<R> | false;
  /** A refetch is running (by default: the rows' query refetches). */
  refreshing?: boolean;
  /** Notices above the table (an explanation, another load's failure). */
  alerts?: ReactNode;
  header?: ReactNode;
  /** Row buttons other than a remove, with their column's name. */
  rowActions?: Pick<CardTableProps<R>, 'actions' | 'actionsLabel'>;
  onRowClick?: (row: R) => void;
  /** The card's dialogs, and what follows the table (paging). */
  children?: ReactNode;
}) => {
  const translate = useTranslate();
  const { add, removal } = props;
  const actions: Pick<CardTableProps<R>, 'actions' | 'actionsLabel'> = removal
    ? {
        actionsLabel: translate(removal.labelKey),
        actions: (row) =>
          (removal.when?.(row) ?? true) && (
            <RemoveRowButton
              labelKey={removal.labelKey}
              onClick={() => removal.action.ask(row)}
              testId={removal.testId}
            />
          ),
      }
    : (props.rowActions ?? {});
  const failure = removal && <RowActionFailure action={removal.action} testId={removal.failureTestId} />;
  return (
    <TableCard
      testId={props.testId}
      title={props.title}
      subheader={props.subheader}
      query={props.query}
      refreshing={props.refreshing}
      action={props.header ?? (add && <CardAddButton {...add} />)}
      alerts={
        (props.alerts || failure) && (
          <>
            {props.alerts}
            {failure}
          </>
        )
      }
    >
      <CardTable<R>
        rows={props.rows}
        query={props.query}
        columns={props.columns}
        empty={translate(props.emptyKey)}
        emptyTestId={props.emptyTestId}
        rowTestId={props.rowTestId}
        ariaLabel={props.captionKey && translate(props.captionKey)}
        onRowClick={props.onRowClick}
        {...actions}
      />
      {props.children}
      {removal && (
        <RowActionConfirm action={removal.action} title={removal.title} content={removal.content} args={removal.args} />
      )}
    </TableCard>
  );
};
