import { Menu, useCanAccess, useTranslate } from 'react-admin';
import HistoryIcon from '@mui/icons-material/History';
import { lazyPage } from '../components/lazyPage';

/** The route of the audit log page. */
export const AUDIT_LOG_PATH = '/audit-log';

/** The audit log showing only the events of one membership import. */
export const auditLogOfImport = (importId: string) => `${AUDIT_LOG_PATH}?import_id=${encodeURIComponent(importId)}`;

/** The audit log page (`/audit-log`), loaded on first use. */
export const AuditLogPage = lazyPage(async () => (await import('./AuditLogPage')).AuditLog);

/** The menu entry of the audit log, shown to those who may read it (`cluster.read` on any cluster, or `user.read`). */
export const AuditLogMenuItem = () => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: 'list', resource: 'audit-log' });
  if (!canAccess) return null;
  return <Menu.Item to={AUDIT_LOG_PATH} primaryText={translate('app.audit_log.title')} leftIcon={<HistoryIcon />} />;
};
