import type { Knex } from 'knex';
import type { components } from '../../../../openapi/generated/schema.js';
import { toCount } from '../../db/count.js';
import { displayNameSql } from '../users/display-name.js';

export type ApprovalItem = components['schemas']['ApprovalItem'];
export type ApprovalDocType = components['schemas']['ApprovalDocType'];

export interface ApprovalRow extends ApprovalItem {
  /** Count and amount of all of the type's documents waiting on the user (not only the rows returned). */
  type_count: number;
  type_total: number;
}

/** Documents of the user's queue: pending, and the user is one of the approvers they now wait on. */
const QUEUE = `from document_pending_approvers pa
  join documents d on d.id = pa.document_id and d.status = 'pending'`;

export function feedRepository(knex: Knex) {
  return {
    /** On the document_pending_approvers primary key (user_id, document_id). */
    async countPending(userId: string, docType: ApprovalDocType): Promise<number> {
      const result = (await knex.raw(`select count(*) as count ${QUEUE} where pa.user_id = ? and d.doc_type = ?`, [userId, docType])) as {
        rows: Array<{ count: unknown }>;
      };
      return toCount(result.rows[0]?.count);
    },

    /**
     * The user's queue newest first per type, with each type's count and amount total, in one statement.
     * `perType` keeps only the newest N of each type (null = all).
     */
    async queue(userId: string, perType: number | null): Promise<ApprovalRow[]> {
      const result = (await knex.raw(
        `select * from (
           select d.id, d.doc_type, d.doc_no, d.doc_date, d.total_amount, d.currency_code, d.workflow_current_stage,
                  d.business_unit_id, b.name as business_unit_name, ${displayNameSql('r')} as requestor_name,
                  row_number() over (partition by d.doc_type order by d.doc_date desc, d.created_at desc, d.doc_no desc) as rn,
                  count(*) over (partition by d.doc_type) as type_count,
                  sum(d.total_amount) over (partition by d.doc_type) as type_total
             ${QUEUE}
             join business_units b on b.id = d.business_unit_id
             left join users r on r.id = d.requestor_id
            where pa.user_id = ?
         ) q
         ${perType === null ? '' : 'where q.rn <= ?'}
         order by q.doc_type, q.rn`,
        perType === null ? [userId] : [userId, perType],
      )) as { rows: Array<Record<string, unknown>> };
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
        type_total: Number(row.type_total),
      }));
    },
  };
}

/** Dates are parsed as text on both engines; a Date (another driver setup) is formatted as its UTC day. */
function dateText(v: unknown): string {
  return v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
}
