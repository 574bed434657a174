import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { can, type Permissions } from '../../core/permissions.js';
import type { ChangeFeed } from '../../db/changes.js';
import { asSeenBy, hiddenClusters, type HiddenClusters } from '../audit/visibility.js';
import {
  outboxRepository,
  webhookRepository,
  type AttemptRecord,
  type ClaimedDelivery,
  type Outcome,
  type SubscriptionRow,
} from './repository.js';
import { postTo } from './send.js';
import { signatureHeader, SIGNATURE_HEADER } from './signature.js';
import { resolveTarget, TargetRefusedError, type Resolve } from './ssrf.js';

/** How failed attempts are spaced: doubling from `baseMs` up to `maxMs`, for `windowMs` from the first attempt. */
export interface RetrySchedule {
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

export const DEFAULT_RETRY: RetrySchedule = { baseMs: 30_000, maxMs: 60 * 60_000, windowMs: 24 * 60 * 60_000 };

/**
 * The wait before the attempt after `attempt` failed ones: exponential, with "equal jitter" (between half and all of
 * the step), so receivers that come back are not met by every replica's retries at the same instant.
 */
export function retryDelayMs(attempt: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const step = Math.min(schedule.maxMs, schedule.baseMs * 2 ** Math.max(0, attempt - 1));
  return step / 2 + random() * (step / 2);
}

export interface DispatcherDeps {
  knex: Knex;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Wakes the dispatcher when an event is queued (its LISTEN on PostgreSQL, the instance's on PGlite). */
  changes?: ChangeFeed;
  allowPrivateTargets: boolean;
  /** How often the outbox is read when nothing wakes the dispatcher. */
  pollMs?: number;
  /** How long a receiver has to answer. */
  timeoutMs?: number;
  /** Deliveries taken at once, and sent in parallel. */
  batch?: number;
  retry?: RetrySchedule;
  resolve?: Resolve;
  random?: () => number;
}

export interface WebhookDispatcher {
  /** Reads the outbox now rather than at the next poll. */
  wake(): void;
  /** Stops taking deliveries and waits for those in flight. */
  stop(): Promise<void>;
}

/**
 * Sends the outbox's deliveries, at least once each. Every server process runs one; they share the outbox, and a
 * delivery taken by one (a lease: its next attempt moves past the attempt's time) is skipped by the others. A
 * process that dies mid-attempt leaves its deliveries due again when their lease ends.
 */
export function startWebhookDispatcher(deps: DispatcherDeps): WebhookDispatcher {
  const { knex, logger, allowPrivateTargets, resolve, random } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const batch = deps.batch ?? 32;
  const retry = deps.retry ?? DEFAULT_RETRY;
  // Past the longest attempt (its timeout, plus the lookup and the log's writes): then it is another's to take.
  const leaseMs = timeoutMs + 5_000;
  const outbox = outboxRepository({ knex });
  const subscriptions = webhookRepository({ knex });

  let stopped = false;
  let woken = false;
  let sleeper: (() => void) | null = null;
  const wake = () => {
    woken = true;
    sleeper?.();
  };
  const unsubscribe = deps.changes?.subscribe({
    onChange: (change) => {
      if (change.table === 'webhook_deliveries') wake();
    },
    // Notifications may have been missed: read the outbox now.
    onReset: wake,
  });

  /** A subscription with its owner's grants and hidden clusters, read once per batch however many deliveries it has. */
  type Reader = { subscription: SubscriptionRow; perms: Permissions | null; hidden: HiddenClusters | null };
  const readerOf = (cache: Map<string, Promise<Reader | null>>, id: string) => {
    let reader = cache.get(id);
    if (!reader) {
      reader = (async () => {
        const subscription = await subscriptions.find(id);
        if (!subscription) return null;
        const perms = await subscriptions.ownerPermissions(subscription.owner_id);
        return { subscription, perms, hidden: perms ? await hiddenClusters(knex, perms) : null };
      })();
      cache.set(id, reader);
    }
    return reader;
  };

  async function attempt(
    d: ClaimedDelivery,
    readers: Map<string, Promise<Reader | null>>,
  ): Promise<{ attempt: AttemptRecord | null; outcome: Outcome }> {
    const reader = await readerOf(readers, d.subscription_id);
    if (!reader) return { attempt: null, outcome: { status: 'skipped', disableReason: null } };
    const { subscription, perms, hidden } = reader;
    const event = await outbox.event(d.event_id);
    const refusal = whyNotDelivered(perms, event?.cluster_id ?? null, !!event);
    if (refusal)
      return {
        attempt: { statusCode: null, durationMs: 0, responseExcerpt: null, error: refusal.error },
        outcome: { status: 'skipped', disableReason: refusal.disable },
      };
    const seen = asSeenBy(event!, hidden);
    const body = JSON.stringify({ id: seen.id, type: seen.action, created_at: seen.at, data: seen });
    const timestamp = Math.floor(Date.now() / 1000);
    let result: AttemptRecord & { ok: boolean };
    try {
      const target = await resolveTarget(subscription.url, { allowPrivate: allowPrivateTargets, resolve });
      result = await postTo(
        target,
        body,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'PlatformAdmin-Webhooks/1',
          [SIGNATURE_HEADER]: signatureHeader(subscription.secret, timestamp, body),
          'Platform-Event-Id': seen.id,
          'Platform-Event-Type': seen.action,
          'Platform-Delivery-Id': d.id,
          'Platform-Delivery-Attempt': String(d.attempt_count),
        },
        timeoutMs,
      );
    } catch (err) {
      if (!(err instanceof TargetRefusedError)) throw err;
      result = { statusCode: null, durationMs: 0, responseExcerpt: null, error: err.message, ok: false };
    }
    const { ok, ...record } = result;
    if (ok) return { attempt: record, outcome: { status: 'delivered' } };
    const wait = retryDelayMs(d.attempt_count, retry, random);
    if (Date.now() + wait - d.series_started_at.getTime() <= retry.windowMs)
      return { attempt: record, outcome: { status: 'retry', retryInMs: wait } };
    const hours = Math.round(retry.windowMs / 3_600_000);
    return {
      attempt: record,
      outcome: {
        status: 'failed',
        disableReason:
          `Deliveries failed for ${hours > 0 ? `${hours} hours` : `${retry.windowMs} ms`} (last: ${record.error ?? 'no answer'}); fix the receiver, then turn the webhook back on and send the failed deliveries again`.slice(
            0,
            1000,
          ),
      },
    };
  }

