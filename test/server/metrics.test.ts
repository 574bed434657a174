// The Prometheus endpoint, as an operator scrapes it: only on its own listener (METRICS_PORT), never on the public
// port; behind METRICS_TOKEN when one is set; its figures move with the traffic; and no label carries a path, an id
// or anything else a client chooses, so the number of series stays bounded however many records are addressed.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.js';
import { ConfigError, loadConfig } from '../../server/src/config.js';
import { createLogger } from '../../server/src/http/logging.js';
import { start } from '../../server/src/main.js';
import { createMetrics, type Metrics } from '../../server/src/observability/metrics.js';
import { createMetricsServer } from '../../server/src/observability/metrics-server.js';
import { loadApiSpec } from '../../server/src/http/spec.js';
import { operationsOf } from '../../server/src/http/operations.js';
import { aCluster, adminToken } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const TOKEN = 'scrape-token-7f3a9c21e4';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!server) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The value of one sample (`name{a="b",…}`, labels in any order), 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l): [string, string] => [l[1]!, l[2]!]));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return 0;
}

/** The series names a scrape exports: every family, with a histogram's `_bucket`, `_sum` and `_count`. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram' || type === 'summary')
      for (const part of ['_bucket', '_sum', '_count']) names.add(name! + part);
  }
  return names;
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
]);

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords, labels or durations. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/"[^"]*"/g, ' ');
  return [...bare.matchAll(/([a-zA-Z_:][\w:]*)\s*(\()?/g)]
    .filter((m) => m[2] === undefined && !PROMQL_WORDS.has(m[1]!))
    .map((m) => m[1]!);
}

interface Dashboard {
  templating: { list: { query?: string }[] };
  panels: { title: string; targets: { expr: string }[] }[];
}

describe.each(engines())('metrics on %s', (engine) => {
  let t: TestServer;
  let metrics: Metrics;
  let app: Server;
  let scrapeServer: Server;
  let baseUrl: string;
  let metricsUrl: string;
  let admin: string;

  const scrape = async () => {
    const res = await fetch(`${metricsUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const get = (path: string, token = admin) => fetch(baseUrl + path, { headers: { Authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await startTestServer(engine);
    metrics = createMetrics({ knex: t.knex, changes: t.changes });
    const logger = createLogger('silent');
    app = createServer(
      createApp({ config: t.config, db: { knex: t.knex }, storage: t.storage, changes: t.changes, logger, metrics }),
    );
    baseUrl = await listen(app);
    scrapeServer = createMetricsServer(metrics, TOKEN);
    metricsUrl = await listen(scrapeServer);
    admin = await adminToken(t);
  });
  afterAll(async () => {
    await close(app);
    await close(scrapeServer);
    metrics?.close();
    await t?.close();
  });

  it('when a scrape sends no token or a wrong one, then it is refused with 401 and no figures', async () => {
    for (const headers of [{}, { Authorization: 'Bearer not-the-token' }, { Authorization: TOKEN }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${metricsUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.text()).not.toContain('platform_');
    }
    expect((await fetch(`${metricsUrl}/other`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('when the public port is asked for /metrics, then it answers a 404 problem, never the figures', async () => {
    const res = await get('/metrics');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(await res.text()).not.toContain('platform_http_requests_total');
  });

  it('when the cluster list is read, then its operation counts a 2xx, its duration and the pool move', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await get('/api-system/clusters')).status).toBe(200);
    const after = await scrape();
    const ok = { operation: 'listClusters', status_class: '2xx' };
    expect(sample(after, 'platform_http_requests_total', ok) - sample(before, 'platform_http_requests_total', ok)).toBe(
      3,
    );
    expect(
      sample(after, 'platform_http_request_duration_seconds_count', ok) -
        sample(before, 'platform_http_request_duration_seconds_count', ok),
    ).toBe(3);
    expect(
      sample(after, 'platform_db_pool_acquire_wait_seconds_count') -
        sample(before, 'platform_db_pool_acquire_wait_seconds_count'),
    ).toBeGreaterThanOrEqual(3);
    expect(sample(after, 'platform_db_pool_max')).toBe(engine === 'pglite' ? 1 : 10);
    expect(after).toMatch(/^platform_db_pool_connections\{state="free"\} \d+$/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  });

  it('when a request is refused, then its status class is counted under its operation', async () => {
    const before = await scrape();
    expect((await get('/api-system/clusters', 'not-a-token')).status).toBe(401);
    const after = await scrape();
    const refused = { operation: 'listClusters', status_class: '4xx' };
    expect(sample(after, 'platform_http_requests_total', refused)).toBe(
      sample(before, 'platform_http_requests_total', refused) + 1,
    );
  });

  it('when a sign-in is refused for its password, then the sign-in refusals count it as credentials', async () => {
    const before = await scrape();
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'wrong-password-8812' }),
    });
    expect(res.status).toBe(401);
    const after = await scrape();
    const credentials = { reason: 'credentials' };
    expect(sample(after, 'platform_sign_in_refusals_total', credentials)).toBe(
      sample(before, 'platform_sign_in_refusals_total', credentials) + 1,
    );
  });

  it('when a client signs in beyond its bucket, then the sign-in refusals count it as throttled', async () => {
    // The same app with a bucket of one sign-in per minute per address.
    const signIn = { ...t.config.signIn, perClient: { limit: 1, windowSeconds: 60 } };
    const strict = createServer(
      createApp({
        config: { ...t.config, signIn },
        db: { knex: t.knex },
        storage: t.storage,
        changes: t.changes,
        logger: createLogger('silent'),
        metrics,
      }),
    );
    const strictUrl = await listen(strict);
    try {
      const before = await scrape();
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${strictUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'admin123' }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 429]);
      const after = await scrape();
      expect(sample(after, 'platform_sign_in_refusals_total', { reason: 'throttled' })).toBe(
        sample(before, 'platform_sign_in_refusals_total', { reason: 'throttled' }) + 1,
      );
      const limited = { operation: 'login', status_class: '4xx' };
      expect(sample(after, 'platform_http_requests_total', limited)).toBe(
        sample(before, 'platform_http_requests_total', limited) + 1,
      );
    } finally {
      await close(strict);
    }
  });

  it('when an export has streamed, then it was counted and none is left in flight', async () => {
    const res = await get('/api-system/clusters/export');
    expect(res.status).toBe(200);
    await res.text();
    const after = await scrape();
    expect(sample(after, 'platform_http_requests_total', { operation: 'exportClusters', status_class: '2xx' })).toBe(1);
    expect(after).toMatch(/^platform_exports_in_flight 0$/m);
  });

  it('when one caller asks twice, then the standing cache counts its lookups, and a local write resets it', async () => {
    const lookups = (text: string, outcome: string) =>
      sample(text, 'platform_cache_lookups_total', { cache: 'standing', outcome });
    const before = await scrape();
    expect((await get('/api-system/clusters')).status).toBe(200);
    expect((await get('/api-system/clusters')).status).toBe(200);
    const read = await scrape();
    // Each request looks its caller up once: the second finds what the first loaded (or both find an earlier load).
    expect(lookups(read, 'hit') + lookups(read, 'miss')).toBe(lookups(before, 'hit') + lookups(before, 'miss') + 2);
    expect(lookups(read, 'hit')).toBeGreaterThan(lookups(before, 'hit'));
    // A sign-in opens a session, a table the caches read: this process empties every cache at once.
    await t.login('admin');
    const after = await scrape();
    expect(sample(after, 'platform_cache_resets_total')).toBeGreaterThan(sample(read, 'platform_cache_resets_total'));
  });

  it('when the shipped Grafana dashboard is read, then every metric its queries name is one this server exports', async () => {
    // Traffic first, so every histogram has buckets to export.
    expect((await get('/api-system/clusters')).status).toBe(200);
    const exported = exportedNames(await scrape());
    const dashboard = JSON.parse(readFileSync('docs/grafana/platform-admin.json', 'utf8')) as Dashboard;
    const queries = [
      ...dashboard.panels.flatMap((panel) =>
        panel.targets.map((target) => ({ panel: panel.title, expr: target.expr })),
      ),
      ...dashboard.templating.list.flatMap((v) =>
        v.query?.includes('(') ? [{ panel: 'variables', expr: v.query }] : [],
      ),
    ];
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    const unknown: string[] = [];
    for (const { panel, expr } of queries) {
      const names = metricsOf(expr.replace(/^label_values\((\w+),.*$/, '$1'));
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      unknown.push(...names.filter((name) => !exported.has(name)).map((name) => `${panel}: ${name}`));
    }
    expect(unknown).toEqual([]);
  });

  it('when records, unknown ids and unknown paths are addressed, then no label carries an id or a path', async () => {
    const cluster = await aCluster(t);
    await get(`/api-system/clusters/${cluster.id}`);
    await get(`/api-system/clusters/${randomUUID()}`);
    await get(`/api-system/clusters?search=${randomUUID()}`);
    await get(`/no-such-place/${randomUUID()}`);
    const text = await scrape();
    expect(text).not.toMatch(UUID);
    expect(text).not.toContain('no-such-place');
    const known = new Set(['none', ...operationsOf(loadApiSpec()).map((op) => op.id)]);
    const labelled = [...text.matchAll(/operation="([^"]*)"/g)].map((m) => m[1]!);
    expect(labelled).toContain('getCluster');
    expect(labelled.filter((op) => !known.has(op))).toEqual([]);
  });
});

describe('the metrics listener of a started server', () => {
  it('when METRICS_PORT is set, then /metrics answers there with the token and the public port has none', async () => {
    const running = await start({
      NODE_ENV: 'test',
      DATABASE_URL: 'memory://',
      PORT: '0',
      METRICS_PORT: '0',
      METRICS_TOKEN: TOKEN,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'x'.repeat(32),
    });
    try {
      expect(running.metricsUrl).not.toBeNull();
      expect(running.metricsUrl).not.toBe(running.url);
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${running.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(
        404,
      );
      expect((await fetch(`${running.metricsUrl}/metrics`)).status).toBe(401);
      const res = await fetch(`${running.metricsUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sample(await res.text(), 'platform_http_requests_total', { operation: 'getHealth' })).toBe(1);
    } finally {
      await running.stop();
    }
  });

  it('when METRICS_PORT is the public port or the token is short, then the configuration is refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', PORT: '4000', METRICS_PORT: '4000' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must have at least 16 characters/,
    );
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'memory://' }).metrics.port).toBeNull();
  });
});
