import { useTranslate } from 'react-admin';
import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import type { BusinessUnit } from '../../types';
import { isBuOptionDisabled } from '../../lib/membership';
import { formatCountOfMax } from '../../lib/licence';

/** The cluster's BUs with their user counts; a full BU is disabled unless it is the member's current one. */
export const ParentBuSelect = (props: {
  businessUnits: BusinessUnit[];
  value: string;
  currentBuId?: string | null;
  onChange: (buId: string) => void;
}) => {
  const translate = useTranslate();
  return (
    <FormControl fullWidth size="small">
      <InputLabel id="parent-bu-label">{translate('app.members.parent_bu')}</InputLabel>
      <Select
        labelId="parent-bu-label"
        label={translate('app.members.parent_bu')}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid="parent-bu-select"
      >
        <MenuItem value="">
          <em>{translate('app.members.no_parent_bu')}</em>
        </MenuItem>
        {props.businessUnits.map((bu) => {
          const disabled = isBuOptionDisabled(bu, props.currentBuId);
          return (
            <MenuItem key={bu.id} value={bu.id} disabled={disabled}>
              {bu.name} ({formatCountOfMax(bu.users_count, bu.max_license_users)})
              {disabled ? ` — ${translate('app.members.bu_full')}` : ''}
            </MenuItem>
          );
        })}
      </Select>
    </FormControl>
  );
};
