import type { HTMLAttributes } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { MenuItem, TextField } from '@mui/material';
import { FiltersButton } from '../components/list/FilterSheet';
import { AUDIT_TARGET_TYPES, useActionLabel, useTargetLabel } from '../components/history/auditWords';
import { ClusterAutocomplete, UserAutocomplete } from '../resources/users/RecordAutocomplete';
import { AUDIT_ACTIONS } from './auditQuery';
import { DayField } from './DayField';
import { AUDIT_LOG_DEFAULTS, auditFilterCount, type AuditLogState, type AuditLogUpdate } from './useAuditLogState';

const selectTestId = (testId: string) => ({
  SelectDisplayProps: { 'data-testid': testId } as HTMLAttributes<HTMLDivElement>,
});

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
      <TextField
        select
        size="small"
        fullWidth
        label={f('target_type')}
        value={filters.targetType}
        onChange={(e) =>
          update({ filters: { targetType: AUDIT_TARGET_TYPES.find((t) => t === e.target.value) ?? '' } })
        }
        SelectProps={selectTestId('filter-target-type')}
      >
        <MenuItem value="">{f('any')}</MenuItem>
        {AUDIT_TARGET_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {targetLabel(t)}
          </MenuItem>
        ))}
      </TextField>
      {canListUsers && (
        <UserAutocomplete
          label={f('actor')}
          value={state.actor}
          onChange={(u) => update({ actor: u, filters: { actorId: u?.id ?? '' } })}
          testId="filter-actor"
        />
      )}
      <TextField
        select
        size="small"
        fullWidth
        label={f('action')}
        value={filters.action}
        onChange={(e) => update({ filters: { action: e.target.value } })}
        SelectProps={selectTestId('filter-action')}
      >
        <MenuItem value="">{f('any')}</MenuItem>
        {AUDIT_ACTIONS.map((a) => (
          <MenuItem key={a} value={a}>
            {actionLabel(a)}
          </MenuItem>
        ))}
      </TextField>
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
