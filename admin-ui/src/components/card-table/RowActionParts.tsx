import { Confirm, useTranslate } from 'react-admin';
import { Alert, Button, IconButton, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { ConfirmedRowAction } from './useConfirmedRowAction';

/** The confirmation of a card's row action: its title and sentence keys, filled from the row that waits. */
export const RowActionConfirm = <R,>(props: {
  action: ConfirmedRowAction<R>;
  title: string;
  content: string;
  /** The sentence's arguments; called with the waiting row only. */
  args: (row: R) => Record<string, unknown>;
}) => {
  const { action } = props;
  return (
    <Confirm
      isOpen={action.pending !== null}
      loading={action.busy}
      title={props.title}
      content={props.content}
      translateOptions={action.pending === null ? {} : props.args(action.pending)}
      onClose={action.cancel}
      onConfirm={action.confirm}
    />
  );
};

/** A refused row action, above the table, until closed or the next try. */
export const RowActionFailure = <R,>({ action, testId }: { action: ConfirmedRowAction<R>; testId: string }) =>
  action.failure ? (
    <Alert severity="error" onClose={action.clearFailure} data-testid={testId}>
      {action.failure}
    </Alert>
  ) : null;

/** A row's remove (revoke, delete) button: an icon with its label as tooltip and accessible name. */
export const RemoveRowButton = (props: { labelKey: string; onClick: () => void; testId: string }) => {
  const translate = useTranslate();
  const label = translate(props.labelKey);
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={props.onClick} data-testid={props.testId}>
        <DeleteIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};

/** The card's one adding button, in its header. */
export const CardAddButton = (props: { labelKey: string; onClick: () => void; testId: string; disabled?: boolean }) => {
  const translate = useTranslate();
  return (
    <Button
      variant="contained"
      size="small"
      startIcon={<AddIcon />}
      disabled={props.disabled}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      {translate(props.labelKey)}
    </Button>
  );
};
