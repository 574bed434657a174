import type { Knex } from 'knex';
import { rawEach } from './helpers.js';

/**
 * Accounts run by their operators: a forced password change, sessions a user can see and end, and sign-in
 * failures counted per account and client (a progressive delay for that client, never a lock anyone can trigger).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('must_change_password').notNullable().defaultTo(false);
    t.timestamp('password_changed_at', { useTz: true }).nullable();
    t.timestamp('last_sign_in_at', { useTz: true }).nullable();
  });

  await knex.schema.alterTable('permission_grants', (t) => {
    t.uuid('created_by').nullable();
  });

  // One row per signed-in device: the refresh-token family's id. The access token names it (`sid`), so ending it
  // ends that device's access at its next request.
  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    t.index(['user_id'], 'sessions_user_idx');
    t.index(['expires_at'], 'sessions_expires_idx');
  });
  await rawEach(knex, [
    // The families that exist already become sessions, so an upgrade signs nobody out.
    `insert into sessions (id, user_id, created_at, last_used_at, expires_at, revoked_at)
     select family_id, min(user_id::text)::uuid, min(created_at), max(created_at), max(expires_at),
            case when bool_and(revoked_at is not null) then max(revoked_at) end
     from refresh_tokens group by family_id`,
    'alter table refresh_tokens add constraint refresh_tokens_session_fk foreign key (family_id) references sessions (id) on delete cascade',
    'create index refresh_tokens_expires_idx on refresh_tokens (expires_at)',
  ]);

  // Failures per account (a user id, or the login as typed when no account has it) and client address.
  await knex.schema.dropTable('login_attempts');
  await knex.schema.createTable('login_attempts', (t) => {
    t.text('account_key').notNullable();
    t.text('client').notNullable();
    t.integer('failed_count').notNullable().defaultTo(0);
    t.timestamp('last_failed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delayed_until', { useTz: true }).nullable();
    t.primary(['account_key', 'client']);
    t.index(['last_failed_at'], 'login_attempts_last_failed_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_attempts');
  await knex.schema.createTable('login_attempts', (t) => {
    t.text('subject').primary();
    t.integer('failed_count').notNullable().defaultTo(0);
    t.timestamp('first_failed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('locked_until', { useTz: true }).nullable();
  });
  await knex.raw('drop index if exists refresh_tokens_expires_idx');
  await knex.raw('alter table refresh_tokens drop constraint if exists refresh_tokens_session_fk');
  await knex.schema.dropTable('sessions');
  await knex.schema.alterTable('permission_grants', (t) => t.dropColumn('created_by'));
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('must_change_password');
    t.dropColumn('password_changed_at');
    t.dropColumn('last_sign_in_at');
  });
}
