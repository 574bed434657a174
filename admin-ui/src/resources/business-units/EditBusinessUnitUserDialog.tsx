import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Switch,
} from '@mui/material';
import type { BusinessUnitUser, MembershipRole } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { displayName } from '../../lib/displayName';
import { useBusyAction } from '../../lib/useBusyAction';
import { statusOf } from '../../lib/problems';
import { RoleSelect } from '../../components/members/RoleSelect';

/**
 * Role and membership status of a BU member. The save names the version the list showed (If-Match): when someone else
 * changed the membership first, `onStale` is called instead of `onSaved`.
 */
export const EditBusinessUnitUserDialog = (props: {
  member: BusinessUnitUser;
  onClose: () => void;
  onSaved: (member: BusinessUnitUser) => void;
  onStale: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const [role, setRole] = useState<MembershipRole>(props.member.role);
  const [active, setActive] = useState(props.member.is_active);
  const [saving, run] = useBusyAction();

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async () => {
    await run(async () => {
      let updated: BusinessUnitUser;
      try {
        updated = await dataProvider.updateBusinessUnitUser(props.member, { role, is_active: active });
      } catch (e) {
        if (statusOf(e) !== 412) throw e;
        props.onStale();
        return;
      }
      notify('app.members.updated', { type: 'success', messageArgs: { name: displayName(props.member) } });
      props.onSaved(updated);
    });
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="xs" data-testid="edit-bu-user-dialog">
      <DialogTitle>{translate('app.members.edit_title', { name: displayName(props.member) })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <RoleSelect value={role} onChange={setRole} />
          <FormControlLabel
            control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
            label={translate('app.members.membership_active')}
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
