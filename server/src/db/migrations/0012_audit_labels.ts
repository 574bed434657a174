import type { Knex } from 'knex';

/**
 * An event's labels: the human names of what it touched (a cluster's code, an account's username, a grant's key and
 * scope, a member's role), read in the change's own transaction, so the trail reads as it was said then and needs no
 * lookup of ids that may since have been renamed or deleted. Older events have none: readers fall back to the ids.
 * The business unit a membership event belongs to is indexed, so a unit's History can list its memberships.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.jsonb('labels').nullable();
  });
  await knex.raw(
    "create index audit_events_labels_bu_idx on audit_events ((labels ->> 'business_unit_id'), at) where labels ->> 'business_unit_id' is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists audit_events_labels_bu_idx');
  await knex.schema.alterTable('audit_events', (t) => {
    t.dropColumn('labels');
  });
}
