/**
 * What a write changed, row by row, in the audited tables, and which of those changes no audit event names: the
 * check behind "every row change of an audited table has an event" (migration 0011).
 *
 *   const before = await snapshotAudited(t.knex);
 *   await doTheWrite();
 *   expect(await unrecordedChanges(t.knex, before)).toEqual([]);
 */
import type { Knex } from 'knex';
import { AUDITED_TABLES } from '../../../server/src/db/migrations/0011_audit_by_construction.js';
import { rawRows } from '../../support/records.js';

type Row = Record<string, unknown>;
export interface Snapshot {
  /** table → row id → the row as JSON text */
  rows: Map<string, Map<string, string>>;
  /** The newest event when the snapshot was taken: later events are the write's. */
  lastEventAt: string;
}
export interface RowChange {
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  row: Row;
}

export async function snapshotAudited(knex: Knex): Promise<Snapshot> {
  const rows = new Map<string, Map<string, string>>();
  for (const { table } of AUDITED_TABLES) {
    const res = await rawRows<{ id: string; row: string }>(
      knex.raw(`select id::text as id, to_jsonb(t)::text as row from ${table} t`),
    );
    rows.set(table, new Map(res.map((r) => [r.id, r.row])));
  }
  const [last] = await rawRows<{ at: string }>(
    knex.raw(`select coalesce(max(at), '-infinity')::text as at from audit_events`),
  );
  return { rows, lastEventAt: last!.at };
}

/** Every row inserted, updated or deleted since the snapshot. */
export async function rowChangesSince(knex: Knex, before: Snapshot): Promise<RowChange[]> {
  const after = await snapshotAudited(knex);
  const changes: RowChange[] = [];
  for (const { table } of AUDITED_TABLES) {
    const was = before.rows.get(table)!;
    const now = after.rows.get(table)!;
    for (const [id, row] of now) {
      const old = was.get(id);
      if (old === undefined) changes.push({ table, id, op: 'insert', row: JSON.parse(row) as Row });
      else if (old !== row) changes.push({ table, id, op: 'update', row: JSON.parse(row) as Row });
    }
    for (const [id, row] of was)
      if (!now.has(id)) changes.push({ table, id, op: 'delete', row: JSON.parse(row) as Row });
  }
  return changes;
}

interface EventRow {
  target_type: string;
  target_id: string | null;
  actor_id: string | null;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

/** The events recorded since the snapshot, oldest first. */
export async function eventsSince(knex: Knex, before: Snapshot): Promise<EventRow[]> {
  const res = await rawRows<EventRow & { changes: unknown }>(
    knex.raw(
      `select target_type, target_id, actor_id, action, changes from audit_events where at > ?::timestamptz order by at, id`,
      [before.lastEventAt],
    ),
  );
  return res.map((e) => ({
    ...e,
    changes: (typeof e.changes === 'string' ? JSON.parse(e.changes) : e.changes) as EventRow['changes'],
  }));
}

/** Whether the event names the changed row, as the trigger decides it. */
export function eventNames(event: EventRow, change: RowChange): boolean {
  const table = AUDITED_TABLES.find((t) => t.table === change.table)!;
  if (event.target_type !== table.targetType || event.target_id !== String(change.row[table.targetColumn]))
    return false;
  if (!table.rowKey) return true;
  const named = event.changes[table.rowKey];
  return named?.before === change.id || named?.after === change.id;
}

/**
 * The changes that only touched bookkeeping columns record nothing, by design; all others must be named by an event.
 * Answers the unnamed ones as `table:op:id`, so a failure says which.
 */
export async function unrecordedChanges(knex: Knex, before: Snapshot): Promise<string[]> {
  const changes = await rowChangesSince(knex, before);
  const events = await eventsSince(knex, before);
  return changes
    .filter((change) => !onlyBookkeeping(change, before))
    .filter((change) => !events.some((e) => eventNames(e, change)))
    .map((c) => `${c.table}:${c.op}:${c.id}`);
}

function onlyBookkeeping(change: RowChange, before: Snapshot): boolean {
  if (change.op !== 'update') return false;
  const table = AUDITED_TABLES.find((t) => t.table === change.table)!;
  const old = JSON.parse(before.rows.get(change.table)!.get(change.id)!) as Row;
  return Object.keys(change.row).every(
    (k) => table.ignored.includes(k) || JSON.stringify(old[k]) === JSON.stringify(change.row[k]),
  );
}
