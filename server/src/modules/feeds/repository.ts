import type { Knex } from 'knex';
import type { components } from '../../../../openapi/generated/schema.js';
import { toCount } from '../../db/count.js';
import { displayNameSql } from '../../db/sql.js';

export type ApprovalItem = components['schemas']['ApprovalItem'];
export type ApprovalDocType = components['schemas']['ApprovalDocType'];

export type CurrencyTotal = components['schemas']['CurrencyTotal'];

export interface ApprovalRow extends ApprovalItem {
  /** How many of the type's documents wait on the user, and their amounts per currency (not only the rows returned). */
  type_count: number;
  type_totals: CurrencyTotal[];
}

/** Documents of the user's queue: pending, and the user is one of the approvers they now wait on. */
const QUEUE = `from document_pending_approvers pa
  join documents d on d.id = pa.document_id and d.status = 'pending'`;

export function feedRepository({ knex }: { knex: Knex }) {
  return {
    /** On the document_pending_approvers primary key (user_id, document_id). */
    async countPending(userId: string, docType: ApprovalDocType): Promise<number> {
      const result = await knex.raw<{ rows: Array<{ count: unknown }> }>(
        `select count(*) as count ${QUEUE} where pa.user_id = ? and d.doc_type = ?`,
        [userId, docType],
      );
      return toCount(result.rows[0]?.count);
    },

    /**
     * The user's queue newest first per type, with each type's count and its totals per currency, in one statement.
     * `perType` keeps only the newest N of each type (null = all); the count and totals cover the whole queue.
     */
    async queue(userId: string, perType: number | null): Promise<ApprovalRow[]> {
      const result = await knex.raw<{ rows: Array<Record<string, unknown>> }>(
        `with queue as (
           select d.* ${QUEUE} where pa.user_id = ?
         ),
         per_currency as (
           select doc_type, currency_code, sum(total_amount) as total_amount from queue group by doc_type, currency_code
         ),
         totals as (
           select doc_type,
                  json_agg(json_build_object('currency_code', currency_code, 'total_amount', total_amount) order by currency_code) as totals
             from per_currency group by doc_type
         )
         select q.*, totals.totals from (
           select d.id, d.doc_type, d.doc_no, d.doc_date, d.total_amount, d.currency_code, d.workflow_current_stage,
                  d.business_unit_id, b.name as business_unit_name, ${displayNameSql('r')} as requestor_name,
                  row_number() over (partition by d.doc_type order by d.doc_date desc, d.created_at desc, d.doc_no desc) as rn,
                  count(*) over (partition by d.doc_type) as type_count
             from queue d
             join business_units b on b.id = d.business_unit_id
             left join users r on r.id = d.requestor_id
         ) q
         join totals on totals.doc_type = q.doc_type
         ${perType === null ? '' : 'where q.rn <= ?'}
         order by q.doc_type, q.rn`,
        perType === null ? [userId] : [userId, perType],
      );
      return result.rows.map((row) => ({
        id: row.id as string,
        doc_type: row.doc_type as ApprovalDocType,
        doc_no: row.doc_no as string,
        doc_date: dateText(row.doc_date),
        total_amount: Number(row.total_amount),
        currency_code: row.currency_code as string,
        workflow_current_stage: row.workflow_current_stage as string,
        business_unit_id: row.business_unit_id as string,
        business_unit_name: row.business_unit_name as string,
        requestor_name: (row.requestor_name as string | null) ?? null,
        type_count: toCount(row.type_count),
        type_totals: currencyTotals(row.totals),
      }));
    },
  };
}

/** The json_agg of per-currency sums, already parsed by both drivers. */
function currencyTotals(v: unknown): CurrencyTotal[] {
  return (v as Array<{ currency_code: string; total_amount: unknown }>).map((t) => ({
    currency_code: t.currency_code,
    total_amount: Number(t.total_amount),
  }));
}

/** Dates are parsed as text on both engines; a Date (another driver setup) is formatted as its UTC day. */
function dateText(v: unknown): string {
  return v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
}
