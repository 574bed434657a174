// `npx tsx bench/login-flood.ts [--database-url URL] [--logins 1000] [--concurrency 100] [--idle-seconds 10]`:
// does a flood of failed sign-ins slow down the people already signed in? A signed-in admin reads the cluster list one
// request at a time, first on an idle server, then while 1,000 anonymous sign-ins with wrong passwords arrive 100 at
// once: from one address, and spread over 1,000 addresses (X-Forwarded-For through a trusted proxy). The server runs
// with the production sign-in limits (AUTH_RATE_* unset). Goal: the reader's p99 under the flood ≤ 2 × its idle p99.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { numberArg, parseArgs } from './lib/cli.js';
import { DEFAULT_SERVER_URL, recreatePostgresDatabase } from './lib/db.js';
import { spawnReady } from './lib/processes.js';
import { signIn } from './lib/scenarios.js';

const log = (line: string) => process.stderr.write(`${line}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/** One keep-alive connection, one GET at a time, timed in microseconds. */
function reader(baseUrl: string, token: string) {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<{ ms: number; status: number }>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(
        { agent, host: base.hostname, port: base.port, method: 'GET', path: '/api-system/clusters?page=1&perpage=10', headers: { authorization: `Bearer ${token}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: res.statusCode ?? 0 }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  return {
    /** Reads until `until()` says stop; the latencies in milliseconds, sorted. */
    async run(until: () => boolean): Promise<{ sorted: number[]; failures: number }> {
      const ms: number[] = [];
      let failures = 0;
      while (!until()) {
        const r = await once();
        if (r.status === 200) ms.push(r.ms);
        else failures++;
      }
      return { sorted: ms.sort((a, b) => a - b), failures };
    },
    close: () => agent.destroy(),
  };
}

// The flood runs in a worker thread: its 100 sockets must not share the reader's event loop, or the reader would
// time the bench's own queueing.
const FLOOD = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, logins, concurrency, spread } = workerData;
const statuses = {};
let next = 0;
async function one(i) {
  const headers = { 'content-type': 'application/json' };
  if (spread) headers['x-forwarded-for'] = '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255);
  try {
    const res = await fetch(url + '/api/auth/login', { method: 'POST', headers, body: JSON.stringify({ username: 'nobody-' + i, password: 'wrong-password-' + i }) });
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] || 0) + 1;
  } catch (e) {
    statuses.error = (statuses.error || 0) + 1;
  }
}
async function lane() { while (next < logins) await one(next++); }
const started = performance.now();
Promise.all(Array.from({ length: concurrency }, lane)).then(() => parentPort.postMessage({ statuses, seconds: (performance.now() - started) / 1000 }));
`;

function flood(url: string, logins: number, concurrency: number, spread: boolean): Promise<{ statuses: Record<string, number>; seconds: number }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(FLOOD, { eval: true, workerData: { url, logins, concurrency, spread } });
    w.once('message', (m: { statuses: Record<string, number>; seconds: number }) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const url = args.get('database-url') ?? `${DEFAULT_SERVER_URL}/bench_login_flood`;
  const logins = numberArg(args, 'logins', 1000);
  const concurrency = numberArg(args, 'concurrency', 100);
  const idleSeconds = numberArg(args, 'idle-seconds', 10);

  log(`Database ${url.replace(/\/\/[^@]*@/, '//')} (recreated: demo seed)`);
  await recreatePostgresDatabase(url);
  const server = await spawnReady('bench/lib/server-process.ts', {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: url,
    JWT_SECRET: randomBytes(36).toString('base64url'),
    ADMIN_PASSWORD: 'admin123',
    DEMO_PASSWORD: 'demo1234',
    SEED_DEMO: 'true',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The flood "from many addresses" names them in X-Forwarded-For, as a load balancer would.
    TRUST_PROXY: 'loopback',
    DATA_DIR: path.join(os.tmpdir(), 'bench-login-flood-data'),
  });
  log(`Server   ${server.url}`);
  const results: string[] = [];
  try {
    const token = await signIn(server.url, 'admin', 'admin123');
    const r = reader(server.url, token);
    // Warm-up (JIT, connection, plan cache), unrecorded.
    const warm = Date.now() + 2_000;
    await r.run(() => Date.now() > warm);
    const idleEnd = Date.now() + idleSeconds * 1000;
    const idle = await r.run(() => Date.now() > idleEnd);
    const idleP99 = pct(idle.sorted, 99);
    log(`idle: ${idle.sorted.length} reads, p50 ${pct(idle.sorted, 50).toFixed(2)} ms, p99 ${idleP99.toFixed(2)} ms`);
    results.push(`| idle | ${idle.sorted.length} | ${pct(idle.sorted, 50).toFixed(2)} | ${idleP99.toFixed(2)} | — | — | — |`);

    for (const spread of [false, true]) {
      // Let the buckets of the previous flood refill.
      await new Promise((res) => setTimeout(res, 6_000));
      let done = false;
      const reading = r.run(() => done);
      const f = await flood(server.url, logins, concurrency, spread);
      done = true;
      const during = await reading;
      const p99 = pct(during.sorted, 99);
      const label = spread ? `flood from ${logins} addresses` : 'flood from one address';
      const statuses = Object.entries(f.statuses).map(([s, n]) => `${n}× ${s}`).join(', ');
      log(`${label}: ${f.seconds.toFixed(1)} s, ${statuses}; reader ${during.sorted.length} reads (${during.failures} failed), p50 ${pct(during.sorted, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, ×${(p99 / idleP99).toFixed(2)} idle`);
      results.push(
        `| ${label} | ${during.sorted.length} | ${pct(during.sorted, 50).toFixed(2)} | ${p99.toFixed(2)} | ×${(p99 / idleP99).toFixed(2)} | ${f.seconds.toFixed(1)} s | ${statuses} |`,
      );
    }
    r.close();
  } finally {
    await server.stop();
  }
  process.stdout.write(
    [
      `Login flood: ${logins} wrong-password sign-ins, ${concurrency} at once; a signed-in admin reads GET /api-system/clusters one at a time.`,
      '',
      '| | reads | p50 ms | p99 ms | p99 ÷ idle p99 | flood took | flood answers |',
      '|---|---|---|---|---|---|---|',
      ...results,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
