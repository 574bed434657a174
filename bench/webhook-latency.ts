// `npx tsx bench/webhook-latency.ts [--database-url URL] [--seconds 20] [--concurrency 8]`:
//
// Webhook latency under a write load: how long from a write's commit until its webhook arrives, and what the outbox
// costs the writes. A server on PostgreSQL (production settings, except WEBHOOK_ALLOW_PRIVATE_TARGETS for the
// loopback receiver) takes cluster renames from `concurrency` writers for `seconds`: first with no webhook (the
// baseline), then with one subscribed to every event (`*`), whose receiver on loopback answers 204 at once.
// Latency is the receiver's arrival time minus the moment the writer's 200 came back (the commit is before it, so
// this is a lower bound of commit → delivery by at most one response time). Goal: p99 ≤ 1 s.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { numberArg, parseArgs } from './lib/cli.js';
import { DEFAULT_SERVER_URL, recreatePostgresDatabase } from './lib/db.js';
import { spawnReady } from './lib/processes.js';
import { LIMITS_OUT_OF_REACH } from './lib/cost-run.js';
import { signIn } from './lib/scenarios.js';

const log = (line: string) => process.stderr.write(`${line}\n`);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

const args = parseArgs(process.argv.slice(2));
const url = args.get('database-url') ?? `${DEFAULT_SERVER_URL}/bench_webhooks`;
const seconds = numberArg(args, 'seconds', 20);
const concurrency = numberArg(args, 'concurrency', 8);

/** The receiver: when each event id arrived. */
const arrived = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrived.set(String(req.headers['platform-event-id']), performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

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
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  // Eight writers as one account: the latency measured is the outbox's, never a quota's refusal.
  ...LIMITS_OUT_OF_REACH,
});
const token = await signIn(server.url, 'admin', 'admin123');
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
};

// One cluster per writer, renamed over and over: every write is one updateCluster event.
const clusters: Array<{ id: string; code: string }> = [];
for (let i = 0; i < concurrency; i++) {
  const code = `WH-${randomBytes(3).toString('hex').toUpperCase()}`;
  clusters.push({ id: (await call('POST', '/api-system/clusters', { code, name: code })).id as string, code });
}

/** Runs the writers for the phase; returns each write's latency and, per write, when its answer came. */
async function phase(): Promise<{ writeMs: number[]; answered: Array<{ at: number; requestId: string }> }> {
  const writeMs: number[] = [];
  const answered: Array<{ at: number; requestId: string }> = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    clusters.map(async (c, w) => {
      let n = 0;
      while (performance.now() < until) {
        const started = performance.now();
        const res = await fetch(`${server.url}/api-system/clusters/${c.id}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ code: c.code, name: `Writer ${w} ${n++}` }),
        });
        await res.arrayBuffer();
        const at = performance.now();
        if (res.status !== 200) throw new Error(`write → ${res.status}`);
        writeMs.push(at - started);
        answered.push({ at, requestId: res.headers.get('x-request-id') ?? '' });
      }
    }),
  );
  return { writeMs, answered };
}

log(`webhook latency: ${concurrency} writers × ${seconds} s, baseline then with a webhook`);
const baseline = await phase();
await call('POST', '/api-system/webhooks', { url: receiverUrl, event_types: ['*'] });
const withHook = await phase();
// Let the last deliveries arrive, then match each write's event (by its request id) to its arrival.
await new Promise((r) => setTimeout(r, 3000));
await server.stop();
receiver.close();
// Each write's event, by the request id its answer named.
const events = new Map<string, string>();
const pg = (await import('pg')).default;
const client = new pg.Client({ connectionString: url });
await client.connect();
const rows = (
  await client.query<{ id: string; request_id: string }>(
    "select id, request_id from audit_events where action = 'updateCluster' and request_id = any($1)",
    [withHook.answered.map((a) => a.requestId)],
  )
).rows;
await client.end();
for (const r of rows) events.set(r.request_id, r.id);
const latencies: number[] = [];
let missing = 0;
for (const { at, requestId } of withHook.answered) {
  const arrival = arrived.get(events.get(requestId) ?? '');
  if (arrival === undefined) missing++;
  else latencies.push(Math.max(0, arrival - at));
}
latencies.sort((a, b) => a - b);
const sortedBase = [...baseline.writeMs].sort((a, b) => a - b);
const sortedHook = [...withHook.writeMs].sort((a, b) => a - b);
const rate = (p: { writeMs: number[] }) => p.writeMs.length / seconds;
const f = (n: number) => n.toFixed(1);
process.stdout.write(
  [
    `| | writes/s | write p50 | write p99 |`,
    `|---|---|---|---|`,
    `| baseline (no webhook) | ${f(rate(baseline))} | ${f(pct(sortedBase, 50))} ms | ${f(pct(sortedBase, 99))} ms |`,
    `| one webhook on every event | ${f(rate(withHook))} | ${f(pct(sortedHook, 50))} ms | ${f(pct(sortedHook, 99))} ms |`,
    `| ratio | ${(rate(withHook) / rate(baseline)).toFixed(3)} | ${(pct(sortedHook, 50) / pct(sortedBase, 50)).toFixed(3)} | ${(pct(sortedHook, 99) / pct(sortedBase, 99)).toFixed(3)} |`,
    '',
    `commit → delivery over ${latencies.length} deliveries (${missing} not arrived): p50 ${f(pct(latencies, 50))} ms, p99 ${f(pct(latencies, 99))} ms, max ${f(latencies.at(-1) ?? NaN)} ms`,
    '',
  ].join('\n'),
);
