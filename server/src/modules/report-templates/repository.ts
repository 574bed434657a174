import type { Knex } from 'knex';
import type { components } from '../../../../openapi/generated/schema.js';
import { countFrom } from '../../db/count.js';
import { applyListQuery, likeContains } from '../../db/sql.js';
import { type ListQuery } from '../../core/list-query.js';

export type ReportTemplateRecord = components['schemas']['ReportTemplate'];

/** Report templates have no sort parameter: the picker lists them by name. */
export const REPORT_TEMPLATE_SORTABLE: Record<string, string> = { name: 't.name' };

export interface ReportTemplateFilters {
  kind?: 'print' | 'report';
  reportGroup?: string;
}

const toIso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function toRecord(row: Record<string, unknown>): ReportTemplateRecord {
  return {
    id: row.id as string,
    name: row.name as string,
    description: (row.description as string | null) ?? null,
    report_group: row.report_group as string,
    kind: row.kind as ReportTemplateRecord['kind'],
    is_active: !!row.is_active,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

function filtered(knex: Knex, f: ReportTemplateFilters, search: string | undefined): Knex.QueryBuilder {
  const b = knex('report_templates as t').whereNull('t.deleted_at');
  if (f.kind) b.where('t.kind', f.kind);
  if (f.reportGroup) b.where('t.report_group', f.reportGroup);
  if (search) {
    const like = likeContains(search);
    b.where((w) => {
      w.where('t.name', 'ilike', like).orWhere('t.description', 'ilike', like).orWhere('t.report_group', 'ilike', like);
    });
  }
  return b;
}

export function reportTemplateRepository({ knex }: { knex: Knex }) {
  return {
    /** Live templates (the page first, then its count). */
    async list(f: ReportTemplateFilters, q: ListQuery): Promise<{ rows: ReportTemplateRecord[]; total: number }> {
      const page = applyListQuery(
        filtered(knex, f, q.search).select<Array<Record<string, unknown>>>(
          't.id',
          't.name',
          't.description',
          't.report_group',
          't.kind',
          't.is_active',
          't.created_at',
          't.updated_at',
        ),
        q,
        't.id',
      );
      const [rows, counted] = await Promise.all([
        page,
        filtered(knex, f, q.search).count<Array<Record<string, unknown>>>({ count: '*' }),
      ]);
      return {
        rows: rows.map(toRecord),
        total: countFrom(counted),
      };
    },
  };
}
