import type { DocumentType, ReportTemplateQuery, ResolveQuery } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';

/** The lookups and the resolve tester of the print-template-mapping screens. */
export function printMappingMethods(c: ApiClient) {
  return {
    async getDocumentTypes(): Promise<DocumentType[]> {
      return unwrap(await c.GET('/api-system/print-template-mappings/document-types')).document_types;
    },
    async resolvePrintTemplateMapping(query: ResolveQuery) {
      return unwrap(await c.GET('/api-system/print-template-mappings/resolve', { params: { query } }));
    },
    async getReportTemplates(query: ReportTemplateQuery = {}) {
      return unwrap(await c.GET('/api-system/report-templates', { params: { query } }));
    },
  };
}
