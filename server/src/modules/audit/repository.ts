import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import type { ListQuery, PageRows, SortTerm } from '../../core/list-query.js';
import { countFrom } from '../../db/count.js';
import { applyListQuery, displayNameSql, estimateRows, keysetKeySql, keysetWhere } from '../../db/sql.js';

export type AuditEvent = Schemas['AuditEvent'];
export type TargetType = AuditEvent['target_type'];
/** The human names an event keeps of what it touched (see `labels.ts`). */
export type AuditLabels = NonNullable<AuditEvent['labels']>;

export interface AuditRow {
  actor_id: string | null;
  action: string;
  target_type: TargetType;
  target_id: string | null;
  cluster_id: string | null;
  request_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** The membership import that made the change, if one did. */
  import_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
}

export interface AuditFilters {
  targetType?: TargetType;
  targetId?: string;
  actorId?: string;
  action?: string;
  clusterId?: string;
  from?: string;
  to?: string;
  importId?: string;
  /** With a cluster or business unit target: the changes to its memberships too. */
  withMemberships?: boolean;
  /** Clusters whose events the caller may read ('all': every cluster's). */
  scope: 'all' | string[];
  /** Whether the caller may read the events that belong to no cluster (accounts, grants, sign-ins, sessions, …). */
  withoutCluster: boolean;
}

const toIso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

