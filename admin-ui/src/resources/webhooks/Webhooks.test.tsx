import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import type { Webhook, WebhookCreate, WebhookDelivery } from '../../types';
import { SUPER, renderRoutes } from '../users/testing';
import { Webhooks } from './WebhooksPage';

const hook = (id: string, extra: Partial<Webhook> = {}): Webhook => ({
  id,
  url: 'https://partner.example.com/hooks/platform',
  description: null,
  event_types: ['updateCluster'],
  cluster_id: null,
  is_active: true,
  disabled_reason: null,
  disabled_at: null,
  owner_id: 'u1',
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
  ...extra,
});

const delivery = (id: string, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  webhook_id: 'w1',
  event_id: 'e1',
  event_type: 'updateCluster',
  status: 'failed',
  attempt_count: 3,
  next_attempt_at: null,
  delivered_at: null,
  created_at: '2026-11-24T10:00:00.000Z',
  attempts: [
    { at: '2026-11-24T10:00:05.000Z', status_code: 503, duration_ms: 84, response_excerpt: 'busy', error: null },
  ],
  ...extra,
});

function setup(initial: Webhook[], { failFirst = false } = {}) {
  let held = initial;
  let fail = failFirst;
  const dp = {
    listWebhooks: vi.fn(async () => {
      if (fail) {
        fail = false;
        throw new HttpError('Database unavailable', 400, { status: 400, detail: 'Database unavailable' });
      }
      return held;
    }),
    listWebhookEventTypes: vi.fn(async () => ['createCluster', 'updateCluster']),
    // The clusters the caller may read, for the scope picker.
    getList: vi.fn(async () => ({ data: [{ id: 'c1', code: 'CL-A', name: 'Andaman Hotels Group' }], total: 1 })),
    createWebhook: vi.fn(async (input: WebhookCreate) => {
      if (input.url.startsWith('https://10.'))
        throw new HttpError('private address', 400, { status: 400, detail: 'The host resolves to a private address' });
      const created = hook('w2', { url: input.url, event_types: input.event_types });
      held = [created, ...held];
      return { ...created, secret: 'whsec_shownOnceShownOnceShownOnce' };
    }),
    setWebhookActive: vi.fn(async (id: string, isActive: boolean) => {
      held = held.map((w) => (w.id === id ? { ...w, is_active: isActive, disabled_reason: null } : w));
      return held.find((w) => w.id === id)!;
    }),
    deleteWebhook: vi.fn(async () => undefined),
    rotateWebhookSecret: vi.fn(),
    listWebhookDeliveries: vi.fn(async () => ({
      data: [delivery('d1')],
      paginate: { total: 1, page: 1, perpage: 20, pages: 1 },
    })),
    redeliverWebhookDelivery: vi.fn(async () => delivery('d1', { status: 'pending' })),
  };
  renderRoutes('/webhooks', SUPER, dp, [{ path: '/webhooks', element: <Webhooks /> }]);
  return dp;
}

describe('the webhooks screen', { timeout: 30_000 }, () => {
  it('when there are none, then it says so; a failed load offers Retry', async () => {
    const dp = setup([], { failFirst: true });
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Database unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('webhooks-empty')).toBeInTheDocument();
    expect(dp.listWebhooks).toHaveBeenCalledTimes(2);
  });

  it('when a webhook is added, then its secret is shown once, and a refusal stays in the dialog in the server’s words', async () => {
    const dp = setup([]);
    fireEvent.click(await screen.findByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('webhook-url'), { target: { value: 'https://10.0.0.1/h' } });
    fireEvent.mouseDown(within(within(dialog).getByTestId('webhook-events')).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: 'updateCluster' }));
    fireEvent.click(within(dialog).getByTestId('webhook-save'));
    expect(await within(dialog).findByTestId('webhook-create-error')).toHaveTextContent('private address');

    fireEvent.change(within(dialog).getByTestId('webhook-url'), { target: { value: 'https://erp.example.com/h' } });
    fireEvent.click(within(dialog).getByTestId('webhook-save'));
    expect(await screen.findByTestId('webhook-secret')).toHaveValue('whsec_shownOnceShownOnceShownOnce');
    expect(dp.createWebhook).toHaveBeenLastCalledWith({
      url: 'https://erp.example.com/h',
      description: null,
      event_types: ['updateCluster'],
    });
    fireEvent.click(screen.getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument());
    expect(await screen.findByText('https://erp.example.com/h')).toBeInTheDocument();
  });

  it('when a webhook was disabled, then the reason shows; its log lists each attempt and sends a delivery again', async () => {
    const dp = setup([hook('w1', { is_active: false, disabled_reason: 'Deliveries failed for 24 hours (last: 503)' })]);
    expect(await screen.findByTestId('webhook-disabled-reason')).toHaveTextContent('Deliveries failed for 24 hours');
    fireEvent.click(screen.getByTestId('webhook-log'));
    const row = await screen.findByTestId('delivery-row');
    expect(within(row).getByTestId('delivery-status')).toHaveTextContent('Failed');
    expect(row).toHaveTextContent('503 · 84 ms · busy');
    fireEvent.click(within(row).getByTestId('delivery-send-again'));
    await waitFor(() => expect(dp.redeliverWebhookDelivery).toHaveBeenCalledWith('w1', 'd1'));
    fireEvent.click(screen.getByTestId('webhook-toggle'));
    await waitFor(() => expect(dp.setWebhookActive).toHaveBeenCalledWith('w1', true));
  });

  it('when a cluster is picked, then the webhook is created for that cluster only', async () => {
    const dp = setup([]);
    fireEvent.click(await screen.findByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('webhook-url'), { target: { value: 'https://erp.example.com/h' } });
    fireEvent.mouseDown(within(within(dialog).getByTestId('webhook-events')).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: 'updateCluster' }));
    const cluster = within(dialog).getByTestId('webhook-cluster');
    fireEvent.mouseDown(cluster);
    fireEvent.change(cluster, { target: { value: 'CL' } });
    fireEvent.click(await screen.findByRole('option', { name: 'CL-A — Andaman Hotels Group' }));
    fireEvent.click(within(dialog).getByTestId('webhook-save'));
    await waitFor(() =>
      expect(dp.createWebhook).toHaveBeenLastCalledWith({
        url: 'https://erp.example.com/h',
        description: null,
        event_types: ['updateCluster'],
        cluster_id: 'c1',
      }),
    );
  });
});
