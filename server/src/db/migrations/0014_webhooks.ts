import type { Knex } from 'knex';
import { rawEach, uuidPk } from './helpers.js';

/**
 * Webhooks: subscriptions, and the outbox of deliveries. Every audit event, however it is written (a service's
 * record, or the database's own at commit, ADR 0017), queues one delivery per matching active subscription in the
 * event's own transaction, from a trigger on `audit_events`: an event that commits has its deliveries, and one
 * rolled back has none. The trigger also wakes the dispatchers on `platform_changes` (payload `webhook_deliveries`;
 * no `*_notify_change` trigger, so caches never hear it as one of theirs).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    uuidPk(knex, t);
    t.uuid('owner_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description').nullable();
    /** The audit actions delivered, as a JSON array of text (`*` for every one). */
    t.jsonb('event_types').notNullable();
    t.uuid('cluster_id').nullable().references('id').inTable('clusters').onDelete('CASCADE');
    /** Signs deliveries; it must be read back to sign, so it is kept as issued (never shown after it is made). */
    t.text('secret').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('disabled_reason').nullable();
    t.timestamp('disabled_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['owner_id', 'created_at'], 'webhook_subscriptions_owner_idx');
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    uuidPk(knex, t);
    t.uuid('subscription_id').notNullable().references('id').inTable('webhook_subscriptions').onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    /** pending → delivered | failed (24 h of failures) | skipped (the owner may no longer read the event). */
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempt_count').notNullable().defaultTo(0);
    /** When a dispatcher may take it next; a dispatcher that takes it moves this past its attempt (a lease). */
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    /** The start of the current series of attempts (creation, or the last redelivery): retries stop 24 h later. */
    t.timestamp('series_started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subscription_id', 'event_id'], { indexName: 'webhook_deliveries_event_uq' });
    t.index(['subscription_id', 'created_at'], 'webhook_deliveries_subscription_idx');
  });
  await knex.raw(
    "create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'",
  );
  await knex.schema.createTable('webhook_attempts', (t) => {
    uuidPk(knex, t);
    t.uuid('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('status_code').nullable();
    t.integer('duration_ms').notNullable();
    t.text('response_excerpt').nullable();
    t.text('error').nullable();
    t.index(['delivery_id', 'at'], 'webhook_attempts_delivery_idx');
  });
  await rawEach(knex, [
    `create function webhook_outbox_enqueue() returns trigger language plpgsql as $$
     begin
       insert into webhook_deliveries (subscription_id, event_id)
       select s.id, NEW.id from webhook_subscriptions s
       where s.is_active
         and (jsonb_exists(s.event_types, NEW.action) or jsonb_exists(s.event_types, '*'))
         and (s.cluster_id is null or s.cluster_id = NEW.cluster_id);
       if found then perform pg_notify('platform_changes', 'webhook_deliveries'); end if;
       return null;
     end $$`,
    'create trigger audit_events_webhook_outbox after insert on audit_events for each row execute function webhook_outbox_enqueue()',
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists audit_events_webhook_outbox on audit_events');
  await knex.raw('drop function if exists webhook_outbox_enqueue()');
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_subscriptions');
}
