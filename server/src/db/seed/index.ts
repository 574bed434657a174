import type { Knex } from 'knex';
import { countFrom } from '../count.js';
import { exemptFromAudit } from '../audit-exempt.js';
import type { SeedContext } from './context.js';
import { seedAuth } from './auth.js';
import { seedTenancy } from './tenancy.js';
import { seedPrinting } from './printing.js';
import { seedWorkspace } from './workspace.js';

export type { SeedContext } from './context.js';

/** Order matters: each step may use ids created by the ones before it. */
const STEPS: Array<(ctx: SeedContext) => Promise<void>> = [seedAuth, seedTenancy, seedPrinting, seedWorkspace];

/** Seeds on first start only (an empty users table): the admin and reference data, and the demo when asked. Returns whether it seeded. */
export async function seedIfEmpty(knex: Knex, config: SeedContext['config']): Promise<boolean> {
  return knex.transaction(async (trx) => {
    // Serialises concurrent first starts of several replicas on one PostgreSQL database.
    await trx.raw('select pg_advisory_xact_lock(727001)');
    if (countFrom(await trx('users').count({ count: '*' })) > 0) return false;
    await exemptFromAudit(trx, 'first-start seed');
    const ctx: SeedContext = {
      trx,
      config,
      users: {},
      clusters: {},
      businessUnits: {},
      currencies: {},
      reportTemplates: [],
    };
    for (const step of STEPS) await step(ctx);
    return true;
  });
}

/** What a first start created, for its log line: the admin account alone, or the demo tenants and accounts as well. */
export function firstStartSummary(config: Pick<SeedContext['config'], 'seedDemo'>): string {
  return config.seedDemo
    ? 'first start: created the admin account and the demo tenants and accounts'
    : 'first start: created the admin account only (SEED_DEMO is off: no demo tenants or accounts)';
}
