import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { MembershipRole } from '../../types';
import { displayName, type UserNameParts } from '../../lib/displayName';
import { MemberDialog, useEditMember } from './MemberDialog';

/**
 * Editing a membership, on a cluster or a unit: its role, and the one other thing the membership holds (a cluster
 * member's parent BU, a unit member's status) as `field`, starting from `initial`. The save names the version the list
 * showed (If-Match): when someone else changed the membership first, `onStale` is called instead of `onSaved`.
 */
export const EditMemberDialog = <M extends UserNameParts & { role: MembershipRole }, V, R>(props: {
  member: M;
  testId: string;
  initial: V;
  field: (value: V, onChange: (value: V) => void) => ReactNode;
  /** What the dialog shows of the person above the role. */
  before?: ReactNode;
  save: (role: MembershipRole, value: V) => Promise<R>;
  onClose: () => void;
  onSaved: (saved: R) => void;
  onStale: () => void;
}) => {
  const translate = useTranslate();
  const { member } = props;
  const [value, setValue] = useState(props.initial);
  const edit = useEditMember({ member, onSaved: props.onSaved, onStale: props.onStale });
  return (
    <MemberDialog
      open
      onClose={props.onClose}
      title={translate('app.members.edit_title', { name: displayName(member) })}
      testId={props.testId}
      role={edit.role}
      onRole={edit.setRole}
      submitLabel="ra.action.save"
      submitTestId="edit-user-submit"
      canSubmit
      busy={edit.busy}
      onSubmit={() => void edit.submit((role) => props.save(role, value))()}
      before={props.before}
      after={props.field(value, setValue)}
    />
  );
};
