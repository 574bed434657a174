import { useId } from 'react';
import { useTranslate } from 'react-admin';
import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import type { MembershipRole } from '../../types';
import { MEMBERSHIP_ROLES } from '../../lib/membership';

/** The membership role of a cluster or business-unit member. */
export const RoleSelect = ({
  value,
  onChange,
}: {
  value: MembershipRole;
  onChange: (role: MembershipRole) => void;
}) => {
  const translate = useTranslate();
  const labelId = useId();
  return (
    <FormControl fullWidth size="small">
      <InputLabel id={labelId}>{translate('app.members.role')}</InputLabel>
      <Select<MembershipRole>
        labelId={labelId}
        label={translate('app.members.role')}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="role-select"
      >
        {MEMBERSHIP_ROLES.map((role) => (
          <MenuItem key={role} value={role}>
            {translate(`app.members.roles.${role}`)}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
};
