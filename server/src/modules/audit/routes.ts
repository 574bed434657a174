import { operations } from '../../http/handler.js';
import type { AuditTrail } from './service.js';

export function auditRoutes(audit: AuditTrail) {
  return operations({
    listAuditEvents: async ({ auth, query }) => ({ status: 200, body: await audit.list(auth, query) }),
  });
}
