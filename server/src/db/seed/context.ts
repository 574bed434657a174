import type { Knex } from 'knex';

/** What one seed step hands to the next: ids of the rows it created, by a stable demo name. */
export interface SeedContext {
  trx: Knex.Transaction;
  /** `seedDemo`: the demo tenants, accounts and documents too; without it only the admin and reference data. */
  config: { admin: { username: string; password: string }; demoPassword: string; seedDemo: boolean };
  users: Record<string, string>;
  clusters: Record<string, string>;
  businessUnits: Record<string, { id: string; clusterId: string; code: string }>;
  currencies: Record<string, string>;
  reportTemplates: Array<{ id: string; reportGroup: string; kind: 'print' | 'report' }>;
}

/** Inserts in chunks so PostgreSQL's parameter limit is never hit and PGlite gets few round trips. */
export async function insertBatched(trx: Knex.Transaction, table: string, rows: object[], chunk = 200): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) await trx(table).insert(rows.slice(i, i + chunk));
}
