import type { AuditEventQuery, AuditTargetType } from '../types';

/** What the audit log's filters hold; an empty value is no filter. */
export interface AuditFilters {
  targetType: AuditTargetType | '';
  actorId: string;
  action: string;
  clusterId: string;
  /** `YYYY-MM-DD` of the first day shown (local time), or empty. */
  from: string;
  /** `YYYY-MM-DD` of the last day shown (local time), or empty. */
  to: string;
  /** The events of one membership import, or empty; set from the address (`?import_id=`), not from a field. */
  importId: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = {
  targetType: '',
  actorId: '',
  action: '',
  clusterId: '',
  from: '',
  to: '',
  importId: '',
};

/** The address parameter that opens the log on one import's events. */
export const IMPORT_ID_PARAM = 'import_id';

/** Local midnight of a `YYYY-MM-DD` day, plus some days, as the instant the API compares with. */
function dayStart(day: string, plusDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * The filters as the contract's query. `from` is the start of its day; `to` is inclusive of its whole day, so it is
 * sent as the start of the next day (the API's `to` is exclusive).
 */
export function toAuditQuery(filters: AuditFilters, page: number, perpage: number): AuditEventQuery {
  return { page, perpage, ...toAuditFilter(filters) };
}

/** The filters alone, as the export of the log sends them (with a page or without). */
export function toAuditFilter(filters: AuditFilters): Omit<AuditEventQuery, 'page' | 'perpage'> {
  const query: Omit<AuditEventQuery, 'page' | 'perpage'> = {};
  if (filters.targetType) query.target_type = filters.targetType;
  if (filters.actorId) query.actor_id = filters.actorId;
  const action = filters.action.trim();
  if (action) query.action = action;
  if (filters.clusterId) query.cluster_id = filters.clusterId;
  if (filters.importId) query.import_id = filters.importId;
  const from = filters.from ? dayStart(filters.from) : undefined;
  const to = filters.to ? dayStart(filters.to, 1) : undefined;
  if (from) query.from = from;
  if (to) query.to = to;
  return query;
}

/** The actions the action filter offers: the contract's writes and the sign-in events. */
export const AUDIT_ACTIONS: readonly string[] = [
  'login',
  'login.failed',
  'login.delayed',
  'logout',
  'refreshToken',
  'createCluster',
  'updateCluster',
  'deleteCluster',
  'restoreCluster',
  'uploadClusterLogo',
  'uploadClusterAvatar',
  'createBusinessUnit',
  'updateBusinessUnit',
  'deleteBusinessUnit',
  'restoreBusinessUnit',
  'uploadBusinessUnitLogo',
  'uploadBusinessUnitAvatar',
  'addClusterUser',
  'updateClusterUser',
  'removeClusterUser',
  'addBusinessUnitUser',
  'updateBusinessUnitUser',
  'removeBusinessUnitUser',
  'createPrintTemplateMapping',
  'updatePrintTemplateMapping',
  'deletePrintTemplateMapping',
  'createWidget',
  'updateWidget',
  'deleteWidget',
  'createUser',
  'updateUser',
  'deactivateUser',
  'reactivateUser',
  'resetUserPassword',
  'unlockUser',
  'revokeSuperAdmin',
  'addUserGrant',
  'removeUserGrant',
  'changeMyPassword',
  'revokeMySession',
  'revokeMyOtherSessions',
  'unattributedChange',
];
