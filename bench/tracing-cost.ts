// `npx tsx bench/tracing-cost.ts [--scale 1] [--only clusters-page-1] [--rounds 8] [--seconds 5] [--connections 32]`
//
// What tracing costs: the same service twice on the same generated database, once as shipped (no OTEL_* setting: no
// span is made) and once exporting every trace over OTLP/HTTP (protobuf, batched) to a collector stand-in in this
// process that reads and discards each export. The two alternate round by round in one run (runScenario), so the
// shared machine's drift falls on both alike. Reports the median throughput of each and their ratio, with tracing ÷
// without (findings §13), and how many spans the collector received.
//
// `--per-request` measures instead, in this process alone, the CPU tracing adds to one request: its server span and
// the cluster list's two statement spans made, batched, encoded and sent to the stand-in (flushed before the clock
// stops).
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { tracingOf } from '../server/src/config-tracing.js';
import { startTelemetry } from '../server/src/observability/telemetry.js';
import { parseArgs } from './lib/cli.js';
import { LIMITS_OUT_OF_REACH, prepareCostRun } from './lib/cost-run.js';
import { openDatabase } from './lib/db.js';
import { runScenario, type Target } from './lib/harness.js';
import { spawnReady, type Child } from './lib/processes.js';
import { buildScenarios, loadScenarioData, signInAll } from './lib/scenarios.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** An OTLP/HTTP endpoint that accepts every export: the bytes it received and the exports it answered. */
async function collectorStandIn(): Promise<{
  server: Server;
  url: string;
  received: { exports: number; bytes: number };
}> {
  const received = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    req.on('end', () => {
      received.exports += 1;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** Statements as long as the cluster list's two (519 and 2,001 characters as traced: a grant lookup and the page). */
const STATEMENTS = [519, 2001].map((length) => {
  const columns = Array.from({ length: 200 }, (_, i) => `"clusters"."column_${i}"`).join(', ');
  return `select ${columns}`.slice(0, length - 40) + ' from "clusters" where "id" = $1 limit $2';
});

/** CPU microseconds per request over `n` requests, the spans' export included (flushed before the clock stops). */
async function tracedRequests(n: number, collectorUrl: string, traced: boolean): Promise<number> {
  const telemetry = await startTelemetry({
    ...tracingOf(
      (name) =>
        name === 'OTEL_EXPORTER_OTLP_ENDPOINT'
          ? collectorUrl
          : name === 'OTEL_EXPORTER_OTLP_PROTOCOL'
            ? process.env.OTEL_EXPORTER_OTLP_PROTOCOL
            : undefined,
      [],
    ),
    version: 'bench',
  });
  const knex = Object.assign(new EventEmitter(), { client: { config: { client: 'pg' } } });
  if (traced) telemetry!.tracing.queries(knex as unknown as Knex);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const req = Object.assign(new EventEmitter(), {
      method: 'GET',
      headers: {},
      operation: { id: 'listClusters', path: '/api-system/clusters' },
    });
    const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true });
    const handle = () =>
      STATEMENTS.forEach((sql, q) => {
        const query = { __knexQueryUid: `${i}-${q}`, sql };
        knex.emit('query', query);
        knex.emit('query-response', [], query);
      });
    if (traced) telemetry!.tracing.requests(req as never, res as never, handle);
    else handle();
    res.emit('finish');
    // Time for the batch processor's exports, as between requests: in a tight loop its queue (2,048 spans) would
    // overflow and drop spans unexported, which would understate the cost.
    if (i % 64 === 63) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await telemetry!.shutdown();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function perRequestCost(): Promise<void> {
  const collector = await collectorStandIn();
  try {
    await tracedRequests(5_000, collector.url, true);
    const on: number[] = [];
    const off: number[] = [];
    for (let r = 0; r < 5; r++) {
      on.push(await tracedRequests(20_000, collector.url, true));
      off.push(await tracedRequests(20_000, collector.url, false));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
    log(
      `CPU per request: ${median(on).toFixed(1)} µs traced (a server span and the cluster list's ${STATEMENTS.length} statement spans, exported), ` +
        `${median(off).toFixed(1)} µs for the loop alone (median of 5 × 20,000); the stand-in received ` +
        `${collector.received.exports} exports, ${(collector.received.bytes / 1e6).toFixed(1)} MB`,
    );
  } finally {
    collector.server.close();
  }
}

const args = parseArgs(process.argv.slice(2));
if (args.has('per-request')) {
  await perRequestCost();
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
  DATA_DIR: path.join(os.tmpdir(), 'bench-tracing-cost'),
  ...LIMITS_OUT_OF_REACH,
};
const collector = await collectorStandIn();
const children: Child[] = [];
try {
  const without = await spawnReady('bench/lib/server-process.ts', env);
  children.push(without);
  const traced = await spawnReady('bench/lib/server-process.ts', {
    ...env,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'platform-admin-bench',
  });
  children.push(traced);

  const db = await openDatabase({ url });
  const data = await loadScenarioData(db.knex).finally(() => db.close());
  const tokens = await signInAll(traced.url);
  // The harness's two names: "baseline" is the service without tracing, "server" the one tracing every request.
  const targets: Target[] = [
    { name: 'baseline', url: without.url, tokens, pid: without.process.pid },
    { name: 'server', url: traced.url, tokens, pid: traced.process.pid },
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
      `${scenario.id}: without tracing ${off.rps.toFixed(0)} rps (p99 ${off.p99} ms, cpu ${off.cpuMsPerRequest?.toFixed(2)} ms/req), ` +
        `with tracing ${on.rps.toFixed(0)} rps (p99 ${on.p99} ms, cpu ${on.cpuMsPerRequest?.toFixed(2)} ms/req); ` +
        `throughput ratio ${(on.rps / off.rps).toFixed(3)}, cpu ratio ${((on.cpuMsPerRequest ?? NaN) / (off.cpuMsPerRequest ?? NaN)).toFixed(3)}; ` +
        `errors ${off.errors + on.errors}, non-2xx ${off.non2xx + on.non2xx}`,
    );
  }
  log(`Collector stand-in: ${collector.received.exports} exports, ${(collector.received.bytes / 1e6).toFixed(1)} MB`);
  log(
    `Load average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await Promise.all(children.map((c) => c.stop()));
  collector.server.close();
}
