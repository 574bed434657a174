import express from 'express';
import { handle } from '../../http/handler.js';
import type { ModuleDeps } from '../types.js';
import { reportTemplateService } from './service.js';

export function reportTemplatesRouter({ knex }: ModuleDeps): express.Router {
  const templates = reportTemplateService(knex);
  const r = express.Router();
  r.get(
    '/api-system/report-templates',
    handle('listReportTemplates', async ({ query }) => ({
      status: 200,
      body: await templates.list(query, { kind: query.kind, reportGroup: query.report_group }),
    })),
  );
  return r;
}
