import { useState } from 'react';
import { Confirm, useCanAccess, useDelete, useNotify, useTranslate } from 'react-admin';
import { IconButton, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { useNavigate } from 'react-router-dom';
import type { BrandedRecord, BrandedResource } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { isSoftDeleted } from '../../lib/audit';

/**
 * Per-row menu. Edit needs the update grant and Delete the delete grant, both checked against the
 * row's cluster (a BU row: its parent cluster). Without either grant the menu has no actions.
 */
export const RowActions = (props: {
  resource: BrandedResource;
  record: BrandedRecord;
  editPath: string;
  onChanged: () => void;
}) => {
  const { resource, record } = props;
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useAppDataProvider();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteOne, { isPending: deleting }] = useDelete();
  const deleted = isSoftDeleted(record);
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource, record });
  const { canAccess: canDelete } = useCanAccess({ action: 'delete', resource, record });

  const close = () => setAnchor(null);
  const restore = async () => {
    close();
    try {
      await dataProvider.restore(resource, record.id);
      notify('app.list.restored', { type: 'success' });
      props.onChanged();
    } catch (e) {
      notify(e instanceof Error ? e.message : 'ra.notification.http_error', { type: 'error' });
    }
  };
  const label = String(record.name ?? record.code ?? record.id);

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
        {canEdit && !deleted && (
          <MenuItem
            onClick={() => {
              close();
              navigate(props.editPath);
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
          <MenuItem onClick={restore}>
            <ListItemIcon>
              <RestoreIcon fontSize="small" />
            </ListItemIcon>
            {translate('app.list.restore')}
          </MenuItem>
        )}
        {!canEdit && !canDelete && (
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
          deleteOne(
            resource,
            { id: record.id, previousData: record },
            {
              onSuccess: () => {
                setConfirming(false);
                notify('app.list.deleted', { type: 'success', messageArgs: { name: label } });
                props.onChanged();
              },
              onError: (e) => {
                setConfirming(false);
                notify(e instanceof Error ? e.message : 'ra.notification.http_error', { type: 'error' });
              },
            },
          )
        }
      />
    </>
  );
};
