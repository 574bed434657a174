import type { Knex } from 'knex';

/**
 * A single sign-on can have a second step too (the policy's `sso_sign_ins: second-factor`): its pending challenge
 * names the session the provider's callback opened, which the second step completes instead of opening a new one,
 * and the provider's subject, which the sign-in's audit event records as a password-less single sign-on does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sign_in_challenges', (t) => {
    t.uuid('sso_session_id').nullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.text('sso_provider').nullable();
    t.text('sso_subject').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sign_in_challenges', (t) => {
    t.dropColumn('sso_subject');
    t.dropColumn('sso_provider');
    t.dropColumn('sso_session_id');
  });
}
