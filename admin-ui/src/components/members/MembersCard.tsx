import type { ReactNode } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { Button, Card, CardContent, CardHeader, LinearProgress, Typography } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { ErrorState } from '../ErrorState';

interface MembersQuery {
  isFetching: boolean;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * The frame both members cards (cluster and business unit) share: the title with an Add button for those who may
 * manage members, the loading, error and empty states around the table, and the yes/no question before a removal.
 */
export const MembersCard = (props: {
  testId: string;
  title: string;
  canManage: boolean;
  addTestId: string;
  onAdd: () => void;
  members: MembersQuery;
  isEmpty: boolean;
  /** The display name of the member about to be removed, or null when no removal is being asked. */
  removing: string | null;
  removeBusy: boolean;
  onConfirmRemove: () => void;
  onCancelRemove: () => void;
  /** The add and edit dialogs. */
  dialogs: ReactNode;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  const { members } = props;
  return (
    <Card data-testid={props.testId}>
      <CardHeader
        title={props.title}
        action={
          props.canManage && (
            <Button
              variant="contained"
              size="small"
              startIcon={<PersonAddIcon />}
              onClick={props.onAdd}
              data-testid={props.addTestId}
            >
              {translate('app.members.add')}
            </Button>
          )
        }
      />
      {members.isFetching && <LinearProgress />}
      <CardContent>
        {members.isError ? (
          <ErrorState error={members.error} onRetry={() => members.refetch()} />
        ) : members.isPending ? null : props.isEmpty ? (
          <Typography color="text.secondary">{translate('app.members.empty')}</Typography>
        ) : (
          props.children
        )}
      </CardContent>
      {props.dialogs}
      <Confirm
        isOpen={props.removing !== null}
        loading={props.removeBusy}
        title="app.members.remove_title"
        content="app.members.remove_content"
        translateOptions={{ name: props.removing ?? '' }}
        confirm="ra.message.yes"
        cancel="ra.message.no"
        onConfirm={props.onConfirmRemove}
        onClose={props.onCancelRemove}
      />
    </Card>
  );
};
