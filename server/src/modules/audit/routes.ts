import { operations } from '../../http/handler.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import type { AuditTrail } from './service.js';
import type { AuditReverts } from './revert.js';

export function auditRoutes({ audit, reverts }: { audit: AuditTrail; reverts: AuditReverts }) {
  return operations({
    listAuditEvents: async ({ auth, query }) => ({ status: 200, body: await audit.list(auth, query) }),
    exportAuditEvents: async ({ auth, query, req }) => csvReply(await audit.export(auth, pageOrAll(req, query))),
    revertAuditEvent: async ({ auth, params }) => ({ status: 200, body: await reverts.revert(auth, params.id) }),
  });
}
