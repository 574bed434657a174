import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import type { ListQuery } from '../../core/list-query.js';
import type { PermissionKey, Permissions } from '../../core/permissions.js';
import { countFrom } from '../../db/count.js';

export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** A subscription as stored, secret included (the service decides when it is shown). */
export interface SubscriptionRow extends Webhook {
  secret: string;
}

export interface SubscriptionFields {
  url?: string;
  description?: string | null;
  event_types?: string[];
  cluster_id?: string | null;
  is_active?: boolean;
  disabled_reason?: string | null;
  disabled_at?: Date | null;
  secret?: string;
}

const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export function toSubscription(r: Record<string, unknown>): SubscriptionRow {
  return {
    id: r.id as string,
    url: r.url as string,
    description: (r.description as string | null) ?? null,
    event_types: json<string[]>(r.event_types),
    cluster_id: (r.cluster_id as string | null) ?? null,
    is_active: !!r.is_active,
    disabled_reason: (r.disabled_reason as string | null) ?? null,
    disabled_at: isoOrNull(r.disabled_at),
    owner_id: r.owner_id as string,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    secret: r.secret as string,
  };
}

/** The stored form of the fields: the event types as JSON text (knex would send a JS array as a PostgreSQL array). */
function stored(fields: SubscriptionFields): Record<string, unknown> {
  const { event_types, ...rest } = fields;
  return event_types === undefined ? rest : { ...rest, event_types: JSON.stringify(event_types) };
}

const ATTEMPTS_SHOWN = 20;

