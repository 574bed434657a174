import type { Knex } from 'knex';
import type { OperationId, QueryParams, Schemas } from '../../core/contract.js';
import { paginateInfo, parsePageQuery } from '../../core/list-query.js';
import { can, clustersWith, type AuthContext } from '../../core/permissions.js';
import type { CsvColumn, CsvExport } from '../../core/csv.js';
import { cursorBatches } from '../../db/cursor.js';
import { NotFoundError } from '../../core/errors.js';
import {
  auditRepository,
  toEvent,
  type AuditEvent,
  type AuditFilters,
  type AuditLabels,
  type AuditRow,
  type TargetType,
} from './repository.js';
import { allAsSeenBy, hiddenClusters, type HiddenClusters } from './visibility.js';
import { labelsOf, rowLabelsSql } from './labels.js';
import { revertedEventId } from './revert.js';
import type { StoragePort } from '../../storage/port.js';

type Fields = Record<string, unknown>;

/** What a change records: the operation, its target, and the written fields before and after (absent = none). */
export interface Change {
  action: OperationId | `login.${'succeeded' | 'failed' | 'delayed'}` | 'secondFactor.failed' | 'stepUp.failed';
  target: { type: TargetType; id: string | null };
  clusterId?: string | null;
  before?: Fields | null;
  after?: Fields | null;
  /** The membership import that made the change. */
  importId?: string;
}

/** Never recorded, whatever a caller passes in. */
const SECRETS = new Set([
  'password',
  'password_hash',
  'refresh_token',
  'access_token',
  'token_hash',
  'secret',
  // Second factors: a code, a sign-in's second-step token, a TOTP secret, a passkey's credential.
  'code',
  'recovery_codes',
  'second_factor_token',
  'secret_encrypted',
  'credential_id',
  'public_key',
]);
/** Recorded as changed, without the values (a database connection string may carry credentials). */
const REDACTED = new Set(['db_connection']);

/**
 * A value as JSON text with every object's keys in order: the database stores a JSON object with its keys reordered,
 * and the same value read back must not read as a change.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The fields whose value differs, each with its value before and after; secrets are left out. */
export function changedFields(
  before: Fields | null | undefined,
  after: Fields | null | undefined,
): Record<string, { before: unknown; after: unknown }> {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    if (SECRETS.has(key)) continue;
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    if (canonical(b) === canonical(a)) continue;
    out[key] = REDACTED.has(key)
      ? { before: b === null ? null : '[redacted]', after: a === null ? null : '[redacted]' }
      : { before: b, after: a };
  }
  return out;
}

/** The export's columns: those of the console's audit log; the changes as JSON in one cell. */
const CSV_COLUMNS: CsvColumn<AuditEvent>[] = [
  { header: 'When', value: (e) => e.at },
  { header: 'Actor', value: (e) => e.actor_name },
  { header: 'Action', value: (e) => e.action },
  { header: 'Record Type', value: (e) => e.target_type },
  { header: 'Record', value: (e) => e.target_id },
  { header: 'Cluster', value: (e) => e.cluster_id },
  { header: 'IP', value: (e) => e.ip },
  { header: 'Request', value: (e) => e.request_id },
  { header: 'Import', value: (e) => e.import_id },
  { header: 'Changes', value: (e) => JSON.stringify(e.changes ?? {}) },
];

type Caller = { userId: string | null; origin?: AuthContext['origin'] };

function eventRow(caller: Caller, change: Change): AuditRow {
  return {
    actor_id: caller.userId,
    action: change.action,
    target_type: change.target.type,
    target_id: change.target.id,
    cluster_id: change.clusterId ?? null,
    request_id: caller.origin?.requestId ?? null,
    ip: caller.origin?.ip ?? null,
    user_agent: caller.origin?.userAgent ?? null,
    import_id: change.importId ?? null,
    changes: changedFields(change.before, change.after),
  };
}

/**
 * The list's filter, for the list and its export alike: the caller's reach, narrowed by the query. A cluster named in
 * the query must be one the caller reads: anyone else gets the answer of a missing cluster.
 */
function listFilter(auth: AuthContext, query: QueryParams<'listAuditEvents'>): AuditFilters {
  if (query.cluster_id && !can(auth.permissions, 'cluster.read', query.cluster_id))
    throw new NotFoundError('Cluster not found');
  return {
    targetType: query.target_type,
    targetId: query.target_id,
    actorId: query.actor_id,
    action: query.action,
    clusterId: query.cluster_id,
    from: query.from,
    to: query.to,
    importId: query.import_id,
    withMemberships: 'with_memberships' in query ? query.with_memberships : undefined,
    scope: clustersWith(auth.permissions, 'cluster.read'),
    withoutCluster: can(auth.permissions, 'user.read'),
  };
}

