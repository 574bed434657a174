import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { FormControlLabel, Switch } from '@mui/material';
import type { BusinessUnitUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { displayName } from '../../lib/displayName';
import { MemberDialog, useEditMember } from '../../components/members/MemberDialog';

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
  const dataProvider = useAppDataProvider();
  const { member } = props;
  const [active, setActive] = useState(member.is_active);
  const edit = useEditMember({ member, onSaved: props.onSaved, onStale: props.onStale });
  return (
    <MemberDialog
      open
      onClose={props.onClose}
      title={translate('app.members.edit_title', { name: displayName(member) })}
      testId="edit-bu-user-dialog"
      role={edit.role}
      onRole={edit.setRole}
      submitLabel="ra.action.save"
      submitTestId="edit-user-submit"
      canSubmit
      busy={edit.busy}
      onSubmit={() =>
        void edit.submit((role) => dataProvider.updateBusinessUnitUser(member, { role, is_active: active }))()
      }
      after={
        <FormControlLabel
          control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
          label={translate('app.members.membership_active')}
        />
      }
    />
  );
};
