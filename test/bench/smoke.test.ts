// Keeps the benchmark harness working: 1 % data in an in-memory database, the real app, one scenario for 2 seconds.
// With TEST_DATABASE_URL, also keeps the baseline honest: on 1 % data in PostgreSQL it must answer every scenario
// exactly as the service does, as `npm run bench` requires before it measures.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { createDatabase, type Database } from '../../server/src/db/index.js';
import { openChangeFeed, type ChangeFeed } from '../../server/src/db/changes.js';
import { templateForNewDatabase } from '../../server/src/db/template.js';
import { createLogger } from '../../server/src/http/logging.js';
import { createStorage } from '../../server/src/storage/index.js';
import { generateData } from '../../bench/datagen/generate.js';
import { startBaseline, type Baseline } from '../../bench/baseline/server.js';
import { compareTargets, formatDifferences } from '../../bench/lib/compare.js';
import { runScenario } from '../../bench/lib/harness.js';
import { markdownReport, summaryTable, type RunRecord } from '../../bench/lib/report.js';
import { sizesFor } from '../../bench/lib/scale.js';
import { buildScenarios, loadScenarioData, signInAll } from '../../bench/lib/scenarios.js';
import { createPostgresDatabase } from '../server/support/index.js';

describe('benchmark harness (smoke, 1 % scale)', () => {
  let db: Database;
  let server: Server;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bench-smoke-'));
    db = await createDatabase(
      { database: { engine: 'pglite', dir: null } },
      { pgliteTemplate: templateForNewDatabase(null) },
    );
    await generateData(db.knex, 1, { log: process.env.BENCH_SMOKE_LOG ? undefined : () => undefined });
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'memory://',
      DATA_DIR: dataDir,
      JWT_SECRET: 'smoke-test-secret-with-at-least-32-characters',
      ADMIN_PASSWORD: 'admin123',
      DEMO_PASSWORD: 'demo1234',
      LOG_LEVEL: 'silent',
      // As bench/run.ts runs it: production would ask the super admin to set up a second factor first.
      SECOND_FACTOR_REQUIRED: 'none',
    });
    expect(config.validateResponses).toBe(false);
    const app = createApp({ config, db, storage: await createStorage(config), logger: createLogger('silent') });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates the 1 % row counts through the project migrations', async () => {
    const sizes = sizesFor(1);
    const [c] = await db.knex('clusters').count({ n: '*' }).whereLike('code', 'BX%');
    const [m] = await db
      .knex('cluster_users')
      .join('users', 'users.id', 'cluster_users.user_id')
      .count({ n: '*' })
      .whereLike('users.username', 'bu0%');
    expect(Number(c!.n)).toBe(sizes.clusters);
    expect(Number(m!.n)).toBe(sizes.clusterMemberships);
  });

  it('runs the cluster-list scenario for 2 seconds with requests and no errors, and reports it', async () => {
    const data = await loadScenarioData(db.knex);
    const tokens = await signInAll(url);
    const scenario = buildScenarios(data).find((s) => s.id === 'clusters-page-1')!;
    const result = await runScenario(scenario, [{ name: 'server', url, tokens }], {
      rounds: 1,
      seconds: 2,
      warmupSeconds: 0,
      connections: 2,
    });

    expect(result.server.requests).toBeGreaterThan(0);
    expect(result.server.rps).toBeGreaterThan(0);
    expect(result.server.errors).toBe(0);
    expect(result.server.non2xx).toBe(0);

    const record: RunRecord = {
      startedAt: new Date().toISOString(),
      scale: 1,
      sizes: sizesFor(1),
      engine: 'postgres',
      settings: {
        rounds: 1,
        seconds: 2,
        warmupSeconds: 0,
        connections: 2,
        probeSeconds: 0,
        logLevel: 'silent',
        nodeEnv: 'production',
      },
      machine: { cpus: 1, node: process.version, loadAverageAtStart: [0, 0, 0] },
      scenarios: [result],
    };
    expect(summaryTable(record)).toContain('clusters-page-1');
    expect(markdownReport(record, undefined)).toContain('| Cluster list, page 1 with counts |');
  }, 30_000);
});

describe('benchmark baseline (1 % scale, PostgreSQL)', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'answers every scenario exactly as the service does (needs TEST_DATABASE_URL)',
    async () => {
      const quiet = process.env.BENCH_SMOKE_LOG ? undefined : () => undefined;
      const jwtSecret = 'smoke-test-secret-with-at-least-32-characters';
      const pgDb = await createPostgresDatabase();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-compare-'));
      let db: Database | undefined;
      let changes: ChangeFeed | undefined;
      let server: Server | undefined;
      let baseline: Baseline | undefined;
      try {
        db = await createDatabase({ database: { engine: 'postgres', url: pgDb.url } });
        await generateData(db.knex, 1, { log: quiet });
        const config = loadConfig({
          NODE_ENV: 'production',
          DATABASE_URL: pgDb.url,
          DATA_DIR: dataDir,
          JWT_SECRET: jwtSecret,
          ADMIN_PASSWORD: 'admin123',
          DEMO_PASSWORD: 'demo1234',
          LOG_LEVEL: 'silent',
          // As in `npm run bench`: the sign-ins of the comparison come from one address in quick succession.
          AUTH_RATE_PER_IP: '1000000/1s',
          // And every other operation: the comparison sends thousands of requests as one account.
          RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
          RATE_LIMIT_PER_ADDRESS: '1000000/1s',
          // As in `npm run bench`: production would lead the super admin to set up a second factor first.
          SECOND_FACTOR_REQUIRED: 'none',
        });
        const logger = createLogger('silent');
        // On PostgreSQL the caches hear of committed writes through LISTEN, as in production.
        changes = await openChangeFeed(db, { logger });
        const app = createApp({ config, db, storage: await createStorage(config), logger, changes });
        server = createServer(app);
        await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        baseline = await startBaseline({ databaseUrl: pgDb.url, jwtSecret });

        const scenarios = buildScenarios(await loadScenarioData(db.knex));
        const comparison = await compareTargets(scenarios, await signInAll(url), url, baseline.url);

        expect(comparison.requests).toBeGreaterThanOrEqual(scenarios.length);
        // The differences themselves are the message: which scenario, which request, which field.
        expect(comparison.differences, formatDifferences(comparison)).toEqual([]);
      } finally {
        await baseline?.close();
        if (server) {
          await new Promise<void>((resolve) => {
            server!.close(() => resolve());
            server!.closeAllConnections();
          });
        }
        // Before the drop: the feed's LISTEN connection is a session on the database.
        await changes?.close();
        await db?.close();
        await pgDb.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