  async function deliver(d: ClaimedDelivery, readers: Map<string, Promise<Reader | null>>): Promise<void> {
    try {
      const { attempt: record, outcome } = await attempt(d, readers);
      await outbox.settle(d, record, outcome);
    } catch (err) {
      // Left as claimed: the lease ends and the delivery is tried again.
      logger.warn({ err, deliveryId: d.id }, 'webhook delivery failed unexpectedly; it is retried when its lease ends');
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      woken = false;
      let taken = 0;
      try {
        const claimed = await outbox.claim(batch, leaseMs);
        taken = claimed.length;
        const readers = new Map<string, Promise<Reader | null>>();
        await Promise.all(claimed.map((d) => deliver(d, readers)));
      } catch (err) {
        if (stopped) break;
        logger.warn({ err }, 'webhook dispatcher could not read the outbox; trying again');
      }
      if (stopped) break;
      if (taken >= batch || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          sleeper = null;
          resolve();
        }
        sleeper = done;
      });
    }
  }

  const running = loop();
  return {
    wake,
    async stop() {
      stopped = true;
      unsubscribe?.();
      sleeper?.();
      await running;
    },
  };
}

/** Why an event is not sent to a subscription whose owner holds `perms` now (null: it is sent). */
function whyNotDelivered(
  perms: Permissions | null,
  clusterId: string | null,
  exists: boolean,
): { error: string; disable: string | null } | null {
  if (!perms)
    return {
      error: "Not sent: the webhook's owner is deactivated or removed",
      disable: "Its owner's account is deactivated or removed; deliveries stopped",
    };
  if (!exists) return { error: 'Not sent: the event no longer exists', disable: null };
  const readable = clusterId ? can(perms, 'cluster.read', clusterId) : can(perms, 'user.read');
  if (readable) return null;
  return {
    error: `Not sent: the webhook's owner may no longer read this event (it needs ${clusterId ? 'cluster.read on its cluster' : 'user.read'})`,
    disable: null,
  };
}
