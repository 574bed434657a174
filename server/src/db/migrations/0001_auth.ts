import type { Knex } from 'knex';
import { rawEach, uuidPk } from './helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');

  await knex.schema.createTable('users', (t) => {
    uuidPk(knex, t);
    t.text('username').notNullable();
    t.text('email').notNullable();
    t.text('firstname');
    t.text('middlename');
    t.text('lastname');
    t.text('password_hash').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_super_admin').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await rawEach(knex, [
    'create unique index users_username_lower_uq on users (lower(username))',
    'create unique index users_email_lower_uq on users (lower(email))',
    'create index users_username_trgm on users using gin (lower(username) gin_trgm_ops)',
    'create index users_email_trgm on users using gin (lower(email) gin_trgm_ops)',
    'create index users_firstname_trgm on users using gin (lower(firstname) gin_trgm_ops)',
    'create index users_lastname_trgm on users using gin (lower(lastname) gin_trgm_ops)',
  ]);

  await knex.schema.createTable('permission_grants', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('permission_key').notNullable();
    t.uuid('cluster_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id'], 'permission_grants_user_idx');
  });
  await knex.raw(
    "create unique index permission_grants_uq on permission_grants (user_id, permission_key, coalesce(cluster_id, '00000000-0000-0000-0000-000000000000'::uuid))",
  );

  await knex.schema.createTable('refresh_tokens', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.uuid('family_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['family_id'], 'refresh_tokens_family_idx');
    t.index(['user_id'], 'refresh_tokens_user_idx');
  });

  await knex.schema.createTable('login_attempts', (t) => {
    t.text('subject').primary();
    t.integer('failed_count').notNullable().defaultTo(0);
    t.timestamp('first_failed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('locked_until', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_attempts');
  await knex.schema.dropTableIfExists('refresh_tokens');
  await knex.schema.dropTableIfExists('permission_grants');
  await knex.schema.dropTableIfExists('users');
}
