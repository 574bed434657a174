import type { Knex } from 'knex';

/**
 * Indexes in the order the large lists page by cursor (ADR 0031), so a deep page by cursor starts its index scan at
 * the cursor's position instead of walking every row before it. Each default order gets the sort column, then the
 * id (the keyset's tie-breaker), over the live rows the lists show by default:
 * - clusters by code or name (the console's sortable columns; created_at desc, id has `clusters_live_created_idx`);
 * - business units by created_at desc, id, over all of them and within one cluster (the unit list of a cluster);
 * - audit events by (at, id), which serves the log's newest-first order read backwards.
 * Accounts by username need none: the unique index on lower(username) already orders them one to a key.
 */
const INDEXES: Array<[name: string, definition: string]> = [
  ['clusters_live_code_id_idx', 'on clusters (code, id) where deleted_at is null'],
  ['clusters_live_name_id_idx', 'on clusters (name, id) where deleted_at is null'],
  ['business_units_live_created_idx', 'on business_units (created_at desc, id) where deleted_at is null'],
  [
    'business_units_cluster_live_created_idx',
    'on business_units (cluster_id, created_at desc, id) where deleted_at is null',
  ],
  ['audit_events_at_id_idx', 'on audit_events (at, id)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of INDEXES) await knex.raw(`create index if not exists ${name} ${definition}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
}
