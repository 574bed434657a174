import type { Knex } from 'knex';

/**
 * A membership import writes one audit event per change; each carries the import's id, so the audit log can show
 * the changes of one import together (`GET /api-system/audit-events?import_id=`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.uuid('import_id').nullable();
  });
  await knex.raw('create index audit_events_import_idx on audit_events (import_id, at) where import_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists audit_events_import_idx');
  await knex.schema.alterTable('audit_events', (t) => {
    t.dropColumn('import_id');
  });
}
