import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { ANY_VERSION, type FreshnessCheck } from '../../core/etag.js';
import { paginateInfo, parsePageQuery } from '../../core/list-query.js';
import { can, type AuthContext } from '../../core/permissions.js';
import type { AuditTrail } from '../audit/service.js';
import { webhookEventTypes } from './event-types.js';
import { webhookRepository, type SubscriptionFields, type SubscriptionRow, type Webhook } from './repository.js';
import { newWebhookSecret } from './signature.js';
import { resolveTarget, TargetRefusedError, type Resolve } from './ssrf.js';

export interface WebhookDeps {
  knex: Knex;
  audit: AuditTrail;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: private, loopback and link-local targets, and http, for development and tests. */
  allowPrivateTargets: boolean;
  resolve?: Resolve;
}

const NOT_FOUND = 'Webhook not found';
/** What the audit trail records of a subscription (never its secret). */
const AUDITED = ['url', 'description', 'event_types', 'cluster_id', 'is_active'] as const;

const publicView = ({ secret: _secret, ...webhook }: SubscriptionRow): Webhook => webhook;
const audited = (fields: Partial<Webhook>) =>
  Object.fromEntries(AUDITED.filter((k) => k in fields).map((k) => [k, fields[k] ?? null]));

export function webhookService({ knex, audit, allowPrivateTargets, resolve }: WebhookDeps) {
  const repo = webhookRepository({ knex });

  /** The subscription, when the caller owns it (a super admin reads any); anyone else is told it is not there. */
  async function owned(auth: AuthContext, id: string, db: Knex | Knex.Transaction = knex): Promise<SubscriptionRow> {
    const row = await repo.find(id, db);
    if (!row || (row.owner_id !== auth.userId && !auth.permissions.is_super_admin)) throw new NotFoundError(NOT_FOUND);
    return row;
  }

  /** The checks of a create and of an update's changed fields: the target, the event types, the cluster scope. */
  async function checked(auth: AuthContext, fields: SubscriptionFields): Promise<void> {
    if (fields.url !== undefined) {
      try {
        await resolveTarget(fields.url, { allowPrivate: allowPrivateTargets, resolve });
      } catch (err) {
        if (!(err instanceof TargetRefusedError)) throw err;
        throw new BadRequestError(err.message, [{ path: '/body/url', message: err.message }]);
      }
    }
    if (fields.event_types !== undefined) {
      const known = new Set(['*', ...webhookEventTypes()]);
      const unknown = fields.event_types.findIndex((t) => !known.has(t));
      if (unknown >= 0) {
        const detail = `${fields.event_types[unknown]} is not an event type; GET /api-system/webhooks/event-types lists them`;
        throw new BadRequestError(detail, [{ path: `/body/event_types/${unknown}`, message: detail }]);
      }
    }
    // A subscriber reads what the audit trail would show it: a cluster it may not read is, to it, not there.
    if (
      fields.cluster_id &&
      (!can(auth.permissions, 'cluster.read', fields.cluster_id) || !(await repo.clusterExists(fields.cluster_id)))
    )
      throw new NotFoundError('Cluster not found');
  }

  return {
    eventTypes: (): Schemas['WebhookEventTypeList'] => ({ data: webhookEventTypes() }),

    async list(auth: AuthContext): Promise<Schemas['WebhookList']> {
      const rows = await repo.list(auth.permissions.is_super_admin ? null : auth.userId);
      return { data: rows.map(publicView) };
    },

    async get(auth: AuthContext, id: string): Promise<Webhook> {
      return publicView(await owned(auth, id));
    },

    async create(auth: AuthContext, body: Schemas['WebhookCreate']): Promise<Schemas['WebhookWithSecret']> {
      const fields: SubscriptionFields = {
        url: body.url,
        description: body.description ?? null,
        event_types: body.event_types,
        cluster_id: body.cluster_id ?? null,
      };
      await checked(auth, fields);
      return knex.transaction(async (trx) => {
        const row = await repo.insert(trx, auth.userId, { ...fields, secret: newWebhookSecret() });
        await audit.record(trx, auth, {
          action: 'createWebhook',
          target: { type: 'webhook', id: row.id },
          clusterId: row.cluster_id,
          after: audited(row),
        });
        return row;
      });
    },

    async update(
      auth: AuthContext,
      id: string,
      body: Schemas['WebhookUpdate'],
      fresh: FreshnessCheck = ANY_VERSION,
    ): Promise<Webhook> {
      await checked(auth, body);
      return knex.transaction(async (trx) => {
        const current = await owned(auth, id, trx);
        fresh(current);
        const fields: SubscriptionFields = { ...body };
        // Turned back on: the reason it was off no longer holds. Turned off by its owner: says so.
        if (body.is_active === true) Object.assign(fields, { disabled_reason: null, disabled_at: null });
        if (body.is_active === false && current.is_active)
          Object.assign(fields, { disabled_reason: 'Turned off by its owner', disabled_at: new Date() });
        const row = await repo.update(trx, id, fields);
        await audit.record(trx, auth, {
          action: 'updateWebhook',
          target: { type: 'webhook', id },
          clusterId: row.cluster_id,
          before: audited(current),
          after: audited(row),
        });
        return publicView(row);
      });
    },

    async remove(auth: AuthContext, id: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const current = await owned(auth, id, trx);
        await repo.remove(trx, id);
        await audit.record(trx, auth, {
          action: 'deleteWebhook',
          target: { type: 'webhook', id },
          clusterId: current.cluster_id,
          before: audited(current),
        });
      });
    },

    async rotateSecret(auth: AuthContext, id: string): Promise<Schemas['WebhookWithSecret']> {
      return knex.transaction(async (trx) => {
        const current = await owned(auth, id, trx);
        const row = await repo.update(trx, id, { secret: newWebhookSecret() });
        await audit.record(trx, auth, {
          action: 'rotateWebhookSecret',
          target: { type: 'webhook', id },
          clusterId: current.cluster_id,
          after: { secret_rotated: true },
        });
        return row;
      });
    },

    async deliveries(
      auth: AuthContext,
      id: string,
      query: QueryParams<'listWebhookDeliveries'>,
    ): Promise<Schemas['WebhookDeliveryPage']> {
      await owned(auth, id);
      const list = parsePageQuery(query);
      const { rows, total } = await repo.deliveries(id, list);
      return { data: rows, paginate: paginateInfo(total, list) };
    },

    async redeliver(auth: AuthContext, id: string, deliveryId: string): Promise<Schemas['WebhookDelivery']> {
      const subscription = await owned(auth, id);
      if (!subscription.is_active)
        throw new ConflictError('The webhook is disabled; turn it on (is_active: true) before sending again');
      const delivery = await repo.findDelivery(id, deliveryId);
      if (!delivery) throw new NotFoundError('Delivery not found');
      await knex.transaction(async (trx) => {
        await repo.requeue(trx, deliveryId);
        await audit.record(trx, auth, {
          action: 'redeliverWebhookDelivery',
          target: { type: 'webhook', id },
          clusterId: subscription.cluster_id,
          after: { delivery_id: deliveryId, event_id: delivery.event_id },
        });
      });
      return (await repo.findDelivery(id, deliveryId))!;
    },
  };
}

export type WebhookService = ReturnType<typeof webhookService>;
