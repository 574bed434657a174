import type { Knex } from 'knex';
import { rawEach, uuidPk } from './helpers.js';

/**
 * The audit trail: one row per change, written in the change's own transaction. Append-only: a trigger refuses
 * UPDATE and DELETE, so not even a bug in the service (or a hand-written statement) can rewrite history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_events', (t) => {
    uuidPk(knex, t);
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('actor_id').nullable();
    /** The actor's display name then, so the trail reads the same after the user is renamed. */
    t.text('actor_name').nullable();
    /** The contract's operationId, or a sign-in event such as `login.failed`. */
    t.text('action').notNullable();
    t.text('target_type').notNullable();
    t.text('target_id').nullable();
    t.uuid('cluster_id').nullable();
    t.text('request_id').nullable();
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    /** `{ field: { before, after } }` of the fields that changed; never secrets. */
    t.jsonb('changes').notNullable().defaultTo('{}');
    t.index(['target_type', 'target_id', 'at'], 'audit_events_target_idx');
    t.index(['at'], 'audit_events_at_idx');
    t.index(['actor_id', 'at'], 'audit_events_actor_idx');
    t.index(['cluster_id', 'at'], 'audit_events_cluster_idx');
  });
  await rawEach(knex, [
    `create function audit_events_append_only() returns trigger language plpgsql as $$
     begin
       raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = '42501';
     end $$`,
    'create trigger audit_events_no_update before update or delete on audit_events for each row execute function audit_events_append_only()',
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_events');
  await knex.raw('drop function if exists audit_events_append_only()');
}
