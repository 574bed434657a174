import type { Knex } from 'knex';

/**
 * A sign-in that succeeds is recorded as `login` (the operation's own id); the event type `login.succeeded`, which
 * subscriptions could choose, named no event, so they received none. Each subscription that chose it gets `login`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    update webhook_subscriptions
       set event_types = (
             select jsonb_agg(distinct case when t = 'login.succeeded' then 'login' else t end)
               from jsonb_array_elements_text(event_types) as t
           )
     where jsonb_exists(event_types, 'login.succeeded')`);
}

/** Nothing to undo: `login` is an event type of its own, which a subscription may well have chosen itself. */
export async function down(): Promise<void> {}
