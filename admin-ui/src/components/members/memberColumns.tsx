import { useTranslate } from 'react-admin';
import { Link as MuiLink } from '@mui/material';
import type { BusinessUnitUser, ClusterUser } from '../../types';
import { displayName } from '../../lib/displayName';
import { StatusChip } from '../StatusChip';
import type { CardColumn } from '../card-table';

type Member = ClusterUser | BusinessUnitUser;

/** A member's role in words. */
export const RoleName = ({ member }: { member: Member }) => {
  const translate = useTranslate();
  return <>{translate(`app.members.roles.${member.role}`)}</>;
};

/** The role column both members cards show. */
export const roleColumn = (label: string): CardColumn<Member> => ({
  id: 'role',
  label,
  render: (m) => <RoleName member={m} />,
});

/**
 * The columns of a members card: Name (opening the edit dialog for those who may manage members), Email, the card's
 * own columns, and Status.
 */
export function useMemberColumns<M extends Member>(props: {
  own: readonly CardColumn<M>[];
  canManage: boolean;
  onEdit: (member: M) => void;
}): CardColumn<M>[] {
  const translate = useTranslate();
  return [
    {
      id: 'name',
      label: translate('app.members.name'),
      render: (m) =>
        props.canManage ? (
          <MuiLink component="button" type="button" underline="hover" onClick={() => props.onEdit(m)}>
            {displayName(m)}
          </MuiLink>
        ) : (
          displayName(m)
        ),
    },
    { id: 'email', label: translate('app.members.email'), render: (m) => m.email },
    ...props.own,
    { id: 'status', label: translate('app.members.status'), render: (m) => <StatusChip active={m.is_active} /> },
  ];
}
