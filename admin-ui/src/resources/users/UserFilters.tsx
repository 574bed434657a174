import { useTranslate } from 'react-admin';
import { FiltersButton } from '../../components/list/FilterSheet';
import { ChoiceFilter } from '../../components/list/ChoiceFilter';
import { ClusterAutocomplete, pickedCluster } from './RecordAutocomplete';
import { useFilterValues, useSetFilter } from '../../components/list/ResourceList';
import { booleanOf, tristateOf, userFilterCount, type Tristate } from './userListState';

/** Yes, no, or either (no filter). */
const TristateSelect = (props: {
  label: string;
  value: Tristate;
  yes: string;
  no: string;
  onChange: (v: Tristate) => void;
  testId: string;
}) => (
  <ChoiceFilter<'true' | 'false'>
    label={props.label}
    value={props.value}
    choices={[
      { value: 'true', label: props.yes },
      { value: 'false', label: props.no },
    ]}
    onChange={props.onChange}
    testId={props.testId}
  />
);

/** The account list's Filters button and sheet: status, grants and cluster, in the list's filter values. */
export const UserFilters = () => {
  const translate = useTranslate();
  const filter = useFilterValues();
  const setFilter = useSetFilter();
  // The cluster is kept whole beside its id, so its name shows again without a fetch.
  const cluster = pickedCluster(filter.cluster, filter.cluster_id);
  return (
    <FiltersButton
      activeCount={userFilterCount(filter)}
      onClear={() =>
        setFilter({ is_active: undefined, has_grants: undefined, cluster_id: undefined, cluster: undefined })
      }
    >
      <TristateSelect
        label={translate('resources.users.fields.is_active')}
        value={tristateOf(filter.is_active)}
        yes={translate('app.status.active')}
        no={translate('app.status.inactive')}
        onChange={(v) => setFilter({ is_active: booleanOf(v) })}
        testId="filter-active"
      />
      <TristateSelect
        label={translate('resources.users.fields.grant_count')}
        value={tristateOf(filter.has_grants)}
        yes={translate('resources.users.filters.with_grants')}
        no={translate('resources.users.filters.without_grants')}
        onChange={(v) => setFilter({ has_grants: booleanOf(v) })}
        testId="filter-grants"
      />
      <ClusterAutocomplete
        label={translate('resources.clusters.name', { smart_count: 1 })}
        value={cluster}
        onChange={(c) =>
          setFilter({ cluster_id: c?.id, cluster: c ? { id: c.id, code: c.code, name: c.name } : undefined })
        }
        testId="filter-cluster"
      />
    </FiltersButton>
  );
};
