import type { HTMLAttributes } from 'react';
import { useTranslate } from 'react-admin';
import { MenuItem, TextField } from '@mui/material';

/**
 * A select of a Filters sheet: "Any" (no filter, the empty value) first, then the choices, each with its label. The
 * test id names the select's visible button, which is what a person (and a browser test) clicks.
 */
export const ChoiceFilter = <V extends string>(props: {
  label: string;
  value: V | '';
  choices: readonly { value: V; label: string }[];
  onChange: (value: V | '') => void;
  testId: string;
}) => {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      fullWidth
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(props.choices.find((c) => c.value === e.target.value)?.value ?? '')}
      SelectProps={{ SelectDisplayProps: { 'data-testid': props.testId } as HTMLAttributes<HTMLDivElement> }}
    >
      <MenuItem value="">{translate('app.list.any')}</MenuItem>
      {props.choices.map((c) => (
        <MenuItem key={c.value} value={c.value}>
          {c.label}
        </MenuItem>
      ))}
    </TextField>
  );
};
