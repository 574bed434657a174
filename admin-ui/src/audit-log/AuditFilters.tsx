import { useCanAccess, useTranslate } from 'react-admin';
import { FiltersButton } from '../components/list/FilterSheet';
import { ChoiceFilter } from '../components/list/ChoiceFilter';
import { AUDIT_TARGET_TYPES, useActionLabel, useTargetLabel } from '../components/history/auditWords';
import { ClusterAutocomplete, UserAutocomplete } from '../resources/users/RecordAutocomplete';
import { AUDIT_ACTIONS } from './auditQuery';
import { DayField } from './DayField';
import { AUDIT_LOG_DEFAULTS, auditFilterCount, type AuditLogState, type AuditLogUpdate } from './useAuditLogState';

/** The audit log's Filters button and sheet: record type, actor, action, cluster and days. */
export const AuditFilters = ({ state, update }: { state: AuditLogState; update: AuditLogUpdate }) => {
  const translate = useTranslate();
  const actionLabel = useActionLabel();
  const targetLabel = useTargetLabel();
  // The actor filter searches the accounts, which needs `user.read`.
  const { canAccess: canListUsers } = useCanAccess({ action: 'list', resource: 'users' });
  const f = (k: string) => translate(`audit.log.${k}`);
  const { filters } = state;
  return (
    <FiltersButton
      activeCount={auditFilterCount(filters)}
      onClear={() => update({ filters: AUDIT_LOG_DEFAULTS.filters, actor: null, cluster: null })}
    >
      <ChoiceFilter
        label={f('target_type')}
        value={filters.targetType}
        choices={AUDIT_TARGET_TYPES.map((t) => ({ value: t, label: targetLabel(t) }))}
        onChange={(targetType) => update({ filters: { targetType } })}
        testId="filter-target-type"
      />
      {canListUsers && (
        <UserAutocomplete
          label={f('actor')}
          value={state.actor}
          onChange={(u) => update({ actor: u, filters: { actorId: u?.id ?? '' } })}
          testId="filter-actor"
        />
      )}
      <ChoiceFilter
        label={f('action')}
        value={filters.action}
        choices={AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))}
        onChange={(action) => update({ filters: { action } })}
        testId="filter-action"
      />
      <ClusterAutocomplete
        label={translate('resources.clusters.name', { smart_count: 1 })}
        value={state.cluster}
        onChange={(c) => update({ cluster: c, filters: { clusterId: c?.id ?? '' } })}
        testId="filter-cluster"
      />
      <DayField
        label={f('from')}
        value={filters.from}
        max={filters.to}
        onChange={(from) => update({ filters: { from } })}
        testId="filter-from"
      />
      <DayField
        label={f('to')}
        value={filters.to}
        min={filters.from}
        onChange={(to) => update({ filters: { to } })}
        testId="filter-to"
      />
    </FiltersButton>
  );
};
