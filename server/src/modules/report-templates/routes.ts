import { operations } from '../../http/handler.js';
import type { ReportTemplateService } from './service.js';

export function reportTemplateRoutes({ templates }: { templates: ReportTemplateService }) {
  return operations({
    listReportTemplates: async ({ query }) => ({ status: 200, body: await templates.list(query) }),
  });
}