export function webhookRepository({ knex }: { knex: Knex }) {
  return {
    async list(ownerId: string | null): Promise<SubscriptionRow[]> {
      const q = knex('webhook_subscriptions').select('*').orderBy('created_at', 'desc').limit(1000);
      if (ownerId) q.where({ owner_id: ownerId });
      return ((await q) as Array<Record<string, unknown>>).map(toSubscription);
    },

    async find(id: string, db: Knex | Knex.Transaction = knex): Promise<SubscriptionRow | undefined> {
      const row = (await db('webhook_subscriptions').where({ id }).first()) as Record<string, unknown> | undefined;
      return row && toSubscription(row);
    },

    async insert(trx: Knex.Transaction, ownerId: string, fields: SubscriptionFields): Promise<SubscriptionRow> {
      const [row] = (await trx('webhook_subscriptions')
        .insert({ ...stored(fields), owner_id: ownerId })
        .returning('*')) as Array<Record<string, unknown>>;
      return toSubscription(row!);
    },

    async update(trx: Knex | Knex.Transaction, id: string, fields: SubscriptionFields): Promise<SubscriptionRow> {
      const [row] = (await trx('webhook_subscriptions')
        .where({ id })
        .update({ ...stored(fields), updated_at: trx.fn.now() })
        .returning('*')) as Array<Record<string, unknown>>;
      return toSubscription(row!);
    },

    async remove(trx: Knex.Transaction, id: string): Promise<void> {
      await trx('webhook_subscriptions').where({ id }).delete();
    },

    async clusterExists(id: string): Promise<boolean> {
      return !!(await knex('clusters').where({ id }).whereNull('deleted_at').first('id'));
    },

    /** A page of a subscription's deliveries, newest first, each with its latest attempts. */
    async deliveries(subscriptionId: string, q: ListQuery): Promise<{ rows: WebhookDelivery[]; total: number }> {
      const base = knex('webhook_deliveries').where({ subscription_id: subscriptionId });
      const page = base
        .clone()
        .select('*')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      if (q.perpage !== undefined) page.limit(q.perpage).offset((q.page - 1) * q.perpage);
      const [rows, total] = await Promise.all([
        page as Promise<Array<Record<string, unknown>>>,
        base
          .clone()
          .count({ count: '*' })
          .then((r) => countFrom(r as Array<Record<string, unknown>>)),
      ]);
      return { rows: await this.withDetails(rows), total };
    },

    async findDelivery(subscriptionId: string, id: string): Promise<WebhookDelivery | undefined> {
      const row = (await knex('webhook_deliveries').where({ subscription_id: subscriptionId, id }).first()) as
        Record<string, unknown> | undefined;
      return row && (await this.withDetails([row]))[0];
    },

    /** A new series of attempts, due now (its 24 hours start again). */
    async requeue(trx: Knex.Transaction, id: string): Promise<void> {
      await trx('webhook_deliveries')
        .where({ id })
        .update({ status: 'pending', next_attempt_at: trx.fn.now(), series_started_at: trx.fn.now() });
      // The dispatchers wake at commit, as they do for a new event (migration 0014).
      await trx.raw("select pg_notify('platform_changes', 'webhook_deliveries')");
    },

    async withDetails(rows: Array<Record<string, unknown>>): Promise<WebhookDelivery[]> {
      if (rows.length === 0) return [];
      const ids = rows.map((r) => r.id as string);
      const [attempts, events] = await Promise.all([
        knex('webhook_attempts').whereIn('delivery_id', ids).orderBy('at', 'desc') as Promise<
          Array<Record<string, unknown>>
        >,
        knex('audit_events')
          .whereIn(
            'id',
            rows.map((r) => r.event_id as string),
          )
          .select('id', 'action') as Promise<Array<{ id: string; action: string }>>,
      ]);
      const actions = new Map(events.map((e) => [e.id, e.action]));
      return rows.map((r) => ({
        id: r.id as string,
        webhook_id: r.subscription_id as string,
        event_id: r.event_id as string,
        event_type: actions.get(r.event_id as string) ?? 'unattributedChange',
        status: r.status as WebhookDelivery['status'],
        attempt_count: Number(r.attempt_count),
        next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
        delivered_at: isoOrNull(r.delivered_at),
        created_at: iso(r.created_at),
        attempts: attempts
          .filter((a) => a.delivery_id === r.id)
          .slice(0, ATTEMPTS_SHOWN)
          .map((a) => ({
            at: iso(a.at),
            status_code: (a.status_code as number | null) ?? null,
            duration_ms: Number(a.duration_ms),
            response_excerpt: (a.response_excerpt as string | null) ?? null,
            error: (a.error as string | null) ?? null,
          })),
      }));
    },

    /** An account's grants now, for what its subscriptions may deliver; null when it is gone or deactivated. */
    async ownerPermissions(userId: string): Promise<Permissions | null> {
      const rows = (await knex('users')
        .leftJoin('permission_grants', 'permission_grants.user_id', 'users.id')
        .select(
          'users.is_active',
          'users.is_super_admin',
          'permission_grants.permission_key',
          'permission_grants.cluster_id',
        )
        .where('users.id', userId)) as Array<{
        is_active: boolean;
        is_super_admin: boolean;
        permission_key: PermissionKey | null;
        cluster_id: string | null;
      }>;
      const first = rows[0];
      if (!first?.is_active) return null;
      const platform: PermissionKey[] = [];
      const clusters: Record<string, PermissionKey[]> = {};
      for (const g of rows) {
        if (g.permission_key === null) continue;
        if (g.cluster_id === null) platform.push(g.permission_key);
        else (clusters[g.cluster_id] ??= []).push(g.permission_key);
      }
      return {
        platform,
        clusters,
        is_super_admin: !!first.is_super_admin,
        must_change_password: false,
        must_enrol_second_factor: false,
      };
    },
  };
}

export type WebhookRepository = ReturnType<typeof webhookRepository>;

/** A delivery a dispatcher has taken: it is its own until `leaseMs` pass (then any dispatcher may take it again). */
export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event_id: string;
  attempt_count: number;
  series_started_at: Date;
}

