import { useRef } from 'react';
import { useTranslate } from 'react-admin';
import { IconButton, InputAdornment, TextField } from '@mui/material';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ClearIcon from '@mui/icons-material/Clear';
import { useFormat } from '../lib/format';

/** Kept in the layout (a picker opens only from a rendered input) but neither seen nor reached by Tab. */
const hiddenInput = { position: 'absolute', right: 0, bottom: 0, width: 1, height: 1, opacity: 0, border: 0 } as const;

/**
 * A day picked from the browser's calendar and shown the console language's way ("Nov 27, 2026", "27 พ.ย. 2569"):
 * a bare date input would show the browser's own pattern (`mm/dd/yyyy`) whatever the console's language. The value
 * stays `YYYY-MM-DD`.
 */
export const DayField = (props: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (day: string) => void;
  testId: string;
}) => {
  const translate = useTranslate();
  const format = useFormat();
  const picker = useRef<HTMLInputElement>(null);
  const open = () => picker.current?.showPicker?.();
  return (
    <TextField
      size="small"
      fullWidth
      label={props.label}
      value={props.value ? format.date(props.value) : ''}
      onClick={open}
      InputLabelProps={{ shrink: true }}
      inputProps={{ readOnly: true, 'data-testid': `${props.testId}-text` }}
      InputProps={{
        endAdornment: (
          <InputAdornment position="end" sx={{ position: 'relative' }}>
            {props.value ? (
              <IconButton
                size="small"
                aria-label={translate('ra.action.clear_input_value')}
                onClick={(e) => {
                  e.stopPropagation();
                  props.onChange('');
                }}
              >
                <ClearIcon fontSize="small" />
              </IconButton>
            ) : null}
            <IconButton size="small" aria-label={props.label} onClick={open}>
              <CalendarMonthIcon fontSize="small" />
            </IconButton>
            <input
              ref={picker}
              type="date"
              tabIndex={-1}
              aria-hidden
              value={props.value}
              min={props.min || undefined}
              max={props.max || undefined}
              onChange={(e) => props.onChange(e.target.value)}
              data-testid={props.testId}
              style={hiddenInput}
            />
          </InputAdornment>
        ),
      }}
    />
  );
};
