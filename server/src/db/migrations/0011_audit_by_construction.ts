import type { Knex } from 'knex';
import { rawEach } from './helpers.js';

/**
 * Audit by construction: no row of an audited table changes without an audit event in the same transaction.
 *
 * The services record what an operator did (`updateCluster`, `addUserGrant`, …) with the fields that matter. A write
 * they did not describe — a side effect such as the BU memberships that go with a cluster membership, a mapping
 * demoted by a new default, or a write someone adds later and forgets to record — is caught here: each audited table
 * has a deferred constraint trigger that runs at commit for every row the transaction changed. If no event of the
 * transaction names that row, the trigger records one itself, attributed to the transaction's own first event (its
 * actor, operation, request and address) and listing the row's changed columns. So a forgotten record call can lose
 * the wording of an event, never the event.
 *
 * Events carry the id of the transaction that wrote them (`txid`), which is how the check finds its own transaction's
 * events. Bulk loads that are not operators' changes (the first-start data loader, benchmark data) say so with the
 * transaction-local setting `platform.audit_exempt`, and the trigger records nothing for them.
 */
interface AuditedTable {
  table: string;
  /** The audit trail's `target_type` for a row of this table. */
  targetType: string;
  /** The column whose value is the event's `target_id`. */
  targetColumn: string;
  /** Where the row's cluster comes from: a column of the row, or `bu:<column>` for a business unit's cluster. */
  cluster: string;
  /**
   * Rows recorded under another record (a grant under its account) are named in the event's changes by this key;
   * without one, an event on the target names the row.
   */
  rowKey: string;
  /** Columns that are bookkeeping, not the change: a row whose only changes are these records nothing. */
  ignored: string[];
}

const BOOKKEEPING = ['id', 'created_at', 'created_by_id', 'created_by', 'updated_at', 'updated_by_id', 'deleted_by_id'];

export const AUDITED_TABLES: AuditedTable[] = [
  { table: 'clusters', targetType: 'cluster', targetColumn: 'id', cluster: 'id', rowKey: '', ignored: BOOKKEEPING },
  {
    table: 'business_units',
    targetType: 'business_unit',
    targetColumn: 'id',
    cluster: 'cluster_id',
    rowKey: '',
    ignored: BOOKKEEPING,
  },
  {
    table: 'cluster_users',
    targetType: 'cluster_user',
    targetColumn: 'id',
    cluster: 'cluster_id',
    rowKey: '',
    ignored: BOOKKEEPING,
  },
  {
    table: 'bu_users',
    targetType: 'business_unit_user',
    targetColumn: 'id',
    cluster: 'bu:business_unit_id',
    rowKey: '',
    ignored: BOOKKEEPING,
  },
  {
    table: 'print_template_mappings',
    targetType: 'print_template_mapping',
    targetColumn: 'id',
    cluster: '',
    rowKey: '',
    ignored: BOOKKEEPING,
  },
  {
    table: 'dashboard_widgets',
    targetType: 'widget',
    targetColumn: 'id',
    cluster: '',
    rowKey: '',
    ignored: BOOKKEEPING,
  },
  {
    table: 'sso_group_mappings',
    targetType: 'sso_group_mapping',
    targetColumn: 'id',
    cluster: '',
    rowKey: '',
    ignored: BOOKKEEPING,
  },
  // Every sign-in writes last_sign_in_at; the sign-in itself is its own event.
  {
    table: 'users',
    targetType: 'user',
    targetColumn: 'id',
    cluster: '',
    rowKey: '',
    ignored: [...BOOKKEEPING, 'last_sign_in_at'],
  },
  {
    table: 'permission_grants',
    targetType: 'user',
    targetColumn: 'user_id',
    cluster: '',
    rowKey: 'grant_id',
    ignored: BOOKKEEPING,
  },
  {
    table: 'user_identities',
    targetType: 'user',
    targetColumn: 'user_id',
    cluster: '',
    rowKey: 'identity_id',
    ignored: [...BOOKKEEPING, 'last_sign_in_at'],
  },
];

/** Values never written to the trail, only that they changed. */
const REDACTED_COLUMNS = ['password_hash', 'db_connection', 'sso_id_token', 'token_hash', 'secret'];

const triggerName = (table: string) => `${table}_audited`;

