import { useState } from 'react';
import { useGetList } from 'react-admin';
import { Autocomplete, TextField } from '@mui/material';
import type { Cluster, UserAccount } from '../../types';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useAutocompleteText } from '../../components/useAutocompleteText';

const OPTIONS_PAGE = 25;

interface PickerProps<R> {
  label: string;
  value: R | null;
  onChange: (value: R | null) => void;
  testId?: string;
  disabled?: boolean;
  size?: 'small' | 'medium';
}

interface SearchedResource<R> {
  resource: 'clusters' | 'users';
  sortField: string;
  labelOf: (record: R) => string;
}

/** A record picked by searching its list on the server, 25 matches at a time. */
function RecordAutocomplete<R extends { id: string }>(props: PickerProps<R> & SearchedResource<R>) {
  const text = useAutocompleteText();
  const [input, setInput] = useState('');
  const search = useDebouncedValue(input);
  const { data, isPending } = useGetList<R>(props.resource, {
    pagination: { page: 1, perPage: OPTIONS_PAGE },
    sort: { field: props.sortField, order: 'ASC' },
    filter: { search },
  });
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
      getOptionLabel={props.labelOf}
      onChange={(_, v) => props.onChange(v)}
      // Only typing searches: the label of a chosen option is not a search.
      onInputChange={(_, v, reason) => setInput(reason === 'input' ? v : '')}
      renderInput={(params) => (
        <TextField {...params} label={props.label} inputProps={{ ...params.inputProps, 'data-testid': props.testId }} />
      )}
    />
  );
}

/** What a picker shows of a cluster: enough to name it again without a fetch. */
export type ClusterName = Pick<Cluster, 'id' | 'code' | 'name'>;
/** What a picker shows of an account. */
export type AccountName = Pick<UserAccount, 'id' | 'username' | 'display_name'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A picked cluster as a list keeps it beside its id in the filter values (so its name shows again without a fetch),
 * or null when the values hold none, or one for another id.
 */
export const pickedCluster = (v: unknown, id: unknown): ClusterName | null =>
  isObject(v) && v.id === id && typeof v.id === 'string' && typeof v.code === 'string' && typeof v.name === 'string'
    ? { id: v.id, code: v.code, name: v.name }
    : null;

/** A picked account kept beside its id in the filter values, as `pickedCluster`. */
export const pickedAccount = (v: unknown, id: unknown): AccountName | null =>
  isObject(v) && v.id === id && typeof v.id === 'string' && typeof v.username === 'string'
    ? { id: v.id, username: v.username, display_name: typeof v.display_name === 'string' ? v.display_name : v.username }
    : null;

/** A cluster by code or name. */
export const ClusterAutocomplete = (props: PickerProps<ClusterName>) => (
  <RecordAutocomplete {...props} resource="clusters" sortField="name" labelOf={(c) => `${c.code} — ${c.name}`} />
);

/** An account by username, email or name. */
export const UserAutocomplete = (props: PickerProps<AccountName>) => (
  <RecordAutocomplete
    {...props}
    resource="users"
    sortField="username"
    labelOf={(u) =>
      u.display_name && u.display_name !== u.username ? `${u.display_name} (${u.username})` : u.username
    }
  />
);
