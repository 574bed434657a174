import type { Knex } from 'knex';
import { rawEach } from './helpers.js';

/**
 * Every committed write that an in-memory cache depends on sends a notification on `platform_changes`, so each
 * replica can drop what it cached (server/src/db/changes.ts). PostgreSQL delivers a notification only when its
 * transaction commits, and never for a rolled-back one.
 *
 * Payloads: a table name, when a cache keeps whole tables' worth of answers (resolve), or `<table>:<user id>`, when a
 * cache keeps answers per user (the caller and its permissions).
 */
const CHANNEL = 'platform_changes';

/** Table-wide: the payload is the table name (identical payloads of one transaction reach listeners once). */
const TABLE_WIDE: Array<{ table: string; events: string }> = [
  { table: 'print_template_mappings', events: 'insert or update or delete' },
  { table: 'report_templates', events: 'insert or update or delete' },
  // Resolve reports the codes of its lists that name no live business unit.
  { table: 'business_units', events: 'insert or delete or update of code, deleted_at' },
];

/** Per user: the payload is `<table>:<user id>`, the column named here giving the user id. */
const PER_USER: Array<{ table: string; userColumn: string; events: string }> = [
  // Not last_sign_in_at (every sign-in writes it) nor the password hash: nothing cached shows them.
  {
    table: 'users',
    userColumn: 'id',
    events:
      'update of username, email, firstname, middlename, lastname, is_active, is_super_admin, must_change_password or delete',
  },
  { table: 'permission_grants', userColumn: 'user_id', events: 'insert or update or delete' },
  { table: 'sessions', userColumn: 'user_id', events: 'update or delete' },
];

const triggerName = (table: string) => `${table}_notify_change`;

export async function up(knex: Knex): Promise<void> {
  await rawEach(knex, [
    `create function notify_table_change() returns trigger language plpgsql as $$
     begin
       perform pg_notify('${CHANNEL}', TG_TABLE_NAME);
       return null;
     end $$`,
    // A row that moves from one user to another concerns both; the argument names the user id column.
    `create function notify_user_change() returns trigger language plpgsql as $$
     begin
       if TG_OP <> 'INSERT' then perform pg_notify('${CHANNEL}', TG_TABLE_NAME || ':' || (to_jsonb(OLD) ->> TG_ARGV[0])); end if;
       if TG_OP <> 'DELETE' then perform pg_notify('${CHANNEL}', TG_TABLE_NAME || ':' || (to_jsonb(NEW) ->> TG_ARGV[0])); end if;
       return null;
     end $$`,
    ...TABLE_WIDE.map(
      ({ table, events }) =>
        `create trigger ${triggerName(table)} after ${events} on ${table} for each statement execute function notify_table_change()`,
    ),
    ...PER_USER.map(
      ({ table, userColumn, events }) =>
        `create trigger ${triggerName(table)} after ${events} on ${table} for each row execute function notify_user_change('${userColumn}')`,
    ),
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await rawEach(knex, [
    ...[...TABLE_WIDE, ...PER_USER].map(({ table }) => `drop trigger if exists ${triggerName(table)} on ${table}`),
    'drop function if exists notify_user_change()',
    'drop function if exists notify_table_change()',
  ]);
}
