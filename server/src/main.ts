import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError, type Config } from './config.js';
import { createDatabase, migrateLatest, DataDirLockedError, type Database } from './db/index.js';
import { seedIfEmpty } from './db/seed/index.js';
import { templateForNewDatabase } from './db/template.js';
import { createStorage } from './storage/index.js';
import { createLogger } from './http/logging.js';
import { createApp } from './app.js';
import { answerClientErrors } from './http/client-errors.js';
import { PRIVATE_UMASK, tightenPermissions } from './data-dir.js';

export interface Running {
  config: Config;
  server: Server;
  db: Database;
  url: string;
  stop(): Promise<void>;
}

let current: Running | null = null;

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

/** Loads config, opens + migrates + seeds the database, and listens. */
export async function start(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  process.umask(PRIVATE_UMASK);
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  // A new embedded database (a fresh directory, or memory:// for the stateful mock) starts from a saved cluster.
  const template = config.database.engine === 'pglite' ? templateForNewDatabase(config.database.dir) : undefined;
  const db = await createDatabase(config, { pgliteTemplate: template });
  try {
    // After the database opened: a new embedded database is unpacked from its template with the template's modes.
    const tightened = await tightenPermissions(config.dataDir);
    if (tightened > 0) logger.info({ dataDir: config.dataDir, entries: tightened }, 'made the data directory private (directories 0700, files 0600)');
    await migrateLatest(db.knex);
    if (await seedIfEmpty(db.knex, config)) logger.info({ admin: config.admin.username }, 'seeded demo data on first start');
    const storage = await createStorage(config);
    const app = createApp({ config, db, storage, logger });
    const { createServer } = await import('node:http');
    const server = createServer(app);
    server.keepAliveTimeout = 5_000;
    answerClientErrors(server);
    await listen(server, config.port, config.host);
    const addr = server.address() as AddressInfo;
    const url = `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
    logger.info({ url, engine: db.engine, storage: storage.driver }, 'listening');

    let stopping: Promise<void> | null = null;
    const running: Running = {
      config,
      server,
      db,
      url,
      stop() {
        stopping ??= (async () => {
          // Stop accepting, let in-flight requests finish (idle keep-alive sockets are closed), then close the DB.
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 10_000).unref();
          });
          await db.close();
          logger.info('stopped');
        })();
        return stopping;
      },
    };
    current = running;
    return running;
  } catch (err) {
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
  if (err instanceof ConfigError || err instanceof DataDirLockedError) return err.message;
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') return `Port ${e.port ?? ''} on ${e.address ?? ''} is already in use; stop the other process or set PORT.`;
  if (e?.code === 'EACCES') return `Not allowed to listen on port ${e.port ?? ''}; choose a port above 1023 with PORT.`;
  if (e?.code === 'ECONNREFUSED') return `Cannot reach the database (${e.message}); check DATABASE_URL.`;
  return `Startup failed: ${e?.stack ?? String(err)}`;
}

/** CLI entry: exits 1 with one clear message when startup fails; drains and exits 0 on SIGTERM/SIGINT. */
export async function main(): Promise<void> {
  let running: Running;
  try {
    running = await start();
  } catch (err) {
    process.stderr.write(`${describeStartupError(err)}\n`);
    process.exit(1);
  }
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
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
