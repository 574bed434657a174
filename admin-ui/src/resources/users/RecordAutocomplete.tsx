import { useState } from 'react';
import { useGetList } from 'react-admin';
import { Autocomplete, TextField } from '@mui/material';
import type { Cluster, UserAccount } from '../../types';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useAutocompleteText } from '../../components/useAutocompleteText';

const OPTIONS_PAGE = 25;

/** A record picked by searching its list on the server, 25 matches at a time. */
function useSearchOptions<R extends { id: string }>(resource: 'clusters' | 'users', search: string, sortField: string) {
  const debounced = useDebouncedValue(search);
  return useGetList<R>(resource, {
    pagination: { page: 1, perPage: OPTIONS_PAGE },
    sort: { field: sortField, order: 'ASC' },
    filter: { search: debounced },
  });
}

interface PickerProps<R> {
  label: string;
  value: R | null;
  onChange: (value: R | null) => void;
  testId?: string;
  disabled?: boolean;
  size?: 'small' | 'medium';
}

/** A cluster by code or name. */
export const ClusterAutocomplete = (props: PickerProps<Cluster>) => {
  const text = useAutocompleteText();
  const [input, setInput] = useState('');
  const { data, isPending } = useSearchOptions<Cluster>('clusters', input, 'name');
  return (
    <Autocomplete
      {...text}
      size={props.size ?? 'small'}
      sx={{ minWidth: 240 }}
      disabled={props.disabled}
      options={data ?? []}
      loading={isPending}
      value={props.value}
      filterOptions={(o) => o}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(c) => `${c.code} — ${c.name}`}
      onChange={(_, v) => props.onChange(v)}
      // Only typing searches: the label of a chosen option is not a search.
      onInputChange={(_, v, reason) => setInput(reason === 'input' ? v : '')}
      renderInput={(params) => <TextField {...params} label={props.label} inputProps={{ ...params.inputProps, 'data-testid': props.testId }} />}
    />
  );
};

/** An account by username, email or name. */
export const UserAutocomplete = (props: PickerProps<UserAccount>) => {
  const text = useAutocompleteText();
  const [input, setInput] = useState('');
  const { data, isPending } = useSearchOptions<UserAccount>('users', input, 'username');
  return (
    <Autocomplete
      {...text}
      size={props.size ?? 'small'}
      sx={{ minWidth: 240 }}
      disabled={props.disabled}
      options={data ?? []}
      loading={isPending}
      value={props.value}
      filterOptions={(o) => o}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(u) => (u.display_name && u.display_name !== u.username ? `${u.display_name} (${u.username})` : u.username)}
      onChange={(_, v) => props.onChange(v)}
      // Only typing searches: the label of a chosen option is not a search.
      onInputChange={(_, v, reason) => setInput(reason === 'input' ? v : '')}
      renderInput={(params) => <TextField {...params} label={props.label} inputProps={{ ...params.inputProps, 'data-testid': props.testId }} />}
    />
  );
};
