import type { Knex } from 'knex';
import { parseListQuery, toPage, type Page } from '../../http/pagination.js';
import { reportTemplateRepository, type ReportTemplateFilters, type ReportTemplateRecord } from './repository.js';

export function reportTemplateService(knex: Knex) {
  const repo = reportTemplateRepository(knex);
  return {
    /** The mapping form's template picker: live templates by name; perpage=-1 gives all. */
    async list(query: Record<string, unknown>, filters: ReportTemplateFilters): Promise<Page<ReportTemplateRecord>> {
      const q = parseListQuery(query, { sortable: { name: 't.name' }, defaultSort: 'name:asc', allowAll: true, defaultPerpage: 10, maxPerpage: 100 });
      const { rows, total } = await repo.list(filters, q);
      return toPage(rows, total, q);
    },
  };
}
