import { ANY_VERSION, ifMatch } from '../../core/etag.js';
import { runBulk } from '../../http/bulk.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import { operations, versioned } from '../../http/handler.js';
import { mappingExport } from './export.js';
import type { MappingService } from './service.js';

export function printTemplateMappingRoutes({ mappings }: { mappings: MappingService }) {
  return operations({
    listPrintTemplateMappings: async ({ query }) => ({ status: 200, body: await mappings.list(query) }),
    exportPrintTemplateMappings: ({ query, req }) =>
      Promise.resolve().then(() => csvReply(mappingExport(mappings, pageOrAll(req, query)))),
    listDocumentTypes: () => Promise.resolve({ status: 200, body: mappings.documentTypes() }),
    resolvePrintTemplateMapping: async ({ query }) => ({
      status: 200,
      body: await mappings.resolve(query.document_type, query.bu_code, query.explain === true),
    }),
    bulkPrintTemplateMappings: async ({ auth, body, req }) =>
      runBulk(req, body, {
        deactivate: (id) => mappings.update(auth, id, { is_active: false }, ANY_VERSION),
        activate: (id) => mappings.update(auth, id, { is_active: true }, ANY_VERSION),
        delete: (id) => mappings.remove(auth, id),
      }),
    getPrintTemplateMapping: async ({ params }) => versioned(200, await mappings.get(params.id)),
    createPrintTemplateMapping: async ({ auth, body }) => {
      const created = await mappings.create(auth, body);
      return versioned(201, created, { Location: `/api-system/print-template-mappings/${created.id}` });
    },
    updatePrintTemplateMapping: async ({ auth, params, body, req }) =>
      versioned(200, await mappings.update(auth, params.id, body, ifMatch(req.headers['if-match']))),
    deletePrintTemplateMapping: async ({ auth, params }) => {
      await mappings.remove(auth, params.id);
      return { status: 204 };
    },
  });
}
