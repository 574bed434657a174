import type { Knex } from 'knex';
import { rawEach, uuidPk } from './helpers.js';

/**
 * Single sign-on with OpenID Connect providers: accounts linked to a provider's subject, sign-ins in flight (state,
 * nonce and PKCE verifier, kept in the database so any replica can finish what another began), one-time codes that
 * hand a finished sign-in to the console, and the grants a provider's groups give new accounts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('sso_only').notNullable().defaultTo(false);
  });

  await knex.schema.createTable('user_identities', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('subject').notNullable();
    t.text('email').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_sign_in_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'subject'], { indexName: 'user_identities_provider_subject_uq' });
    t.index(['user_id'], 'user_identities_user_idx');
  });

  await knex.schema.createTable('sso_sign_ins', (t) => {
    t.text('state').primary();
    t.text('provider').notNullable();
    t.text('code_verifier').notNullable();
    t.text('nonce').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('return_to').nullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at'], 'sso_sign_ins_expires_idx');
  });

  await knex.schema.createTable('sso_handoffs', (t) => {
    t.text('code_hash').primary();
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.uuid('session_id').notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    /** Recorded with the sign-in when the code is exchanged. */
    t.text('provider').notNullable();
    t.text('subject').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });

  await knex.schema.alterTable('sessions', (t) => {
    t.text('sso_provider').nullable();
    t.timestamp('sso_authenticated_at', { useTz: true }).nullable();
    /** Sent back to the provider as `id_token_hint` when the session ends. */
    t.text('sso_id_token').nullable();
  });

  await knex.schema.createTable('sso_group_mappings', (t) => {
    uuidPk(knex, t);
    t.text('provider').notNullable();
    t.text('group_value').notNullable();
    t.text('permission_key').notNullable();
    t.uuid('cluster_id').nullable().references('id').inTable('clusters').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('created_by').nullable();
  });
  await rawEach(knex, [
    "create unique index sso_group_mappings_uq on sso_group_mappings (provider, group_value, permission_key, coalesce(cluster_id, '00000000-0000-0000-0000-000000000000'::uuid))",
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sso_group_mappings');
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('sso_provider');
    t.dropColumn('sso_authenticated_at');
    t.dropColumn('sso_id_token');
  });
  await knex.schema.dropTable('sso_handoffs');
  await knex.schema.dropTable('sso_sign_ins');
  await knex.schema.dropTable('user_identities');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('sso_only');
  });
}
