import type { ReactNode } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { Button, IconButton, Tooltip } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import type { BusinessUnitUser, ClusterUser } from '../../types';
import { CardTable, TableCard, type CardColumn } from '../card-table';
import { ScreenMessages } from '../history/ScreenMessages';
import { memberScreenMessages } from './messages';
import { StaleRecordDialog } from '../StaleRecordDialog';

const MODULES = [memberScreenMessages];

interface MembersQuery {
  isFetching: boolean;
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface MembersCardProps<M extends ClusterUser | BusinessUnitUser> {
  testId: string;
  title: string;
  canManage: boolean;
  addTestId: string;
  onAdd: () => void;
  members: MembersQuery;
  rows: readonly M[];
  columns: readonly CardColumn<M>[];
  rowTestId: string;
  onEdit: (member: M) => void;
  onRemove: (member: M) => void;
  removeTestId: string;
  /** The display name of the member about to be removed, or null when no removal is being asked. */
  removing: string | null;
  removeBusy: boolean;
  onConfirmRemove: () => void;
  onCancelRemove: () => void;
  /** An edit was refused because someone else changed the membership first (412); the list shows their version. */
  stale: boolean;
  onStaleClose: () => void;
  /** The add and edit dialogs. */
  dialogs: ReactNode;
}

const RowActions = <M,>(props: {
  member: M;
  onEdit: (m: M) => void;
  onRemove: (m: M) => void;
  removeTestId: string;
}) => {
  const translate = useTranslate();
  return (
    <>
      <Tooltip title={translate('members.edit')}>
        <IconButton
          size="small"
          onClick={() => props.onEdit(props.member)}
          aria-label={translate('members.edit')}
          data-testid="member-edit"
        >
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('app.members.remove')}>
        <IconButton
          size="small"
          onClick={() => props.onRemove(props.member)}
          aria-label={translate('app.members.remove')}
          data-testid={props.removeTestId}
        >
          <PersonRemoveIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
};

const MembersCardBody = <M extends ClusterUser | BusinessUnitUser>(props: MembersCardProps<M>) => {
  const translate = useTranslate();
  const { members } = props;
  return (
    <TableCard
      testId={props.testId}
      title={props.title}
      refreshing={members.isFetching && !members.isPending}
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
    >
      <CardTable<M>
        rows={members.isPending ? undefined : props.rows}
        columns={props.columns}
        loading={members.isPending}
        error={members.error}
        onRetry={() => void members.refetch()}
        empty={translate('app.members.empty')}
        emptyTestId={`${props.testId}-empty`}
        rowTestId={props.rowTestId}
        actionsLabel={props.canManage ? translate('members.actions') : undefined}
        actions={
          props.canManage
            ? (m) => (
                <RowActions
                  member={m}
                  onEdit={props.onEdit}
                  onRemove={props.onRemove}
                  removeTestId={props.removeTestId}
                />
              )
            : undefined
        }
      />
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
      <StaleRecordDialog open={props.stale} onClose={props.onStaleClose} message="members.stale" />
    </TableCard>
  );
};

/**
 * The frame both members cards (cluster and business unit) share: the title with an Add button for those who may
 * manage members, the members in a card table with Edit and Remove per row, the yes/no question before a removal, and
 * the notice when an edit met someone else's newer change.
 */
export const MembersCard = <M extends ClusterUser | BusinessUnitUser>(props: MembersCardProps<M>) => (
  <ScreenMessages modules={MODULES}>
    <MembersCardBody<M> {...props} />
  </ScreenMessages>
);
