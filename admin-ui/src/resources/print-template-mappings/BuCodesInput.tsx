import { useState } from 'react';
import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { useAutocompleteText } from '../../components/useAutocompleteText';
import { normaliseBuCodes } from './templateOrder';
import { useBusinessUnitCodes } from './queries';

/**
 * A list of business-unit codes as chips: pick a live unit's code, or type one and press Enter (or a comma / leave the
 * field) to add it; a code no live unit has shows as a warning chip.
 * The value is always an array, so an emptied list is sent as `[]` (which clears it; null would leave it unchanged).
 */
export const BuCodesInput = ({ source, helperText }: { source: string; helperText: string }) => {
  const translate = useTranslate();
  const autocompleteText = useAutocompleteText();
  const { field } = useInput({
    source,
    defaultValue: [],
    format: (v: unknown) => normaliseBuCodes(Array.isArray(v) ? v : []),
  });
  const value = normaliseBuCodes(Array.isArray(field.value) ? field.value : []);
  const label = translate(`resources.print-template-mappings.fields.${source}`);
  const [text, setText] = useState('');
  const units = useBusinessUnitCodes();
  const unknown = new Set(units.ready ? units.unknownOf(value) : []);
  return (
    <Autocomplete
      {...autocompleteText}
      multiple
      freeSolo
      autoSelect
      options={units.choices.map((c) => c.code)}
      getOptionLabel={(code) => code}
      renderOption={(props, code) => {
        const { key, ...optionProps } = props;
        const name = units.choices.find((c) => c.code === code)?.name;
        return (
          <li key={key} {...optionProps}>
            {name ? `${code} — ${name}` : code}
          </li>
        );
      }}
      filterSelectedOptions
      value={value}
      onChange={(_, next) => field.onChange(normaliseBuCodes(next))}
      inputValue={text}
      onInputChange={(_, next, reason) => {
        // A comma ends a code, so a pasted "A, B, C" becomes three chips.
        if (reason === 'input' && next.includes(',')) {
          const parts = next.split(',');
          const last = parts.pop() ?? '';
          field.onChange(normaliseBuCodes([...value, ...parts]));
          setText(last);
        } else {
          setText(next);
        }
      }}
      onBlur={field.onBlur}
      renderValue={(codes, getItemProps) =>
        codes.map((code, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip
              key={key}
              label={code}
              size="small"
              color={unknown.has(code) ? 'warning' : 'default'}
              data-unknown={unknown.has(code) || undefined}
              {...itemProps}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          helperText={helperText}
          size="small"
          name={field.name}
          inputRef={field.ref}
        />
      )}
      sx={{ mb: 2 }}
      fullWidth
      data-testid={`chips-${source}`}
    />
  );
};
