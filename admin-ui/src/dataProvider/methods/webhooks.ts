import type { Identifier } from 'react-admin';
import type {
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookUpdate,
  WebhookWithSecret,
} from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';

const byId = (id: Identifier) => ({ params: { path: { id: String(id) } } });

/** Webhooks: the caller's subscriptions, their delivery logs, and sending a delivery again. */
export function webhookMethods(c: ApiClient) {
  return {
    async listWebhooks(): Promise<Webhook[]> {
      return unwrap(await c.GET('/api-system/webhooks')).data;
    },
    async listWebhookEventTypes(): Promise<string[]> {
      return unwrap(await c.GET('/api-system/webhooks/event-types')).data;
    },
    /** The answer carries the signing secret, this once. 400 for a URL the server will not send to. */
    async createWebhook(input: WebhookCreate): Promise<WebhookWithSecret> {
      return unwrap(await c.POST('/api-system/webhooks', { body: pickWritable(input, WRITABLE.WebhookCreate) }));
    },
    async setWebhookActive(id: Identifier, isActive: boolean): Promise<Webhook> {
      const patch: WebhookUpdate = { is_active: isActive };
      return unwrap(
        await c.PATCH('/api-system/webhooks/{id}', {
          ...byId(id),
          body: pickWritable(patch, WRITABLE.WebhookUpdate),
        }),
      );
    },
    async deleteWebhook(id: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/webhooks/{id}', byId(id)));
    },
    async rotateWebhookSecret(id: Identifier): Promise<WebhookWithSecret> {
      return unwrap(await c.POST('/api-system/webhooks/{id}/rotate-secret', byId(id)));
    },
    async listWebhookDeliveries(id: Identifier, page: number, perpage: number): Promise<WebhookDeliveryPage> {
      return unwrap(
        await c.GET('/api-system/webhooks/{id}/deliveries', {
          params: { path: { id: String(id) }, query: { page, perpage } },
        }),
      );
    },
    /** 409 while the webhook is disabled. */
    async redeliverWebhookDelivery(id: Identifier, deliveryId: Identifier): Promise<WebhookDelivery> {
      return unwrap(
        await c.POST('/api-system/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: String(id), deliveryId: String(deliveryId) } },
        }),
      );
    },
  };
}
