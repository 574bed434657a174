import type { HTMLAttributes } from 'react';
import { useTranslate } from 'react-admin';
import { MenuItem, TextField } from '@mui/material';
import { FiltersButton } from '../../components/list/FilterSheet';
import { ClusterAutocomplete } from './RecordAutocomplete';
import { USER_LIST_DEFAULTS, userFilterCount, type Tristate, type UserListState } from './userListState';

const TristateSelect = (props: {
  label: string;
  value: Tristate;
  yes: string;
  no: string;
  onChange: (v: Tristate) => void;
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
      onChange={(e) => props.onChange(e.target.value as Tristate)}
      SelectProps={{ SelectDisplayProps: { 'data-testid': props.testId } as HTMLAttributes<HTMLDivElement> }}
    >
      <MenuItem value="">{translate('audit.log.any')}</MenuItem>
      <MenuItem value="true">{props.yes}</MenuItem>
      <MenuItem value="false">{props.no}</MenuItem>
    </TextField>
  );
};

/** The account list's Filters button and sheet: status, grants and cluster. */
export const UserFilters = ({
  state,
  update,
}: {
  state: UserListState;
  update: (change: Partial<UserListState>) => void;
}) => {
  const translate = useTranslate();
  return (
    <FiltersButton
      activeCount={userFilterCount(state)}
      onClear={() => update({ active: USER_LIST_DEFAULTS.active, grants: USER_LIST_DEFAULTS.grants, cluster: null })}
    >
      <TristateSelect
        label={translate('resources.users.fields.is_active')}
        value={state.active}
        yes={translate('app.status.active')}
        no={translate('app.status.inactive')}
        onChange={(active) => update({ active })}
        testId="filter-active"
      />
      <TristateSelect
        label={translate('resources.users.fields.grant_count')}
        value={state.grants}
        yes={translate('resources.users.filters.with_grants')}
        no={translate('resources.users.filters.without_grants')}
        onChange={(grants) => update({ grants })}
        testId="filter-grants"
      />
      <ClusterAutocomplete
        label={translate('resources.clusters.name', { smart_count: 1 })}
        value={state.cluster}
        onChange={(cluster) => update({ cluster })}
        testId="filter-cluster"
      />
    </FiltersButton>
  );
};
