import type { Knex } from 'knex';
import { rawEach, uuidPk } from './helpers.js';

/**
 * Service accounts and their API tokens (docs/adr/0027-service-accounts-and-api-tokens.md).
 *
 * A service account is a row of `users` of kind `service`: it holds grants in `permission_grants` like a person, so
 * the granting and delegation rules apply to it unchanged, and it never signs in. Its tokens are stored as the
 * SHA-256 of the whole token; `lookup` is the token's public id part, shown in lists to tell tokens apart. `scopes`
 * narrows a token to some of the account's keys (null: all of them). Each token change is audited by the trigger of
 * migration 0011 (its hash redacted); the last-used columns are bookkeeping and record nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('kind').notNullable().defaultTo('person');
    t.text('description').nullable();
  });
  await rawEach(knex, [
    "alter table users add constraint users_kind_check check (kind in ('person', 'service'))",
    "create index users_service_idx on users (lower(username)) where kind = 'service'",
  ]);
  await knex.schema.createTable('api_tokens', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('lookup').notNullable().unique();
    t.text('token_hash').notNullable().unique();
    t.jsonb('scopes').nullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('created_by_id').nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.text('last_used_ip').nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.uuid('revoked_by_id').nullable();
    t.index(['user_id', 'created_at'], 'api_tokens_user_idx');
  });
  await knex.raw(
    `create constraint trigger api_tokens_audited after insert or update or delete on api_tokens
     deferrable initially deferred for each row
     execute function audit_row_change('api_token', 'id', '', '', 'id,created_at,created_by_id,last_used_at,last_used_ip')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists api_tokens_audited on api_tokens');
  await knex.schema.dropTableIfExists('api_tokens');
  await rawEach(knex, [
    'drop index if exists users_service_idx',
    'alter table users drop constraint if exists users_kind_check',
  ]);
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('description');
    t.dropColumn('kind');
  });
}
