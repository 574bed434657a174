import type { AuditEventQuery } from '../types';
import { AUDIT_TARGET_TYPES } from '../components/history/words';
import type { ListParams } from './query';

/** The audit log's filters as the contract reads them, without the page. */
export type AuditFilterQuery = Omit<AuditEventQuery, 'page' | 'perpage'>;

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Local midnight of a `YYYY-MM-DD` day, plus some days, as the instant the API compares with. */
function dayStart(day: unknown, plusDays = 0): string | undefined {
  const m = typeof day === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * The audit log's filter values (react-admin's, kept in its store) as the contract's query. `from` and `to` are local
 * days: `from` is the start of its day, and `to` takes in its whole day, so it is sent as the start of the next one
 * (the API's `to` is exclusive). The records kept beside the ids (`actor`, `cluster`) stay on the client.
 */
export function toAuditFilter(filter: Record<string, unknown> = {}): AuditFilterQuery {
  const query: AuditFilterQuery = {};
  const targetType = AUDIT_TARGET_TYPES.find((t) => t === filter.target_type);
  if (targetType) query.target_type = targetType;
  const strings = ['actor_id', 'action', 'cluster_id', 'import_id'] as const;
  for (const key of strings) {
    const value = text(filter[key]);
    if (value) query[key] = value;
  }
  const from = dayStart(filter.from);
  const to = dayStart(filter.to, 1);
  if (from) query.from = from;
  if (to) query.to = to;
  return query;
}

/** react-admin's list parameters of the audit log as one page of the contract's query; the log is newest first. */
export const toAuditQuery = (params: ListParams): AuditEventQuery => ({
  page: params.pagination?.page ?? 1,
  perpage: params.pagination?.perPage ?? 25,
  ...toAuditFilter(params.filter),
});
