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
  type AuditRow,
  type TargetType,
} from './repository.js';
import { allAsSeenBy, hiddenClusters, type HiddenClusters } from './visibility.js';

type Fields = Record<string, unknown>;

/** What a change records: the operation, its target, and the written fields before and after (absent = none). */
export interface Change {
  action: OperationId | `login.${'succeeded' | 'failed' | 'delayed'}`;
  target: { type: TargetType; id: string | null };
  clusterId?: string | null;
  before?: Fields | null;
  after?: Fields | null;
  /** The membership import that made the change. */
  importId?: string;
}

/** Never recorded, whatever a caller passes in. */
const SECRETS = new Set(['password', 'password_hash', 'refresh_token', 'access_token', 'token_hash', 'secret']);
/** Recorded as changed, without the values (a database connection string may carry credentials). */
const REDACTED = new Set(['db_connection']);

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
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
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

export function auditTrail({ knex }: { knex: Knex }) {
  const repo = auditRepository({ knex });
  return {
    /** Appends the event in the change's own transaction (`db`), so a change and its record land or fail together. */
    async record(db: Knex | Knex.Transaction, caller: Caller, change: Change): Promise<void> {
      await repo.insert(db, eventRow(caller, change));
    },

    /**
     * The event as a part of the change's own statement, for a write that is one statement: it lands once per row of
     * the statement's CTE `perRowOf` (the written row), so a write that matched nothing records nothing.
     */
    recordPerRow(db: Knex | Knex.Transaction, caller: Caller, change: Change, perRowOf: string): Knex.Raw {
      return repo.insertPerRow(db, eventRow(caller, change), perRowOf);
    },

    /** Appends the events of many changes by one caller (an import's), in order, in the changes' transaction. */
    async recordAll(db: Knex | Knex.Transaction, caller: Caller, changes: Change[]): Promise<void> {
      await repo.insertMany(
        db,
        changes.map((change) => eventRow(caller, change)),
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
      return { data: allAsSeenBy(rows, hidden), paginate: paginateInfo(total, list) };
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
