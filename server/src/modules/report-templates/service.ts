import type { Knex } from 'knex';
import type { QueryParams } from '../../core/contract.js';
import { capAllRows, parseListQuery, toPage, type Page } from '../../core/list-query.js';
import { REPORT_TEMPLATE_SORTABLE, reportTemplateRepository, type ReportTemplateRecord } from './repository.js';

export function reportTemplateService({ knex }: { knex: Knex }) {
  const repo = reportTemplateRepository({ knex });
  return {
    /** The mapping form's template picker: live templates by name; perpage=-1 gives all. */
    async list(query: QueryParams<'listReportTemplates'>): Promise<Page<ReportTemplateRecord>> {
      const q = capAllRows(parseListQuery(query, { sortable: REPORT_TEMPLATE_SORTABLE, defaultSort: 'name:asc' }));
      const { rows, total } = await repo.list({ kind: query.kind, reportGroup: query.report_group }, q);
      return toPage(rows, total, q);
    },
  };
}

export type ReportTemplateService = ReturnType<typeof reportTemplateService>;