export async function up(knex: Knex): Promise<void> {
  await rawEach(knex, [
    'alter table audit_events add column txid bigint default txid_current()',
    'create index audit_events_txid_idx on audit_events (txid, target_type, target_id)',
    // Arguments: target type, target column, cluster source, row key, ignored columns (comma-separated).
    `create function audit_row_change() returns trigger language plpgsql as $$
     declare
       old_row jsonb := case when TG_OP = 'INSERT' then '{}'::jsonb else to_jsonb(OLD) end;
       new_row jsonb := case when TG_OP = 'DELETE' then '{}'::jsonb else to_jsonb(NEW) end;
       the_row jsonb := case when TG_OP = 'DELETE' then to_jsonb(OLD) else to_jsonb(NEW) end;
       row_target_type text := TG_ARGV[0];
       row_target_id text := the_row ->> TG_ARGV[1];
       row_key text := TG_ARGV[3];
       ignored text[] := string_to_array(TG_ARGV[4], ',');
       redacted text[] := array[${REDACTED_COLUMNS.map((c) => `'${c}'`).join(', ')}];
       changes jsonb := '{}'::jsonb;
       col text;
       before_value jsonb;
       after_value jsonb;
       cluster uuid;
       origin jsonb;
     begin
       if coalesce(current_setting('platform.audit_exempt', true), '') <> '' then return null; end if;
       -- Recorded already: an event of this transaction names the row.
       perform 1 from audit_events e
        where e.txid = txid_current() and e.target_type = row_target_type and e.target_id = row_target_id
          and (row_key = '' or e.changes -> row_key ->> 'before' = the_row ->> 'id' or e.changes -> row_key ->> 'after' = the_row ->> 'id');
       if found then return null; end if;

       for col in select k from (select jsonb_object_keys(old_row) as k union select jsonb_object_keys(new_row)) keys loop
         continue when col = any(ignored);
         -- A column absent on one side (an insert's before, a delete's after) is null there.
         before_value := coalesce(old_row -> col, 'null'::jsonb);
         after_value := coalesce(new_row -> col, 'null'::jsonb);
         continue when before_value = after_value;
         if col = 'deleted_at' then
           -- A soft delete or restore reads as the services write it.
           changes := changes || jsonb_build_object('deleted', jsonb_build_object(
             'before', case when TG_OP = 'INSERT' then null else before_value <> 'null'::jsonb end,
             'after', case when TG_OP = 'DELETE' then null else after_value <> 'null'::jsonb end));
         elsif col = any(redacted) then
           changes := changes || jsonb_build_object(col, jsonb_build_object(
             'before', case when before_value = 'null'::jsonb then null else to_jsonb('[redacted]'::text) end,
             'after', case when after_value = 'null'::jsonb then null else to_jsonb('[redacted]'::text) end));
         else
           changes := changes || jsonb_build_object(col, jsonb_build_object('before', before_value, 'after', after_value));
         end if;
       end loop;
       if row_key <> '' then
         changes := changes || jsonb_build_object(row_key, jsonb_build_object('before', old_row -> 'id', 'after', new_row -> 'id'));
       end if;
       if changes = '{}'::jsonb then return null; end if;

       if TG_ARGV[2] like 'bu:%' then
         select b.cluster_id into cluster from business_units b where b.id = (the_row ->> substr(TG_ARGV[2], 4))::uuid;
       elsif TG_ARGV[2] <> '' then
         cluster := (the_row ->> TG_ARGV[2])::uuid;
       end if;

       -- The transaction's first event, looked up once and kept for its other rows: by commit every event the
       -- services write is in, and a bulk change must not search the transaction's events once per row.
       origin := nullif(current_setting('platform.audit_origin', true), '')::jsonb;
       if origin is null then
         select to_jsonb(first_event) into origin from (
           select e.actor_id, e.actor_name, e.action, e.request_id, e.ip, e.user_agent, e.import_id
             from audit_events e where e.txid = txid_current() order by e.at, e.id limit 1) first_event;
         origin := coalesce(origin, '{"action": "unattributedChange"}'::jsonb);
         perform set_config('platform.audit_origin', origin::text, true);
       end if;
       insert into audit_events (at, actor_id, actor_name, action, target_type, target_id, cluster_id, request_id, ip, user_agent, import_id, changes)
       values (clock_timestamp(), (origin ->> 'actor_id')::uuid, origin ->> 'actor_name', origin ->> 'action', row_target_type, row_target_id,
               cluster, origin ->> 'request_id', origin ->> 'ip', origin ->> 'user_agent', (origin ->> 'import_id')::uuid, changes);
       return null;
     end $$`,
    ...AUDITED_TABLES.map(
      ({ table, targetType, targetColumn, cluster, rowKey, ignored }) =>
        `create constraint trigger ${triggerName(table)} after insert or update or delete on ${table}
         deferrable initially deferred for each row
         execute function audit_row_change('${targetType}', '${targetColumn}', '${cluster}', '${rowKey}', '${ignored.join(',')}')`,
    ),
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await rawEach(knex, [
    ...AUDITED_TABLES.map(({ table }) => `drop trigger if exists ${triggerName(table)} on ${table}`),
    'drop function if exists audit_row_change()',
    'drop index if exists audit_events_txid_idx',
    'alter table audit_events drop column if exists txid',
  ]);
}
