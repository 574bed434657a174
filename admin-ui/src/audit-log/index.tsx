import HistoryIcon from '@mui/icons-material/History';
import { PageMenuItem } from '../components/PageMenuItem';
import { lazyPage } from '../components/lazyPage';
import { AUDIT_LOG_PATH } from './paths';

export { AUDIT_LOG_PATH, auditLogOfImport } from './paths';

/** The audit log page (`/audit-log`), loaded on first use. */
export const AuditLogPage = lazyPage(async () => (await import('./AuditLogPage')).AuditLog);

/** The menu entry of the audit log, shown to those who may read it (`cluster.read` on any cluster, or `user.read`). */
export const AuditLogMenuItem = () => (
  <PageMenuItem resource="audit-log" to={AUDIT_LOG_PATH} label="app.audit_log.title" icon={<HistoryIcon />} />
);