export function toEvent(r: Record<string, unknown>): AuditEvent {
  return {
    id: r.id as string,
    at: toIso(r.at),
    actor_id: (r.actor_id as string | null) ?? null,
    actor_name: (r.actor_name as string | null) ?? null,
    action: r.action as string,
    target_type: r.target_type as TargetType,
    target_id: (r.target_id as string | null) ?? null,
    cluster_id: (r.cluster_id as string | null) ?? null,
    request_id: (r.request_id as string | null) ?? null,
    ip: (r.ip as string | null) ?? null,
    user_agent: (r.user_agent as string | null) ?? null,
    import_id: (r.import_id as string | null) ?? null,
    changes: (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as AuditEvent['changes'],
    ...(r.labels ? { labels: (typeof r.labels === 'string' ? JSON.parse(r.labels) : r.labels) as AuditLabels } : {}),
  };
}

/**
 * A record's own events; with `withMemberships`, those of its memberships too: a cluster's members and its units'
 * members (events of the cluster), a unit's members (events whose labels name the unit).
 */
function ofTarget(b: Knex.QueryBuilder, f: AuditFilters): void {
  const { targetType, targetId } = f;
  if (!targetId || !targetType || !f.withMemberships) {
    if (targetType) b.where('e.target_type', targetType);
    if (targetId) b.where('e.target_id', targetId);
    return;
  }
  b.where((w) => {
    w.where((own) => {
      own.where('e.target_type', targetType).where('e.target_id', targetId);
    });
    if (targetType === 'cluster')
      w.orWhere((m) => {
        m.whereIn('e.target_type', ['cluster_user', 'business_unit_user']).whereRaw('e.cluster_id::text = ?', [
          targetId,
        ]);
      });
    if (targetType === 'business_unit')
      w.orWhere((m) => {
        // A membership the database recorded by itself (ADR 0017) has no labels: its changes name the unit.
        m.where('e.target_type', 'business_unit_user').whereRaw(
          `coalesce(e.labels ->> 'business_unit_id', e.changes -> 'business_unit_id' ->> 'after',
             e.changes -> 'business_unit_id' ->> 'before') = ?`,
          [targetId],
        );
      });
  });
}

function filtered(knex: Knex, f: AuditFilters): Knex.QueryBuilder {
  const b = knex('audit_events as e');
  if (f.scope !== 'all' || !f.withoutCluster) {
    const scope = f.scope;
    b.where((w) => {
      if (scope === 'all') w.whereNotNull('e.cluster_id');
      else w.whereIn('e.cluster_id', scope);
      if (f.withoutCluster) w.orWhereNull('e.cluster_id');
    });
  }
  ofTarget(b, f);
  if (f.actorId) b.where('e.actor_id', f.actorId);
  if (f.action) b.where('e.action', f.action);
  if (f.clusterId) b.where('e.cluster_id', f.clusterId);
  if (f.from) b.where('e.at', '>=', f.from);
  if (f.to) b.where('e.at', '<', f.to);
  if (f.importId) b.where('e.import_id', f.importId);
  return b;
}

/** The columns of an event as bound values, with the type each is cast to: an `insert … select` infers no types. */
const EVENT_COLUMNS: ReadonlyArray<readonly [keyof AuditRow, string]> = [
  ['actor_id', 'uuid'],
  ['action', 'text'],
  ['target_type', 'text'],
  ['target_id', 'text'],
  ['cluster_id', 'uuid'],
  ['request_id', 'text'],
  ['ip', 'text'],
  ['user_agent', 'text'],
  ['import_id', 'uuid'],
  ['changes', 'jsonb'],
];

/** Rows per multi-row insert: well under PostgreSQL's 65,535 bind parameters (a row binds 11). */
const INSERT_BATCH = 1000;

/** Newest first; the id breaks ties between events of the same instant. */
const newestFirst = (qb: Knex.QueryBuilder) =>
  qb.orderBy([
    { column: 'e.at', order: 'desc' },
    { column: 'e.id', order: 'desc' },
  ]);

/** The same order as keyset terms: both columns are never null and run one way, so a cursor is one index range. */
const NEWEST_FIRST: SortTerm[] = [
  { column: 'e.at', field: 'at', direction: 'desc', notNull: true },
  { column: 'e.id', field: 'id', direction: 'desc', notNull: true },
];

export function auditRepository({ knex }: { knex: Knex }) {
  return {
    /**
     * Appends one event in the caller's transaction; the actor's display name is copied as it is now. The event's time
     * is the moment of the change, not the transaction's start (`now()`): a change that waited behind another one's
     * lock happened after it, and the trail must read in that order.
     */
    async insert(db: Knex | Knex.Transaction, row: AuditRow, labels: AuditLabels): Promise<void> {
      await db('audit_events').insert({
        ...row,
        at: db.raw('clock_timestamp()'),
        changes: JSON.stringify(row.changes),
        labels: JSON.stringify(labels),
        actor_name: row.actor_id
          ? db.raw(`(select ${displayNameSql('u')} from users u where u.id = ?)`, [row.actor_id])
          : null,
      });
    },

    /**
     * The insert of one event as a part of the write's own statement (a data-modifying CTE): one event per row of the
     * statement's CTE `perRowOf`, so a write that matched no row records nothing. The time and the actor's name are
     * taken as `insert` takes them.
     */
    insertPerRow(db: Knex | Knex.Transaction, row: AuditRow, perRowOf: string, labels: Knex.Raw): Knex.Raw {
      const values = EVENT_COLUMNS.map(([column]) =>
        column === 'changes' ? JSON.stringify(row.changes) : row[column],
      );
      return db.raw(
        `insert into audit_events (${EVENT_COLUMNS.map(([column]) => column).join(', ')}, at, actor_name, labels)
         select ${EVENT_COLUMNS.map(([, type]) => `?::${type}`).join(', ')}, clock_timestamp(),
           (select ${displayNameSql('u')} from users u where u.id = ?::uuid), ? from ??`,
        [...values, row.actor_id, labels, perRowOf],
      );
    },

    /**
     * Appends many events of one actor in a few statements (an import's changes), in the order given: the rows of one
     * statement would share a clock reading, so each is a microsecond after the one before and the trail keeps the order.
     */
    async insertMany(db: Knex | Knex.Transaction, rows: AuditRow[], labels: AuditLabels[]): Promise<void> {
      if (rows.length === 0) return;
      const actorId = rows[0]!.actor_id;
      const actor = actorId
        ? await db('users')
            .select(db.raw(`${displayNameSql('users')} as name`))
            .where('id', actorId)
            .first<{ name: string | null } | undefined>()
        : undefined;
      const actorName = actor?.name ?? null;
      const stored = rows.map((row, i) => ({
        ...row,
        at: db.raw(`clock_timestamp() + ? * interval '1 microsecond'`, [i]),
        changes: JSON.stringify(row.changes),
        labels: JSON.stringify(labels[i] ?? {}),
        actor_name: actorName,
      }));
      for (let i = 0; i < stored.length; i += INSERT_BATCH)
        await db('audit_events').insert(stored.slice(i, i + INSERT_BATCH));
    },

    /** One event, or undefined. */
    async find(db: Knex | Knex.Transaction, id: string): Promise<AuditEvent | undefined> {
      const row = (await db('audit_events as e').select('e.*').where('e.id', id).first()) as
        Record<string, unknown> | undefined;
      return row && toEvent(row);
    },

    /** The newest event that reverted `eventId`, if any. */
    async findRevertOf(db: Knex | Knex.Transaction, eventId: string): Promise<AuditEvent | undefined> {
      const row = (await newestFirst(
        db('audit_events as e').select('e.*').whereRaw("e.labels ->> 'revert_of' = ?", [eventId]),
      ).first()) as Record<string, unknown> | undefined;
      return row && toEvent(row);
    },

    /**
     * One page of events and the total (or the planner's estimate of it); after `q.after` when continued by cursor,
     * reading one event past the page then to know whether another follows.
     */
    async list(f: AuditFilters, q: ListQuery): Promise<PageRows<AuditEvent>> {
      const limit = q.limit!;
      const page = newestFirst(filtered(knex, f))
        .select<Array<Record<string, unknown>>>('e.*', knex.raw(`${keysetKeySql(NEWEST_FIRST)} as list_key`))
        .limit(q.probe ? limit + 1 : limit)
        .offset(q.offset);
      if (q.after) keysetWhere(page, NEWEST_FIRST, q.after);
      const estimated = q.total === 'estimate';
      const [total, rows] = await Promise.all([
        estimated
          ? estimateRows(knex, filtered(knex, f))
          : filtered(knex, f).count<Array<Record<string, unknown>>>({ count: '*' }).then(countFrom),
        page,
      ]);
      const more = q.probe ? rows.length > limit : q.offset + rows.length < total;
      const kept = rows.slice(0, limit);
      const last = kept[kept.length - 1];
      const key = last?.list_key;
      return {
        rows: kept.map(({ list_key: _key, ...row }) => toEvent(row)),
        total: estimated ? Math.max(total, (q.before ?? q.offset) + kept.length + (more ? 1 : 0)) : total,
        estimated,
        nextKey: more && last ? ((typeof key === 'string' ? JSON.parse(key) : key) as unknown[]) : null,
      };
    },

    /** The list's events in the list's order, every one (or the page, when `q` has a limit): an export's query. */
    exportRows(f: AuditFilters, q: ListQuery): Knex.QueryBuilder {
      // The audit list has one order (newest first) and no sort of its own: the list query adds only the page.
      return applyListQuery(newestFirst(filtered(knex, f).select('e.*')), q, '');
    },
  };
}
