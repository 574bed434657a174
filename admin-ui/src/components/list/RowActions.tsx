import { useState } from 'react';
import { Confirm, useCanAccess, useDelete, useTranslate } from 'react-admin';
import { IconButton, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import DeleteIcon from '@mui/icons-material/Delete';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { useNavigate } from 'react-router-dom';
import type { BrandedRecord, BrandedResource } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { isSoftDeleted } from '../../lib/audit';
import { recordLabel, useRecordFeedback } from '../useRecordFeedback';

/**
 * Per-row menu. Open needs the read grant, Edit the update grant and Delete the delete grant, all checked
 * against the row's cluster (a BU row: its parent cluster). Without any of them the menu has no actions.
 */
export const RowActions = (props: {
  resource: BrandedResource;
  record: BrandedRecord;
  showPath: string;
  editPath: string;
  onChanged: () => void;
}) => {
  const { resource, record } = props;
  const translate = useTranslate();
  const feedback = useRecordFeedback(resource);
  const navigate = useNavigate();
  const dataProvider = useAppDataProvider();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteOne, { isPending: deleting }] = useDelete<BrandedRecord>();
  const deleted = isSoftDeleted(record);
  const { canAccess: canShow } = useCanAccess({ action: 'show', resource, record });
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource, record });
  const { canAccess: canDelete } = useCanAccess({ action: 'delete', resource, record });

  const label = recordLabel(record);
  const close = () => setAnchor(null);
  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const restore = async () => {
    close();
    try {
      await dataProvider.restore(resource, record.id);
      feedback.restored(label);
      props.onChanged();
    } catch (e) {
      feedback.restoreFailed(label, e);
    }
  };

  return (
    <>
      <IconButton
        aria-label={translate('app.list.actions')}
        size="small"
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid={`row-actions-${record.id}`}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {canShow && !deleted && (
          <MenuItem
            onClick={() => {
              close();
              void navigate(props.showPath);
            }}
          >
            <ListItemIcon>
              <VisibilityIcon fontSize="small" />
            </ListItemIcon>
            {translate('app.list.open')}
          </MenuItem>
        )}
        {canEdit && !deleted && (
          <MenuItem
            onClick={() => {
              close();
              void navigate(props.editPath);
            }}
          >
            <ListItemIcon>
              <EditIcon fontSize="small" />
            </ListItemIcon>
            {translate('ra.action.edit')}
          </MenuItem>
        )}
        {canDelete && !deleted && (
          <MenuItem
            onClick={() => {
              close();
              setConfirming(true);
            }}
          >
            <ListItemIcon>
              <DeleteIcon fontSize="small" color="error" />
            </ListItemIcon>
            {translate('ra.action.delete')}
          </MenuItem>
        )}
        {canEdit && deleted && (
          <MenuItem onClick={() => void restore()}>
            <ListItemIcon>
              <RestoreIcon fontSize="small" />
            </ListItemIcon>
            {translate('app.list.restore')}
          </MenuItem>
        )}
        {!(canShow && !deleted) && !canEdit && !canDelete && (
          <MenuItem disabled>
            <Typography variant="body2">{translate('app.list.no_actions')}</Typography>
          </MenuItem>
        )}
      </Menu>
      <Confirm
        isOpen={confirming}
        loading={deleting}
        title="app.list.delete_title"
        content="app.list.delete_content"
        translateOptions={{ name: label }}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          // The outcome arrives through onSuccess and onError below.
          void deleteOne(
            resource,
            { id: record.id, previousData: record },
            {
              onSuccess: (data) => {
                setConfirming(false);
                // react-admin answers a call that ended the session with an empty record: that is no delete.
                if (data?.id === undefined) return;
                feedback.deleted(label);
                props.onChanged();
              },
              onError: (e) => {
                setConfirming(false);
                feedback.deleteFailed(label, e);
              },
            },
          )
        }
      />
    </>
  );
};
