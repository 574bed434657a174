import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Typography } from '@mui/material';
import type { BusinessUnit, ClusterUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { displayName } from '../../lib/displayName';
import { MemberDialog, useEditMember } from '../../components/members/MemberDialog';
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
  const dataProvider = useAppDataProvider();
  const { member } = props;
  const [parentBu, setParentBu] = useState(member.parent_bu_id ?? '');
  const edit = useEditMember({ member, onSaved: props.onSaved, onStale: props.onStale });
  return (
    <MemberDialog
      open
      onClose={props.onClose}
      title={translate('app.members.edit_title', { name: displayName(member) })}
      testId="edit-cluster-user-dialog"
      role={edit.role}
      onRole={edit.setRole}
      submitLabel="ra.action.save"
      submitTestId="edit-user-submit"
      canSubmit
      busy={edit.busy}
      onSubmit={() =>
        void edit.submit((role) => dataProvider.updateClusterUser(member, { role, parent_bu_id: parentBu || null }))()
      }
      before={
        <Typography variant="body2" color="text.secondary">
          {member.email}
        </Typography>
      }
      after={
        <ParentBuSelect
          businessUnits={props.businessUnits}
          value={parentBu}
          currentBuId={member.parent_bu_id}
          onChange={setParentBu}
        />
      }
    />
  );
};