/** An export's batches as their reader is shown them; stopping early stops the cursor behind them too. */
async function* seenBy(
  batches: AsyncIterable<AuditEvent[]>,
  hidden: HiddenClusters | null,
): AsyncGenerator<AuditEvent[], void, undefined> {
  for await (const batch of batches) yield allAsSeenBy(batch, hidden);
}

/** What every event of the change running now carries besides its own labels: the event it reverts, if any. */
function contextLabels(): AuditLabels {
  const revertOf = revertedEventId();
  return revertOf ? { revert_of: revertOf } : {};
}

/** The image fields an upload records, whose before and after the trail shows as pictures. */
const IMAGE_FIELDS = ['logo_key', 'avatar_key'];

/** A read URL for a stored image key, or null when there is none or its file is gone (a replaced image is removed). */
async function imageUrl(storage: StoragePort, key: unknown): Promise<string | null> {
  if (typeof key !== 'string' || key === '') return null;
  try {
    return (await storage.exists(key)) ? (await storage.signedUrl(key)).url : null;
  } catch {
    // A key that is not a storage key (an old or hand-made event) has no picture; the change still shows as text.
    return null;
  }
}

/** Events of an image change, with the pictures before and after. */
async function withImages(storage: StoragePort | undefined, events: AuditEvent[]): Promise<AuditEvent[]> {
  if (!storage) return events;
  return Promise.all(
    events.map(async (event) => {
      const field = IMAGE_FIELDS.find((f) => event.changes[f]);
      if (!field) return event;
      const change = event.changes[field]!;
      const [before, after] = await Promise.all([imageUrl(storage, change.before), imageUrl(storage, change.after)]);
      return { ...event, images: { before, after } };
    }),
  );
}

export function auditTrail({ knex, storage }: { knex: Knex; storage?: StoragePort }) {
  const repo = auditRepository({ knex });
  return {
    /**
     * Appends the event in the change's own transaction (`db`), so a change and its record land or fail together,
     * with the names of what it touched as they are in that transaction (see `labels.ts`).
     */
    async record(db: Knex | Knex.Transaction, caller: Caller, change: Change): Promise<void> {
      const row = eventRow(caller, change);
      const [labels] = await labelsOf(db, [row]);
      await repo.insert(db, row, { ...labels, ...contextLabels() });
    },

    /**
     * The event as a part of the change's own statement, for a write that is one statement: it lands once per row of
     * the statement's CTE `perRowOf` (the written row), so a write that matched nothing records nothing.
     */
    recordPerRow(db: Knex | Knex.Transaction, caller: Caller, change: Change, perRowOf: string): Knex.Raw {
      const row = eventRow(caller, change);
      return repo.insertPerRow(db, row, perRowOf, rowLabelsSql(db, row, perRowOf, contextLabels()));
    },

    /** Appends the events of many changes by one caller (an import's), in order, in the changes' transaction. */
    async recordAll(db: Knex | Knex.Transaction, caller: Caller, changes: Change[]): Promise<void> {
      const rows = changes.map((change) => eventRow(caller, change));
      const labels = await labelsOf(db, rows);
      await repo.insertMany(
        db,
        rows,
        labels.map((l) => ({ ...l, ...contextLabels() })),
      );
    },

    /**
     * Events of the clusters the caller may read (`cluster.read`); events of no cluster need `user.read` (they are
     * about accounts). An event names no cluster the caller may not see (see `asSeenBy`).
     */
    async list(auth: AuthContext, query: QueryParams<'listAuditEvents'>): Promise<Schemas['AuditEventPage']> {
      const list = parsePageQuery(query);
      const [{ rows, total }, hidden] = await Promise.all([
        repo.list(listFilter(auth, query), list),
        hiddenClusters(knex, auth.permissions),
      ]);
      return { data: await withImages(storage, allAsSeenBy(rows, hidden)), paginate: paginateInfo(total, list) };
    },

    /** The list as CSV: the same filters, access and view of other clusters, every matching event streamed from a cursor. */
    async export(auth: AuthContext, query: QueryParams<'exportAuditEvents'>): Promise<CsvExport<AuditEvent>> {
      const hidden = await hiddenClusters(knex, auth.permissions);
      const rows = repo.exportRows(listFilter(auth, query), parsePageQuery(query));
      return {
        name: 'audit-log',
        columns: CSV_COLUMNS,
        batches: seenBy(cursorBatches(knex, rows, { map: toEvent }), hidden),
      };
    },
  };
}

export type AuditTrail = ReturnType<typeof auditTrail>;

/** The fields of a stored row that a write names, to record as its "before". */
export function pick(row: object, keys: readonly string[]): Fields {
  const source = row as Fields;
  return Object.fromEntries(
    keys.map((k) => {
      const value = source[k];
      return [k, value instanceof Date ? value.toISOString() : (value ?? null)];
    }),
  );
}

/** A soft delete and a restore, as the audit trail shows them. */
export const LIVE = { deleted: false } as const;
export const DELETED = { deleted: true } as const;
