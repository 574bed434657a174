// Soak: a mixed load at a fixed rate for three minutes against a server on PostgreSQL (the production set-up; the
// crash suite covers the embedded PGlite). Zero errors; the RSS and the event-loop delay of the server process stay flat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  createPgDatabase,
  loginAt,
  startServerProcess,
  type ServerProcess,
} from './support.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const RATE = Number(process.env.SOAK_RATE ?? 40); // requests per second
const PROBE = path.join(import.meta.dirname, 'soak', 'probe.mjs');

interface Sample {
  t: number;
  rss_mb: number;
  heap_mb: number;
  eld_mean_ms: number;
  eld_p99_ms: number;
  eld_max_ms: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

describe('soak', () => {
  let server: ServerProcess;
  let dataDir: string;
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'soak-'));
    db = await createPgDatabase('soak');
    server = await startServerProcess(
      { DATABASE_URL: db.url, DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' },
      { preload: PROBE },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`serves ${RATE} mixed requests a second for ${SECONDS} s with zero errors, RSS and event-loop delay flat`, async () => {
    const base = server.url;
    let admin = (await loginAt(base, 'admin', ADMIN_PASSWORD)).access;
    const viewer = (await loginAt(base, 'viewer', DEMO_PASSWORD)).access;
    let refresh = (await loginAt(base, 'editor-a', DEMO_PASSWORD)).refresh;
    const call = (method: string, p: string, token: string | undefined, json?: unknown) =>
      fetch(base + p, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: json === undefined ? undefined : JSON.stringify(json),
        signal: AbortSignal.timeout(10_000),
      });
    const created = (await (
      await call('POST', '/api-system/clusters', admin, { code: `SOAK-${randomUUID().slice(0, 6)}`, name: 'Soak' })
    ).json()) as { id: string };
    const template = (
      (await (await call('GET', '/api-system/report-templates?perpage=1', admin)).json()) as {
        data: Array<{ id: string }>;
      }
    ).data[0]!.id;

    // Each step is one request and the statuses it may answer; some steps chain (create → delete).
    let n = 0;
    const mappings: string[] = [];
    const steps: Array<() => Promise<[Response, number[]]>> = [
      async () => [await call('GET', '/api-system/clusters?perpage=20&sort=name:asc', admin), [200]],
      async () => [await call('GET', `/api-system/business-units?search=a&perpage=10`, viewer), [200]],
      async () => [await call('GET', `/api-system/clusters/${created.id}`, admin), [200]],
      async () => [
        await call('PUT', `/api-system/clusters/${created.id}`, admin, {
          code: `SOAK-${created.id.slice(0, 6)}`,
          name: `Soak ${++n}`,
        }),
        [200],
      ],
      async () => [
        await call('GET', '/api-system/print-template-mappings/resolve?document_type=PO', viewer),
        [200, 404],
      ],
      async () => [await call('GET', '/api/proxy/api/datasets/tenancy.licence-use-by-cluster/values', viewer), [200]],
      async () => [await call('GET', '/api/proxy/api/approval/pending', viewer), [200]],
      async () => {
        const res = await call('POST', '/api-system/print-template-mappings', admin, {
          document_type: 'GRN',
          report_template_id: template,
          is_default: n % 3 === 0,
          display_label: `Soak ${n}`,
        });
        if (res.status === 201) mappings.push(((await res.clone().json()) as { id: string }).id);
        return [res, [201]];
      },
      async () => {
        const id = mappings.shift();
        return id
          ? [await call('DELETE', `/api-system/print-template-mappings/${id}`, admin), [204]]
          : [await call('GET', '/healthz', undefined), [200]];
      },
      async () => [await call('GET', '/api/user/permission/platform', viewer), [200]],
    ];
    const rareSteps: Array<() => Promise<[Response, number[]]>> = [
      async () => {
        const res = await call('POST', '/api/auth/refresh-token', undefined, { refresh_token: refresh });
        if (res.status === 200) refresh = ((await res.clone().json()) as { refresh_token: string }).refresh_token;
        return [res, [200]];
      },
      async () => {
        const res = await call('POST', '/api/auth/login', undefined, { username: 'admin', password: ADMIN_PASSWORD });
        if (res.status === 200) admin = ((await res.clone().json()) as { access_token: string }).access_token;
        return [res, [200]];
      },
    ];

    const errors: string[] = [];
    const latencies: number[] = [];
    let sent = 0;
    const inflight = new Set<Promise<void>>();
    const fire = (i: number) => {
      const step = i % 50 === 0 ? rareSteps[(i / 50) % rareSteps.length]! : steps[i % steps.length]!;
      const started = performance.now();
      const p = step()
        .then(async ([res, ok]) => {
          latencies.push(performance.now() - started);
          if (!ok.includes(res.status))
            errors.push(`#${i} ${res.url} → ${res.status} ${(await res.text()).slice(0, 200)}`);
          else await res.arrayBuffer();
        })
        .catch((err: unknown) => {
          errors.push(`#${i} failed: ${String(err)}`);
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
      sent++;
    };

    const start = performance.now();
    const total = SECONDS * RATE;
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      fire(i);
    }
    await Promise.all([...inflight]);
    const elapsed = (performance.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 2_500));

    const samples: Sample[] = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('SOAK-PROBE '))
      .map((l) => JSON.parse(l.slice('SOAK-PROBE '.length)) as Sample);
    const t0 = samples.find((s) => s.t >= Date.now() - elapsed * 1000 - 5_000)?.t ?? samples[0]!.t;
    const window = (from: number, to: number) => samples.filter((s) => s.t - t0 >= from * 1000 && s.t - t0 < to * 1000);
    // Start: the first half-minute after a 10 s warm-up; end: the last half-minute of the load.
    const first = window(10, 40);
    const last = window(elapsed - 30, elapsed + 1);
    const summary = (xs: Sample[]) => ({
      rss_mb: median(xs.map((s) => s.rss_mb)),
      heap_mb: median(xs.map((s) => s.heap_mb)),
      eld_p99_ms: median(xs.map((s) => s.eld_p99_ms)),
      eld_mean_ms: median(xs.map((s) => s.eld_mean_ms)),
    });
    const startValues = summary(first);
    const endValues = summary(last);
    const sorted = [...latencies].sort((x, y) => x - y);
    console.log(
      `[soak] ${sent} requests in ${elapsed.toFixed(1)} s (${(sent / elapsed).toFixed(1)}/s), ${errors.length} errors; latency p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms`,
    );
    console.log(
      `[soak] start ${JSON.stringify(startValues)} → end ${JSON.stringify(endValues)} (${samples.length} probe samples)`,
    );

    expect(errors.slice(0, 20)).toEqual([]);
    expect(sent).toBe(total);
    expect(elapsed).toBeLessThan(SECONDS + 15);
    expect(first.length).toBeGreaterThan(5);
    expect(last.length).toBeGreaterThan(5);
    // Flat: memory settles instead of climbing with the request count, and the loop is as responsive at the end.
    expect(endValues.rss_mb).toBeLessThan(startValues.rss_mb * 1.25 + 24);
    expect(endValues.eld_p99_ms).toBeLessThan(Math.max(startValues.eld_p99_ms * 2, startValues.eld_p99_ms + 20));
    expect(endValues.eld_p99_ms).toBeLessThan(200);
  });
});
