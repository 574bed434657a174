import type { Knex } from 'knex';

/**
 * Marks a transaction as a bulk load that is not an operator's change (the first-start data loader's admin, reference
 * and demo data, benchmark data, a test's fixture rows), so the audit triggers record nothing for it (migration 0011).
 * Transaction-local: it ends with the transaction. In the product only the first-start data loader (`db/seed/`) calls
 * it; `test/spec/audit-exemption.test.ts` keeps it so.
 */
export async function exemptFromAudit(trx: Knex.Transaction, reason: string): Promise<void> {
  await trx.raw(`select set_config('platform.audit_exempt', ?, true)`, [reason]);
}
