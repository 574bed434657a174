// Webhooks: a subscription delivers the audit events it chose to a real receiver on loopback, signed, at least once,
// retried with backoff, disabled after failing for its whole retry window, and only what its owner may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../server/src/modules/webhooks/dispatcher.js';
import { verifySignature } from '../../server/src/modules/webhooks/signature.js';
import { up as migrateSignInEvent } from '../../server/src/db/migrations/0018_webhook_sign_in_event.js';
import { aCluster, aUserWith, bodyOf } from '../support/factory.js';
import type { AuditEventRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { startReceiver } from './support/webhook-receiver.js';

type Webhook = components['schemas']['WebhookWithSecret'];
type DeliveryPage = components['schemas']['WebhookDeliveryPage'];

// Short steps, so retries come quickly; a window of a few seconds, so that on a busy machine three attempts still fit
// in it (a window of 1.5 s closed before the third attempt when the browser flows ran beside these tests).
const RETRY = { baseMs: 100, maxMs: 400, windowMs: 4_000 };

describe.each(engines())('webhooks on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let dispatcher: WebhookDispatcher;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await startTestServer(engine, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    admin = await t.login('admin');
    receiver = await startReceiver({
      '/flaky': (n) => (n < 2 ? 500 : 200),
      '/slow': (n) => (n < 1 ? 'hang' : 204),
      '/down': () => 503,
    });
    dispatcher = startWebhookDispatcher({
      knex: t.knex,
      logger: console,
      changes: t.changes,
      allowPrivateTargets: true,
      pollMs: 200,
      timeoutMs: 300,
      retry: RETRY,
      random: () => 1,
    });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await t?.close();
  });

  const subscribe = async (path: string, events: string[], extra: object = {}, token = admin) =>
    bodyOf<Webhook>(
      await t.fetch('/api-system/webhooks', {
        method: 'POST',
        token,
        json: { url: receiver.url(path), event_types: events, ...extra },
      }),
      201,
    );
  const deliveriesOf = async (id: string, token = admin) =>
    bodyOf<DeliveryPage>(await t.fetch(`/api-system/webhooks/${id}/deliveries?perpage=50`, { token }), 200);
  const eventually = async <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 8_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (done(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('when a subscribed event commits, then the receiver gets it signed with the secret shown once, with its event id', async () => {
    const hook = await subscribe('/ok', ['createCluster']);
    expect(hook.secret).toMatch(/^whsec_/);
    const read = await bodyOf<Record<string, unknown>>(
      await t.fetch(`/api-system/webhooks/${hook.id}`, { token: admin }),
    );
    expect(read).not.toHaveProperty('secret');

    const cluster = await aCluster(t);
    const [got] = await receiver.waitFor('/ok', 1);
    const body = JSON.parse(got!.body) as { id: string; type: string; data: { target_id: string } };
    expect(body.type).toBe('createCluster');
    expect(body.data.target_id).toBe(cluster.id);
    expect(got!.headers['platform-event-id']).toBe(body.id);
    const event = await t.knex<AuditEventRecord>('audit_events').where({ id: body.id }).first();
    expect(event).toMatchObject({ action: 'createCluster', target_id: cluster.id });
    const signature = String(got!.headers['platform-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(hook.secret, signature, got!.body)).toBe(true);
    expect(verifySignature(hook.secret, signature, got!.body.replace('createCluster', 'deleteCluster'))).toBe(false);
    expect(verifySignature(`${hook.secret}x`, signature, got!.body)).toBe(false);

    const log = await eventually(
      () => deliveriesOf(hook.id),
      (p) => p.data[0]?.status === 'delivered',
    );
    expect(log.data[0]).toMatchObject({ event_id: body.id, event_type: 'createCluster', attempt_count: 1 });
    expect(log.data[0]!.attempts[0]).toMatchObject({ status_code: 200, response_excerpt: 'ok', error: null });
  });

  it('when the receiver answers 500 twice, then it is retried with growing waits and delivered on the third attempt', async () => {
    const hook = await subscribe('/flaky', ['updateCluster']);
    const cluster = await aCluster(t);
    await t.fetch(`/api-system/clusters/${cluster.id}`, {
      method: 'PUT',
      token: admin,
      json: { code: cluster.code, name: 'Renamed' },
    });
    const got = await receiver.waitFor('/flaky', 3);
    const ids = got.map((r) => r.headers['platform-event-id']);
    expect(new Set(ids).size, 'one event, the same id every attempt').toBe(1);
    expect(got.map((r) => r.headers['platform-delivery-attempt'])).toEqual(['1', '2', '3']);
    // random() = 1: the waits are the full steps, base then double.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(RETRY.baseMs - 20);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(2 * RETRY.baseMs - 20);
    const log = await eventually(
      () => deliveriesOf(hook.id),
      (p) => p.data[0]?.status === 'delivered',
    );
    expect(log.data[0]!.attempts.map((a) => a.status_code)).toEqual([200, 500, 500]);
    expect(log.data[0]!.attempts[1]!.response_excerpt).toBe('nope 500');
    expect(log.data[0]!.attempts[1]!.error).toMatch(/answered 500/);
  });

  it('when the receiver does not answer in time, then the attempt is logged as a timeout and retried', async () => {
    const hook = await subscribe('/slow', ['createCluster']);
    await aCluster(t);
    await receiver.waitFor('/slow', 2);
    const log = await eventually(
      () => deliveriesOf(hook.id),
      (p) => p.data[0]?.status === 'delivered',
    );
    const [second, first] = log.data[0]!.attempts;
    expect(first).toMatchObject({ status_code: null, error: 'No answer within 300 ms' });
    expect(first!.duration_ms).toBeGreaterThanOrEqual(250);
    expect(second!.status_code).toBe(204);
  });

  it('when a receiver keeps failing for the whole window, then the delivery fails, the webhook is disabled with the reason, and a redelivery after re-enabling goes out with the same event id', async () => {
    const hook = await subscribe('/down', ['createCluster']);
    await aCluster(t);
    const disabled = await eventually(
      async () => bodyOf<Webhook>(await t.fetch(`/api-system/webhooks/${hook.id}`, { token: admin })),
      (w) => !w.is_active,
      20_000,
    );
    expect(disabled.is_active).toBe(false);
    expect(disabled.disabled_reason).toMatch(/^Deliveries failed for .* \(last: The receiver answered 503/);
    const [delivery] = (await deliveriesOf(hook.id)).data;
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempt_count).toBeGreaterThanOrEqual(3);

    const refused = await t.fetch(`/api-system/webhooks/${hook.id}/deliveries/${delivery!.id}/redeliver`, {
      method: 'POST',
      token: admin,
    });
    expect(refused.status).toBe(409);
    const before = receiver.received.filter((r) => r.path === '/down').length;
    await bodyOf(
      await t.fetch(`/api-system/webhooks/${hook.id}`, { method: 'PATCH', token: admin, json: { is_active: true } }),
      200,
    );
    const queued = await t.fetch(`/api-system/webhooks/${hook.id}/deliveries/${delivery!.id}/redeliver`, {
      method: 'POST',
      token: admin,
    });
    expect(queued.status).toBe(202);
    const again = await receiver.waitFor('/down', before + 1);
    expect(again.at(-1)!.headers['platform-event-id']).toBe(delivery!.event_id);
    await t.fetch(`/api-system/webhooks/${hook.id}`, { method: 'DELETE', token: admin });
  });

  it('when the owner may read one cluster only, then events of another are not sent, and a key taken away stops them', async () => {
    const mine = await aCluster(t);
    const other = await aCluster(t);
    const owner = await aUserWith(t, [['cluster.read', mine.id]]);
    const hidden = await t.fetch('/api-system/webhooks', {
      method: 'POST',
      token: owner.token,
      json: { url: receiver.url('/scoped'), event_types: ['updateCluster'], cluster_id: other.id },
    });
    expect(hidden.status, 'a cluster the owner may not read is not there').toBe(404);
    const hook = await subscribe('/scoped', ['updateCluster'], {}, owner.token);
    for (const c of [other, mine])
      await t.fetch(`/api-system/clusters/${c.id}`, {
        method: 'PUT',
        token: admin,
        json: { code: c.code, name: `${c.code} x` },
      });
    const [got] = await receiver.waitFor('/scoped', 1);
    expect((JSON.parse(got!.body) as { data: { target_id: string } }).data.target_id).toBe(mine.id);
    const log = await eventually(
      () => deliveriesOf(hook.id, owner.token),
      (p) => p.data.length === 2 && p.data.every((d) => d.status !== 'pending'),
    );
    expect(log.data.map((d) => d.status).sort()).toEqual(['delivered', 'skipped']);

    await t.knex('permission_grants').where({ user_id: owner.id }).delete();
    await t.fetch(`/api-system/clusters/${mine.id}`, {
      method: 'PUT',
      token: admin,
      json: { code: mine.code, name: 'again' },
    });
    const after = await eventually(
      () => deliveriesOf(hook.id, admin),
      (p) => p.data.length === 3 && p.data[0]!.status !== 'pending',
    );
    expect(after.data[0]!.status, 'checked against the grants at delivery time').toBe('skipped');
    expect(after.data[0]!.attempts[0]!.error).toMatch(/may no longer read this event/);
    expect(receiver.received.filter((r) => r.path === '/scoped')).toHaveLength(1);
    const theirs = await t.fetch(`/api-system/webhooks/${hook.id}`, {
      token: (await aUserWith(t, ['cluster.read'])).token,
    });
    expect(theirs.status, "another account's webhook is not there").toBe(404);
  });

  it('when a webhook names an unknown event type or a URL that is not http(s), then it is refused with what to fix', async () => {
    const unknown = await t.fetch('/api-system/webhooks', {
      method: 'POST',
      token: admin,
      json: { url: receiver.url('/x'), event_types: ['createCluster', 'explodeCluster'] },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/explodeCluster is not an event type/);
    const ftp = await t.fetch('/api-system/webhooks', {
      method: 'POST',
      token: admin,
      json: { url: 'ftp://127.0.0.1/x', event_types: ['createCluster'] },
    });
    expect(ftp.status).toBe(400);
    const types = await bodyOf<{ data: string[] }>(await t.fetch('/api-system/webhooks/event-types', { token: admin }));
    expect(types.data).toEqual(
      expect.arrayContaining(['createCluster', 'createWebhook', 'login.failed', 'unattributedChange']),
    );
  });

  it('when the event types are listed, then they are what the trail records: writes, a sign-in as login, the first single sign-on, and no read', async () => {
    const types = await bodyOf<{ data: string[] }>(await t.fetch('/api-system/webhooks/event-types', { token: admin }));
    expect(types.data).toEqual(expect.arrayContaining(['login', 'logout', 'completeSsoSignIn', 'stepUp.failed']));
    for (const never of ['getHealth', 'listClusters', 'getCluster', 'login.succeeded'])
      expect(types.data, never).not.toContain(never);

    const hook = await subscribe('/sign-ins', ['login']);
    await t.login('viewer');
    const [got] = await receiver.waitFor('/sign-ins', 1);
    expect((JSON.parse(got!.body) as { type: string }).type).toBe('login');
    await t.fetch(`/api-system/webhooks/${hook.id}`, { method: 'DELETE', token: admin });
  });

  it('when a subscription chose login.succeeded before it named no event, then the migration gives it login', async () => {
    const hook = await subscribe('/old-sign-ins', ['createCluster']);
    await t
      .knex('webhook_subscriptions')
      .where({ id: hook.id })
      .update({ event_types: JSON.stringify(['login.succeeded', 'login', 'createCluster']) });
    await migrateSignInEvent(t.knex);
    const read = await bodyOf<Webhook>(await t.fetch(`/api-system/webhooks/${hook.id}`, { token: admin }));
    expect([...read.event_types].sort()).toEqual(['createCluster', 'login']);
    await t.fetch(`/api-system/webhooks/${hook.id}`, { method: 'DELETE', token: admin });
  });

  it('when the secret is rotated, then the next delivery is signed with the new one only', async () => {
    const hook = await subscribe('/rotated', ['createCluster']);
    const rotated = await bodyOf<Webhook>(
      await t.fetch(`/api-system/webhooks/${hook.id}/rotate-secret`, { method: 'POST', token: admin }),
      200,
    );
    expect(rotated.secret).not.toBe(hook.secret);
    await aCluster(t);
    const [got] = await receiver.waitFor('/rotated', 1);
    const signature = String(got!.headers['platform-signature']);
    expect(verifySignature(rotated.secret, signature, got!.body)).toBe(true);
    expect(verifySignature(hook.secret, signature, got!.body)).toBe(false);
  });
});
