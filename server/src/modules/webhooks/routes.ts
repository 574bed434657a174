import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import type { WebhookService } from './service.js';

export function webhookRoutes({ webhooks }: { webhooks: WebhookService }) {
  return operations({
    listWebhookEventTypes: () => Promise.resolve({ status: 200, body: webhooks.eventTypes() }),
    listWebhooks: async ({ auth }) => ({ status: 200, body: await webhooks.list(auth) }),
    createWebhook: async ({ auth, body }) => {
      const created = await webhooks.create(auth, body);
      return { status: 201, body: created, headers: { Location: `/api-system/webhooks/${created.id}` } };
    },
    getWebhook: async ({ auth, params }) => versioned(200, await webhooks.get(auth, params.id)),
    updateWebhook: async ({ auth, params, body, req }) =>
      versioned(200, await webhooks.update(auth, params.id, body, ifMatch(req.get('if-match')))),
    deleteWebhook: async ({ auth, params }) => {
      await webhooks.remove(auth, params.id);
      return { status: 204 };
    },
    rotateWebhookSecret: async ({ auth, params }) => ({
      status: 200,
      body: await webhooks.rotateSecret(auth, params.id),
    }),
    listWebhookDeliveries: async ({ auth, params, query }) => ({
      status: 200,
      body: await webhooks.deliveries(auth, params.id, query),
    }),
    redeliverWebhookDelivery: async ({ auth, params }) => ({
      status: 202,
      body: await webhooks.redeliver(auth, params.id, params.deliveryId),
    }),
  });
}
