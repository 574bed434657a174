import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { loadConfig, trustProxyWarnings, ConfigError, type Config } from './config.js';
import {
  createDatabase,
  migrateLatest,
  DataDirLockedError,
  DatabaseUnreachableError,
  SchemaNewerError,
  type Database,
} from './db/index.js';
import { firstStartSummary, seedIfEmpty } from './db/seed/index.js';
import { openChangeFeed, type ChangeFeed } from './db/changes.js';
import { templateForNewDatabase } from './db/template.js';
import { createStorage } from './storage/index.js';
import { createLogger } from './http/logging.js';
import { createApp } from './app.js';
import { startAuthPurge } from './modules/auth/purge.js';
import { configurePasswordHashGate } from './modules/auth/throttle.js';
import { answerClientErrors } from './http/client-errors.js';
import { PRIVATE_UMASK, tightenPermissions } from './data-dir.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { createMetricsServer } from './observability/metrics-server.js';
import { createRateLimitStore, type RateLimitStore } from './http/rate-limit-store.js';
import { startTelemetry, type Telemetry } from './observability/telemetry.js';
import { startWebhookDispatcher } from './modules/webhooks/dispatcher.js';

export interface Running {
  config: Config;
  server: Server;
  db: Database;
  url: string;
  /** The metrics listener's address (METRICS_PORT), e.g. `http://127.0.0.1:9464`; null when metrics are off. */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

let current: Running | null = null;

function urlOf(server: Server): string {
  const addr = server.address() as AddressInfo;
  return `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Express 5 passes EADDRINUSE to the callback (not thrown); node's server emits it as 'error'.
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Fails fast when the port is taken or not ours to use, before the database is opened, migrated and seeded (which
 * takes seconds on a first start). A probe, not a reservation: the real listen still reports a later clash.
 */
async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await listen(probe as unknown as Server, port, host);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** What an operator should know at start about a configuration that works here but not everywhere. */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const inMemory = config.database.engine === 'pglite' && config.database.dir === null;
  if (config.jwtSecretSource === 'generated' && config.nodeEnv !== 'production' && !inMemory) {
    warnings.push(
      `JWT_SECRET is not set: access tokens are signed with a secret generated into ${config.dataDir}/jwt-secret. ` +
        "Replicas behind a load balancer would each generate their own and refuse each other's tokens (users signed out at random); " +
        'set the same JWT_SECRET on every replica.',
    );
  }
  warnings.push(...trustProxyWarnings(config));
  const { metrics } = config;
  if (metrics.port !== null && metrics.token === null && !/^(127\.|::1$|localhost$)/.test(metrics.host))
    warnings.push(
      `METRICS_HOST=${metrics.host} serves /metrics beyond this machine without METRICS_TOKEN: anyone who reaches that port reads them; set METRICS_TOKEN or firewall the port.`,
    );
  return warnings;
}

export interface StartOptions {
  /** Runs before the app on every request (the stateful mock answers CORS for any origin here). */
  front?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  /** Counts the rate limits in this store instead of the configured one (a benchmark compares stores); closed at stop. */
  rateLimits?: RateLimitStore;
}

/** Loads config, checks the port, opens + migrates + seeds the database, and listens. */
export async function start(env: NodeJS.ProcessEnv = process.env, options: StartOptions = {}): Promise<Running> {
  process.umask(PRIVATE_UMASK);
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  for (const warning of startupWarnings(config)) logger.warn(warning);
  await assertPortFree(config.port, config.host);
  // A new embedded database (a fresh directory, or memory:// for the stateful mock) starts from a saved cluster.
  const template = config.database.engine === 'pglite' ? templateForNewDatabase(config.database.dir) : undefined;
  const db = await createDatabase(config, { pgliteTemplate: template });
  let changes: ChangeFeed | null = null;
  let metrics: Metrics | null = null;
  let metricsServer: Server | null = null;
  let rateLimits: RateLimitStore | null = null;
  let telemetry: Telemetry | null = null;
  try {
    // After the database opened: a new embedded database is unpacked from its template with the template's modes.
    const tightened = await tightenPermissions(config.dataDir);
    if (tightened > 0)
      logger.info(
        { dataDir: config.dataDir, entries: tightened },
        'made the data directory private (directories 0700, files 0600)',
      );
    await migrateLatest(db.knex);
    if (await seedIfEmpty(db.knex, config))
      logger.info({ admin: config.admin.username, demo: config.seedDemo }, firstStartSummary(config));
    const storage = await createStorage(config);
    // After the migrations: the triggers that notify the feed are part of the schema.
    changes = await openChangeFeed(db, { logger });
    // The gate bounds this process's cores, so the process sets it once, whatever apps it serves.
    configurePasswordHashGate(config.signIn.hashConcurrency, config.signIn.hashQueue);
    if (config.metrics.port !== null) {
      metrics = createMetrics({ knex: db.knex, changes });
      metricsServer = createMetricsServer(metrics, config.metrics.token);
      await listen(metricsServer, config.metrics.port, config.metrics.host);
    }
    // Never waits for Redis: until it answers, each replica counts in its own memory.
    rateLimits = options.rateLimits ?? createRateLimitStore({ ...config.rateLimits, logger });
    telemetry = await startTelemetry({ ...config.tracing, version: config.version });
    if (telemetry)
      logger.info({ exporter: config.tracing.exporter, to: new URL(config.tracing.url).origin }, 'tracing on');
    const app = createApp({
      config,
      db,
      storage,
      logger,
      changes,
      rateLimits,
      ...(metrics ? { metrics } : {}),
      ...(telemetry ? { tracing: telemetry.tracing } : {}),
    });
    const purge = startAuthPurge({ knex: db.knex, logger });
    const webhooks = startWebhookDispatcher({
      knex: db.knex,
      logger,
      changes,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
      timeoutMs: config.webhooks.timeoutSeconds * 1000,
    });
    const { createServer } = await import('node:http');
    const front = options.front;
    const server = createServer(
      front
        ? (req, res) =>
            front(req, res, () => {
              app(req, res);
            })
        : app,
    );
    // Idle keep-alive sockets stay open longer than a proxy or load balancer keeps its own (60 s is common): if the
    // server closed first, the proxy could reuse a socket that is already closing and fail a request with EPIPE.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    answerClientErrors(server);
    await listen(server, config.port, config.host);
    const url = urlOf(server);
    const metricsUrl = metricsServer ? urlOf(metricsServer) : null;
    logger.info({ url, metricsUrl, engine: db.engine, storage: storage.driver }, 'listening');

    let stopping: Promise<void> | null = null;
    const running: Running = {
      config,
      server,
      db,
      url,
      metricsUrl,
      stop() {
        stopping ??= (async () => {
          // Stop accepting, let in-flight requests finish (idle keep-alive sockets are closed), then close the DB.
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 10_000).unref();
          });
          purge.stop();
          await webhooks.stop();
          await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
          metrics?.close();
          await rateLimits?.close();
          // The spans of the last requests are sent before the process goes.
          await telemetry?.shutdown().catch((err: unknown) => logger.warn({ err }, 'tracing shutdown failed'));
          await changes?.close();
          await db.close();
          logger.info('stopped');
        })();
        return stopping;
      },
    };
    current = running;
    return running;
  } catch (err) {
    metricsServer?.close();
    metrics?.close();
    await rateLimits?.close().catch(() => undefined);
    await telemetry?.shutdown().catch(() => undefined);
    await changes?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

export async function stop(): Promise<void> {
  const r = current;
  current = null;
  await r?.stop();
}

function describeStartupError(err: unknown): string {
  if (
    err instanceof ConfigError ||
    err instanceof DataDirLockedError ||
    err instanceof DatabaseUnreachableError ||
    err instanceof SchemaNewerError
  )
    return err.message;
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === 'EADDRINUSE')
    return `Port ${e.port ?? ''} on ${e.address ?? ''} is already in use; stop the other process or set PORT.`;
  if (e?.code === 'EACCES') return `Not allowed to listen on port ${e.port ?? ''}; choose a port above 1023 with PORT.`;
  if (e?.code === 'ECONNREFUSED') return `Cannot reach the database (${e.message}); check DATABASE_URL.`;
  return `Startup failed: ${e?.stack ?? String(err)}`;
}

/** CLI entry: exits 1 with one clear message when startup fails; drains and exits 0 on SIGTERM/SIGINT. */
export async function main(options: StartOptions = {}): Promise<Running> {
  let running: Running;
  try {
    running = await start(process.env, options);
  } catch (err) {
    process.stderr.write(`${describeStartupError(err)}\n`);
    process.exit(1);
  }
  for (const warning of startupWarnings(running.config)) process.stderr.write(`Warning: ${warning}\n`);
  process.stderr.write(
    `Platform admin listening on ${running.url} (database: ${running.db.engine}${running.config.database.engine === 'pglite' && running.config.database.dir ? ` in ${running.config.database.dir}` : ''}; sign in as ${running.config.admin.username})\n`,
  );
  const shutdown = (signal: string) => {
    process.stderr.write(`${signal} received, shutting down…\n`);
    running.stop().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return running;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
