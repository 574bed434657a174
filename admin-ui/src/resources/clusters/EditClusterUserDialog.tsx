import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import type { BusinessUnit, ClusterUser, MembershipRole } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { displayName } from '../../lib/displayName';
import { useBusyAction } from '../../lib/useBusyAction';
import { statusOf } from '../../lib/problems';
import { RoleSelect } from '../../components/members/RoleSelect';
import { ParentBuSelect } from './ParentBuSelect';

/**
 * Role and parent BU of a cluster member; the member's current BU is never disabled. The save names the version the
 * list showed (If-Match): when someone else changed the membership first, `onStale` is called instead.
 */
export const EditClusterUserDialog = (props: {
  member: ClusterUser;
  businessUnits: BusinessUnit[];
  onClose: () => void;
  onSaved: () => void;
  onStale: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const { member } = props;
  const [role, setRole] = useState<MembershipRole>(member.role);
  const [parentBu, setParentBu] = useState(member.parent_bu_id ?? '');
  const [saving, run] = useBusyAction();

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async () => {
    await run(async () => {
      try {
        await dataProvider.updateClusterUser(member, { role, parent_bu_id: parentBu || null });
      } catch (e) {
        if (statusOf(e) !== 412) throw e;
        props.onStale();
        return;
      }
      notify('app.members.updated', { type: 'success', messageArgs: { name: displayName(member) } });
      props.onSaved();
    });
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="xs" data-testid="edit-cluster-user-dialog">
      <DialogTitle>{translate('app.members.edit_title', { name: displayName(member) })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {member.email}
          </Typography>
          <RoleSelect value={role} onChange={setRole} />
          <ParentBuSelect
            businessUnits={props.businessUnits}
            value={parentBu}
            currentBuId={member.parent_bu_id}
            onChange={setParentBu}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={saving} onClick={() => void submit()} data-testid="edit-user-submit">
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
