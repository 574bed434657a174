import { useCanAccess, useTranslate } from 'react-admin';
import { FiltersButton } from '../components/list/FilterSheet';
import { ChoiceFilter } from '../components/list/ChoiceFilter';
import { useFilterValues, useSetFilter } from '../components/list/ResourceList';
import { AUDIT_TARGET_TYPES, useActionLabel, useTargetLabel } from '../components/history/auditWords';
import {
  ClusterAutocomplete,
  UserAutocomplete,
  pickedAccount,
  pickedCluster,
} from '../resources/users/RecordAutocomplete';
import { AUDIT_ACTIONS } from './auditQuery';
import { DayField } from './DayField';

/** The filters the sheet sets (the import's has a chip of its own); the picked records are kept beside their ids. */
const SHEET_FILTERS = ['target_type', 'actor_id', 'action', 'cluster_id', 'from', 'to'] as const;

const textOf = (v: unknown) => (typeof v === 'string' ? v : '');

/** How many of the sheet's filters are in use (the Filters button's badge). */
export const auditFilterCount = (filter: Record<string, unknown>) =>
  SHEET_FILTERS.filter((key) => textOf(filter[key]) !== '').length;

/** The audit log's Filters button and sheet: record type, actor, action, cluster and days, in the list's filter values. */
export const AuditFilters = () => {
  const translate = useTranslate();
  const actionLabel = useActionLabel();
  const targetLabel = useTargetLabel();
  const filter = useFilterValues();
  const setFilter = useSetFilter();
  // The actor filter searches the accounts, which needs `user.read`.
  const { canAccess: canListUsers } = useCanAccess({ action: 'list', resource: 'users' });
  const f = (k: string) => translate(`audit.log.${k}`);
  const from = textOf(filter.from);
  const to = textOf(filter.to);
  return (
    <FiltersButton
      activeCount={auditFilterCount(filter)}
      onClear={() =>
        setFilter({
          ...Object.fromEntries(SHEET_FILTERS.map((key) => [key, undefined])),
          actor: undefined,
          cluster: undefined,
        })
      }
    >
      <ChoiceFilter
        label={f('target_type')}
        value={textOf(filter.target_type)}
        choices={AUDIT_TARGET_TYPES.map((t) => ({ value: t, label: targetLabel(t) }))}
        onChange={(target_type) => setFilter({ target_type })}
        testId="filter-target-type"
      />
      {canListUsers && (
        <UserAutocomplete
          label={f('actor')}
          value={pickedAccount(filter.actor, filter.actor_id)}
          onChange={(u) =>
            setFilter({
              actor_id: u?.id,
              actor: u ? { id: u.id, username: u.username, display_name: u.display_name } : undefined,
            })
          }
          testId="filter-actor"
        />
      )}
      <ChoiceFilter
        label={f('action')}
        value={textOf(filter.action)}
        choices={AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))}
        onChange={(action) => setFilter({ action })}
        testId="filter-action"
      />
      <ClusterAutocomplete
        label={translate('resources.clusters.name', { smart_count: 1 })}
        value={pickedCluster(filter.cluster, filter.cluster_id)}
        onChange={(c) =>
          setFilter({ cluster_id: c?.id, cluster: c ? { id: c.id, code: c.code, name: c.name } : undefined })
        }
        testId="filter-cluster"
      />
      <DayField
        label={f('from')}
        value={from}
        max={to}
        onChange={(day) => setFilter({ from: day })}
        testId="filter-from"
      />
      <DayField label={f('to')} value={to} min={from} onChange={(day) => setFilter({ to: day })} testId="filter-to" />
    </FiltersButton>
  );
};
