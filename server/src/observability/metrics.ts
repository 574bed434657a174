import type { RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ChangeFeed } from '../db/changes.js';
import { requestLogNotes } from '../http/logging.js';
import { onCacheLookup } from './cache-events.js';

/**
 * The process's metrics in Prometheus's text format (docs/operations.md, "Metrics"). Every label takes a value from a
 * small fixed set: an operationId of the contract (or `none`), a status class, a cache's name, a reason. A path, an
 * id, an account or an address is never a label: each distinct value would be a series of its own.
 */
export interface Metrics {
  readonly registry: Registry;
  /** First in the pipeline: times every request and counts it by operation and status class when it ends. */
  observeRequests: RequestHandler;
  /** After the operation is identified: counts the exports being streamed. */
  observeExports: RequestHandler;
  /** The text a scrape answers, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
  /** Stops listening to the pool, the change feed and the caches. */
  close(): void;
}

/** The parts of knex's connection pool (tarn) read here. */
interface ConnectionPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  on(event: 'acquireRequest', handler: (eventId: number) => void): void;
  on(event: 'acquireSuccess' | 'acquireFail', handler: (eventId: number) => void): void;
  removeListener(event: string, listener: (...args: never[]) => void): void;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Most acquisitions take microseconds; the buckets resolve the slow tail that means the pool is too small. */
const WAIT_SECONDS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** The auth endpoints whose refusals count as sign-in throttling. */
const SIGN_IN_PATH = /^\/api\/auth\//;

function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

export function createMetrics({ knex, changes }: { knex: Knex; changes?: ChangeFeed }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process figures (CPU, memory, GC) and the event loop's delay (nodejs_eventloop_lag_*), sampled every 10 ms.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'platform_http_requests_total',
    help: 'Requests answered, by contract operationId (none outside the contract) and status class',
    labelNames: ['operation', 'status_class'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'platform_http_request_duration_seconds',
    help: 'Time from the request reaching the server to its response ending, by operationId and status class',
    labelNames: ['operation', 'status_class'] as const,
    buckets: SECONDS,
    registers,
  });
  const signInRefusals = new Counter({
    name: 'platform_sign_in_refusals_total',
    help: 'Refused sign-ins: throttled (429, a client over its rate or delayed after failures) or credentials (wrong or locked)',
    labelNames: ['reason'] as const,
    registers,
  });
  const exportsInFlight = new Gauge({
    name: 'platform_exports_in_flight',
    help: 'CSV exports being streamed now',
    registers,
  });
  const cacheLookups = new Counter({
    name: 'platform_cache_lookups_total',
    help: 'Lookups of the in-memory caches, by cache and outcome (hit or miss)',
    labelNames: ['cache', 'outcome'] as const,
    registers,
  });
  const cacheResets = new Counter({
    name: 'platform_cache_resets_total',
    help: 'Times every in-memory cache was emptied: a local write to a table they read, or notifications possibly missed',
    registers,
  });
  const cacheInvalidations = new Counter({
    name: 'platform_cache_invalidations_total',
    help: 'Change notifications the caches heard, by table (each drops what that table fed)',
    labelNames: ['table'] as const,
    registers,
  });

  const pool = (knex.client as { pool?: ConnectionPool }).pool;
  new Gauge({
    name: 'platform_db_pool_connections',
    help: 'Database pool connections by state (used, free) and requests waiting (pending_acquire, pending_create)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'free' }, pool.numFree());
      this.set({ state: 'pending_acquire' }, pool.numPendingAcquires());
      this.set({ state: 'pending_create' }, pool.numPendingCreates());
    },
  });
  new Gauge({
    name: 'platform_db_pool_max',
    help: 'The most connections the pool opens (1 on the embedded database)',
    registers,
    collect() {
      if (pool) this.set(pool.max);
    },
  });
  const poolWait = new Histogram({
    name: 'platform_db_pool_acquire_wait_seconds',
    help: 'Time a statement waited for a database connection',
    buckets: WAIT_SECONDS,
    registers,
  });

  const asked = new Map<number, number>();
  const onAcquireRequest = (eventId: number) => void asked.set(eventId, performance.now());
  const onAcquired = (eventId: number) => {
    const at = asked.get(eventId);
    if (at === undefined) return;
    asked.delete(eventId);
    poolWait.observe((performance.now() - at) / 1000);
  };
  pool?.on('acquireRequest', onAcquireRequest);
  pool?.on('acquireSuccess', onAcquired);
  pool?.on('acquireFail', onAcquired);

  const stopHearingCaches = onCacheLookup((cache, outcome) => cacheLookups.inc({ cache, outcome }));
  const stopHearingChanges = changes?.subscribe({
    onChange: ({ table }) => cacheInvalidations.inc({ table }),
    onReset: () => cacheResets.inc(),
  });

  const observeRequests: RequestHandler = (req, res, next) => {
    const startedAt = performance.now();
    res.once('close', () => {
      const labels = { operation: req.operation?.id ?? 'none', status_class: statusClass(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - startedAt) / 1000);
      if (res.statusCode < 400 || !SIGN_IN_PATH.test(req.originalUrl)) return;
      if (res.statusCode === 429) signInRefusals.inc({ reason: 'throttled' });
      else if (requestLogNotes(res as Response).signInRefused) signInRefusals.inc({ reason: 'credentials' });
    });
    next();
  };

  const observeExports: RequestHandler = (req, res, next) => {
    if (req.operation?.id.startsWith('export')) {
      exportsInFlight.inc();
      res.once('close', () => exportsInFlight.dec());
    }
    next();
  };

  return {
    registry,
    observeRequests,
    observeExports,
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    close() {
      pool?.removeListener('acquireRequest', onAcquireRequest);
      pool?.removeListener('acquireSuccess', onAcquired);
      pool?.removeListener('acquireFail', onAcquired);
      stopHearingCaches();
      stopHearingChanges?.();
      registry.clear();
    },
  };
}
