import { useState } from 'react';
import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { useAutocompleteText } from '../../components/useAutocompleteText';
import { normaliseBuCodes } from './templateOrder';

/**
 * A list of business-unit codes as chips: type a code and press Enter (or a comma / leave the field) to add it.
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
  return (
    <Autocomplete
      {...autocompleteText}
      multiple
      freeSolo
      autoSelect
      options={[] as string[]}
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
          return <Chip key={key} label={code} size="small" {...itemProps} />;
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
