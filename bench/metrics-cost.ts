// `npx tsx bench/metrics-cost.ts [--scale 1] [--only clusters-page-1] [--rounds 8] [--seconds 5] [--connections 32]`
//
// What keeping metrics costs: the same service twice on the same generated database, once without metrics and once
// with them (METRICS_PORT set, scraped every 15 s as Prometheus would), the two alternating round by round in one run
// (runScenario), so the shared machine's drift falls on both alike. Reports the median throughput of each and their
// ratio, with metrics ÷ without (findings §12).
//
// `--per-request` measures instead, in this process alone, the CPU the metrics add to one request (the request
// counter and histogram, the export check, two pool acquisitions timed), which the machine's load does not disturb.
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import type { Knex } from 'knex';
import { createMetrics } from '../server/src/observability/metrics.js';
import { parseArgs } from './lib/cli.js';
import { LIMITS_OUT_OF_REACH, prepareCostRun } from './lib/cost-run.js';
import { openDatabase } from './lib/db.js';
import { runScenario, type Target } from './lib/harness.js';
import { spawnReady, type Child } from './lib/processes.js';
import { buildScenarios, loadScenarioData, signInAll } from './lib/scenarios.js';

const log = (line: string) => process.stdout.write(`${line}\n`);
const SCRAPE_TOKEN = randomBytes(24).toString('base64url');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Median CPU microseconds of `work` over 5 × `n` calls. */
function cpuMicros(n: number, work: (i: number) => void): number {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) work(i);
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / n);
  }
  return runs.sort((a, b) => a - b)[2]!;
}

function perRequestCost(): void {
  // A pool that emits what knex's pool (tarn) emits, so the wait histogram runs as in production.
  const pool = Object.assign(new EventEmitter(), {
    max: 10,
    numUsed: () => 1,
    numFree: () => 9,
    numPendingAcquires: () => 0,
    numPendingCreates: () => 0,
  });
  const metrics = createMetrics({ knex: { client: { pool } } as unknown as Knex });
  const ids = ['listClusters', 'getCluster', 'listBusinessUnits'];
  const request = (i: number, measured: boolean) => {
    const res = Object.assign(new EventEmitter(), { statusCode: 200, locals: {} });
    const req = { operation: { id: ids[i % ids.length] }, originalUrl: '/api-system/clusters' };
    if (measured) {
      metrics.observeRequests(req as never, res as never, () => undefined);
      metrics.observeExports(req as never, res as never, () => undefined);
      for (const id of [2 * i, 2 * i + 1]) {
        pool.emit('acquireRequest', id);
        pool.emit('acquireSuccess', id);
      }
    }
    res.emit('close');
  };
  cpuMicros(20_000, (i) => request(i, true));
  const withMetrics = cpuMicros(200_000, (i) => request(i, true));
  const loopAlone = cpuMicros(200_000, (i) => request(i, false));
  metrics.close();
  log(
    `CPU per request: ${withMetrics.toFixed(2)} µs with metrics, ${loopAlone.toFixed(2)} µs for the loop alone (median of 5 × 200,000)`,
  );
}

const args = parseArgs(process.argv.slice(2));
if (args.has('per-request')) {
  perRequestCost();
  process.exit(0);
}
const { url, only, settings } = await prepareCostRun(args, log);

const jwtSecret = randomBytes(36).toString('base64url');
const env = {
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: url,
  JWT_SECRET: jwtSecret,
  ADMIN_PASSWORD: 'admin123',
  DEMO_PASSWORD: 'demo1234',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  DATA_DIR: path.join(os.tmpdir(), 'bench-metrics-cost'),
  ...LIMITS_OUT_OF_REACH,
};
const metricsPort = await freePort();
const children: Child[] = [];
let scraper: NodeJS.Timeout | undefined;
try {
  const without = await spawnReady('bench/lib/server-process.ts', env);
  children.push(without);
  const withMetrics = await spawnReady('bench/lib/server-process.ts', {
    ...env,
    METRICS_PORT: String(metricsPort),
    METRICS_TOKEN: SCRAPE_TOKEN,
  });
  children.push(withMetrics);
  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` },
    });
    if (res.status !== 200) throw new Error(`scrape answered ${res.status}`);
    return res.text();
  };
  await scrape();
  scraper = setInterval(() => void scrape().catch(() => undefined), 15_000);

  const db = await openDatabase({ url });
  const data = await loadScenarioData(db.knex).finally(() => db.close());
  const tokens = await signInAll(withMetrics.url);
  // The harness's two names: "baseline" is the service without metrics, "server" the one with them.
  const targets: Target[] = [
    { name: 'baseline', url: without.url, tokens, pid: without.process.pid },
    { name: 'server', url: withMetrics.url, tokens, pid: withMetrics.process.pid },
  ];
  log(
    `Load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const scenario of buildScenarios(data).filter((s) => only.includes(s.id))) {
    log(`  ${scenario.title}`);
    const r = await runScenario(scenario, targets, settings);
    const off = r.baseline!;
    const on = r.server;
    log(
      `${scenario.id}: without metrics ${off.rps.toFixed(0)} rps (p99 ${off.p99} ms, cpu ${off.cpuMsPerRequest?.toFixed(2)} ms/req), ` +
        `with metrics ${on.rps.toFixed(0)} rps (p99 ${on.p99} ms, cpu ${on.cpuMsPerRequest?.toFixed(2)} ms/req); ` +
        `throughput ratio ${(on.rps / off.rps).toFixed(3)}, cpu ratio ${((on.cpuMsPerRequest ?? NaN) / (off.cpuMsPerRequest ?? NaN)).toFixed(3)}; ` +
        `errors ${off.errors + on.errors}, non-2xx ${off.non2xx + on.non2xx}`,
    );
  }
  const series = (await scrape()).split('\n').filter((l) => l && !l.startsWith('#')).length;
  log(`Series exported after the run: ${series}`);
  log(
    `Load average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  clearInterval(scraper);
  await Promise.all(children.map((c) => c.stop()));
}
