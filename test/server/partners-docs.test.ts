// docs/partners.md, followed as printed: a fresh token of a new service account, then every shell step, the
// TypeScript sample and the webhook receiver of the page, run against a real server. A step that fails here fails a
// partner the same way.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCluster, adminToken, bodyOf, unique } from '../support/factory.js';
import { freePort } from '../support/processes.js';
import type { AuditEventRecord } from '../support/records.js';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../server/src/modules/webhooks/dispatcher.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const run = promisify(execFile);
const PAGE = readFileSync('docs/partners.md', 'utf8');

/** The page's code blocks of one language, in order. */
function blocks(lang: string): string[] {
  return [...PAGE.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

describe.each(engines())('the partner page on %s', (engine) => {
  let t: TestServer;
  let token: string;
  let clusterCode: string;
  let clusterId: string;
  let admin: string;
  let dir: string;
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    // The receiver below listens on loopback, which production refuses as a webhook target.
    t = await startTestServer(engine, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    admin = await adminToken(t);
    // The test plays main.ts's part: each server process runs the dispatcher.
    dispatcher = startWebhookDispatcher({
      knex: t.knex,
      logger: console,
      changes: t.changes,
      allowPrivateTargets: true,
    });
    // What the administrator does in the console, through the same operations.
    const cluster = await aCluster(t);
    clusterCode = cluster.code;
    clusterId = cluster.id;
    const account = await bodyOf<{ id: string }>(
      await t.fetch('/api-system/service-accounts', {
        method: 'POST',
        token: admin,
        json: { name: unique('partner').toLowerCase() },
      }),
      201,
    );
    await bodyOf(
      await t.fetch(`/api-system/users/${account.id}/grants`, {
        method: 'POST',
        token: admin,
        json: { permission_key: 'cluster.read', cluster_id: cluster.id },
      }),
      201,
    );
    token = (
      await bodyOf<{ token: string }>(
        await t.fetch(`/api-system/service-accounts/${account.id}/tokens`, {
          method: 'POST',
          token: admin,
          json: { name: 'docs', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
        }),
        201,
      )
    ).token;
    // Inside the repository, so the sample finds openapi-fetch as a partner's project would after `npm install`.
    mkdirSync('var', { recursive: true });
    dir = mkdtempSync(path.resolve('var', 'partners-docs-'));
  });
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await dispatcher?.stop();
    await t?.close();
  });

  const env = () => ({ ...process.env, PLATFORM_URL: t.baseUrl, PLATFORM_TOKEN: token });

  it('when the shell steps are run with the token, then each succeeds and reads what the token may read', async () => {
    const [setup, ...rest] = blocks('sh');
    // The calls and the TypeScript setup; the webhook's step is the last, with a receiver (the test below).
    const steps = rest.slice(0, 4);
    expect(setup).toContain('export PLATFORM_TOKEN=');
    const outputs: string[] = [];
    for (const step of steps) {
      // The install is a partner's own project setup; this repository has the package already.
      const script = step
        .split('\n')
        .filter((line) => !line.startsWith('npm install'))
        .join('\n');
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env: env() });
      outputs.push(stdout);
    }
    expect(rest.length).toBe(5);
    expect(JSON.parse(outputs[0]!)).toMatchObject({ is_super_admin: false, platform: [] });
    const clusters = JSON.parse(outputs[1]!) as { data: Array<{ code: string }> };
    expect(clusters.data.map((c) => c.code)).toEqual([clusterCode]);
    expect(JSON.parse(outputs[2]!)).toMatchObject({ data: [], paginate: { total: 0 } });
    expect(readFileSync(path.join(dir, 'platform-api.d.ts'), 'utf8')).toContain('"/api-system/clusters"');
  });

  it('when the TypeScript sample is run with the token, then it prints the clusters the token may read', async () => {
    const [sample] = blocks('ts');
    expect(sample).toContain("from 'openapi-fetch'");
    writeFileSync(path.join(dir, 'sample.ts'), sample!);
    writeFileSync(path.join(dir, 'platform-api.d.ts'), readFileSync('openapi/generated/schema.d.ts', 'utf8'));
    const { stdout } = await run(path.resolve('node_modules/.bin/tsx'), ['sample.ts'], { cwd: dir, env: env() });
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${clusterCode} `))]);
  });

  it('when the page names the token format, then a real token matches it', () => {
    const format = /`(pa_\[0-9a-f\]\{12\}_\[A-Za-z0-9_-\]\{43\})`/.exec(PAGE)?.[1];
    expect(format).toBeDefined();
    expect(token).toMatch(new RegExp(`^${format!}$`));
  });

  it('when the webhook step and the receiver are run, then a change the token may read arrives, signed', async () => {
    const port = await freePort();
    const subscribe = blocks('sh').at(-1)!;
    expect(subscribe).toContain('/api-system/webhooks');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', subscribe], {
      cwd: dir,
      env: { ...env(), RECEIVER_URL: `http://127.0.0.1:${port}/hooks/platform` },
    });
    // What a reader copies from the answer.
    const { secret } = JSON.parse(stdout) as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    const [receiverSample] = blocks('js');
    writeFileSync(path.join(dir, 'receiver.mjs'), receiverSample!);
    const receiver = spawn(process.execPath, ['receiver.mjs'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), PLATFORM_WEBHOOK_SECRET: secret },
    });
    let printed = '';
    receiver.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      await waitUntil(() => listening(port));
      // An operator renames the cluster in the console; the token's account reads that cluster.
      const res = await t.fetch(`/api-system/clusters/${clusterId}`, {
        method: 'PUT',
        token: admin,
        json: { code: clusterCode, name: `Renamed ${clusterCode}` },
      });
      expect(res.status).toBe(200);
      const [event] = await t
        .knex<AuditEventRecord>('audit_events')
        .where({ action: 'updateCluster', target_id: clusterId })
        .select('id');
      await waitUntil(() => Promise.resolve(printed.includes(`${event!.id} updateCluster`)), 30_000);
    } finally {
      receiver.kill();
    }
  });
});

function listening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(
    () => true,
    () => false,
  );
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
