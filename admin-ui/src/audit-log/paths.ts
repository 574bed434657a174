/** The route of the audit log page. */
export const AUDIT_LOG_PATH = '/audit-log';

/** The address parameter of the links that opened the log on one import's events before it kept its filters. */
export const IMPORT_ID_PARAM = 'import_id';

/** The audit log showing only the events of one membership import: its filter in the address, as the list keeps it. */
export const auditLogOfImport = (importId: string) =>
  `${AUDIT_LOG_PATH}?filter=${encodeURIComponent(JSON.stringify({ import_id: importId }))}`;
