import { operations } from '../../http/handler.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import type { AuditTrail } from './service.js';

export function auditRoutes({ audit }: { audit: AuditTrail }) {
  return operations({
    listAuditEvents: async ({ auth, query }) => ({ status: 200, body: await audit.list(auth, query) }),
    exportAuditEvents: async ({ auth, query, req }) => csvReply(await audit.export(auth, pageOrAll(req, query))),
  });
}
