import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { FormControl, FormHelperText, InputLabel, MenuItem, Select } from '@mui/material';
import type { PermissionKey } from '../../types';
import { PERMISSION_KEYS } from '../../auth/grants';

/** Every permission key, in the contract's order. */
export const ALL_KEYS: readonly PermissionKey[] = Object.values(PERMISSION_KEYS);

/** The keys that hold on all clusters only (the contract refuses them on one cluster). */
export const PLATFORM_KEYS: readonly PermissionKey[] = [
  PERMISSION_KEYS.userRead,
  PERMISSION_KEYS.userManage,
  PERMISSION_KEYS.grantManage,
];

/** A permission key in words ("Read clusters"). */
export const usePermissionLabel = () => {
  const translate = useTranslate();
  return (key: string) => translate(`resources.users.permission_keys.${key}`, { _: key });
};

/** A choice of one permission key, each named in words; `helperText` shows under it when given. */
export const PermissionKeySelect = (props: {
  labelId: string;
  label: string;
  value: PermissionKey | '';
  onChange: (key: PermissionKey | '') => void;
  testId: string;
  helperText?: ReactNode;
}) => {
  const permissionLabel = usePermissionLabel();
  return (
    <FormControl fullWidth size="small">
      <InputLabel id={props.labelId}>{props.label}</InputLabel>
      <Select
        labelId={props.labelId}
        label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(ALL_KEYS.find((k) => k === e.target.value) ?? '')}
        data-testid={props.testId}
      >
        {ALL_KEYS.map((k) => (
          <MenuItem key={k} value={k}>
            {permissionLabel(k)}
          </MenuItem>
        ))}
      </Select>
      {props.helperText && <FormHelperText>{props.helperText}</FormHelperText>}
    </FormControl>
  );
};
