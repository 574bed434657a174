import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useDebouncedValue } from '../../lib/useDebouncedValue';

/** A search box that reports its value 400 ms after the last keystroke. */
export const DebouncedSearch = ({ value, onChange }: { value: string; onChange: (v: string) => void }) => {
  const translate = useTranslate();
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text);
  const lastSent = useRef(value);

  useEffect(() => {
    if (debounced !== lastSent.current) {
      lastSent.current = debounced;
      onChange(debounced);
    }
  }, [debounced, onChange]);

  return (
    <TextField
      size="small"
      variant="outlined"
      fullWidth={false}
      margin="none"
      value={text}
      onChange={(e) => setText(e.target.value)}
      placeholder={translate('app.list.search')}
      inputProps={{ 'aria-label': translate('app.list.search') }}
      InputProps={{
        startAdornment: (
          <InputAdornment position="start">
            <SearchIcon fontSize="small" />
          </InputAdornment>
        ),
      }}
      sx={{ minWidth: 260 }}
    />
  );
};
