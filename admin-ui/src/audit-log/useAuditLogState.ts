import { useCallback } from 'react';
import { useStore } from 'react-admin';
import type { Cluster, UserAccount } from '../types';
import { NO_AUDIT_FILTERS, type AuditFilters } from './auditQuery';

/** What the audit log remembers: its filters (the import's comes from the address), the picked records and paging. */
export interface AuditLogState {
  filters: Omit<AuditFilters, 'importId'>;
  /** The picked actor and cluster, kept whole so their names show again without a fetch. */
  actor: UserAccount | null;
  cluster: Cluster | null;
  page: number;
  perpage: number;
}

const { importId: _importId, ...NO_FIELD_FILTERS } = NO_AUDIT_FILTERS;

export const AUDIT_LOG_DEFAULTS: AuditLogState = {
  filters: NO_FIELD_FILTERS,
  actor: null,
  cluster: null,
  page: 1,
  perpage: 25,
};

/** How many of the sheet's filters are in use (the Filters button's badge). */
export const auditFilterCount = (filters: AuditLogState['filters']) => Object.values(filters).filter(Boolean).length;

/** A change of the state: any part of it, the filters field by field. */
export type AuditLogUpdate = (
  change: Partial<Omit<AuditLogState, 'filters'>> & { filters?: Partial<AuditLogState['filters']> },
) => void;

/**
 * The audit log's filters and paging, kept in react-admin's store so they are still there after the operator opens a
 * record and comes back. A filter change starts again at page 1.
 */
export function useAuditLogState() {
  const [stored, setState] = useStore<AuditLogState>('audit-log.listState', AUDIT_LOG_DEFAULTS);
  const state: AuditLogState = {
    ...AUDIT_LOG_DEFAULTS,
    ...stored,
    filters: { ...AUDIT_LOG_DEFAULTS.filters, ...stored.filters },
  };
  const update: AuditLogUpdate = useCallback(
    (change) =>
      setState((prev) => ({
        ...AUDIT_LOG_DEFAULTS,
        ...prev,
        page: 1,
        ...change,
        filters: { ...AUDIT_LOG_DEFAULTS.filters, ...prev.filters, ...change.filters },
      })),
    [setState],
  );
  return [state, update] as const;
}
