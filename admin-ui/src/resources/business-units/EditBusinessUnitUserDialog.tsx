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
import { RoleSelect } from '../../components/members/RoleSelect';

/** Role and membership status of a BU member; hands the saved member back so the card updates its row in place. */
export const EditBusinessUnitUserDialog = (props: {
  member: BusinessUnitUser;
  onClose: () => void;
  onSaved: (member: BusinessUnitUser) => void;
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
      const updated = await dataProvider.updateBusinessUnitUser(props.member.id, { role, is_active: active });
      notify('app.members.updated', { type: 'success', messageArgs: { name: displayName(props.member) } });
      props.onSaved(updated ?? { ...props.member, role, is_active: active });
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
        <Button variant="contained" disabled={saving} onClick={() => void submit()}>
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