/** What an attempt ends in: delivered, another try at `retryInMs`, or the end of the series (`failed`, `skipped`). */
export type Outcome =
  | { status: 'delivered' }
  | { status: 'retry'; retryInMs: number }
  | { status: 'failed'; disableReason: string }
  | { status: 'skipped'; disableReason: string | null };

export interface AttemptRecord {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/** The outbox side: what the dispatchers of every replica share. */
export function outboxRepository({ knex }: { knex: Knex }) {
  return {
    /**
     * Takes up to `limit` due deliveries of active subscriptions, skipping those another dispatcher holds
     * (`for update skip locked`), and moves each one's next attempt past its lease, in one statement.
     */
    async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const { rows } = await knex.raw<{ rows: Array<Record<string, unknown>> }>(
        `update webhook_deliveries
            set next_attempt_at = now() + ?::int * interval '1 millisecond', attempt_count = attempt_count + 1
          where id in (
            select d.id from webhook_deliveries d
              join webhook_subscriptions s on s.id = d.subscription_id
             where d.status = 'pending' and d.next_attempt_at <= now() and s.is_active
             order by d.next_attempt_at
             limit ?
             for update of d skip locked)
          returning id, subscription_id, event_id, attempt_count, series_started_at`,
        [leaseMs, limit],
      );
      return rows.map((r) => ({
        id: r.id as string,
        subscription_id: r.subscription_id as string,
        event_id: r.event_id as string,
        attempt_count: Number(r.attempt_count),
        series_started_at: new Date(r.series_started_at as string | Date),
      }));
    },

    async event(id: string): Promise<Schemas['AuditEvent'] | undefined> {
      const r = (await knex('audit_events').where({ id }).first()) as Record<string, unknown> | undefined;
      if (!r) return undefined;
      return {
        id: r.id as string,
        at: iso(r.at),
        actor_id: (r.actor_id as string | null) ?? null,
        actor_name: (r.actor_name as string | null) ?? null,
        action: r.action as string,
        target_type: r.target_type as Schemas['AuditEvent']['target_type'],
        target_id: (r.target_id as string | null) ?? null,
        cluster_id: (r.cluster_id as string | null) ?? null,
        request_id: (r.request_id as string | null) ?? null,
        ip: (r.ip as string | null) ?? null,
        user_agent: (r.user_agent as string | null) ?? null,
        import_id: (r.import_id as string | null) ?? null,
        changes: json<Schemas['AuditEvent']['changes']>(r.changes),
        ...(r.labels ? { labels: json<NonNullable<Schemas['AuditEvent']['labels']>>(r.labels) } : {}),
      };
    },

    /** The attempt's log row and the delivery's next state, together; a series that ended may disable its subscription. */
    async settle(delivery: ClaimedDelivery, attempt: AttemptRecord | null, outcome: Outcome): Promise<void> {
      await knex.transaction(async (trx) => {
        if (attempt)
          await trx('webhook_attempts').insert({
            delivery_id: delivery.id,
            status_code: attempt.statusCode,
            duration_ms: attempt.durationMs,
            response_excerpt: attempt.responseExcerpt,
            error: attempt.error,
          });
        const row = trx('webhook_deliveries').where({ id: delivery.id });
        if (outcome.status === 'delivered') await row.update({ status: 'delivered', delivered_at: trx.fn.now() });
        else if (outcome.status === 'retry')
          await row.update({
            next_attempt_at: trx.raw("now() + ?::int * interval '1 millisecond'", [Math.round(outcome.retryInMs)]),
          });
        else await row.update({ status: outcome.status });
        const reason = outcome.status === 'failed' || outcome.status === 'skipped' ? outcome.disableReason : null;
        if (reason)
          await trx('webhook_subscriptions')
            .where({ id: delivery.subscription_id, is_active: true })
            .update({ is_active: false, disabled_reason: reason, disabled_at: trx.fn.now(), updated_at: trx.fn.now() });
      });
    },
  };
}
