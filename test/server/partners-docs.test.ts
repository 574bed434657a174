// docs/partners.md, followed as printed: a fresh token of a new service account, then every shell step and the
// TypeScript sample of the page, run against a real server. A step that fails here fails a partner the same way.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCluster, adminToken, bodyOf, unique } from '../support/factory.js';
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
  let dir: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    const admin = await adminToken(t);
    // What the administrator does in the console, through the same operations.
    const cluster = await aCluster(t);
    clusterCode = cluster.code;
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
    await t?.close();
  });

  const env = () => ({ ...process.env, PLATFORM_URL: t.baseUrl, PLATFORM_TOKEN: token });

  it('when the shell steps are run with the token, then each succeeds and reads what the token may read', async () => {
    const [setup, ...steps] = blocks('sh');
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
    expect(steps.length).toBe(4);
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
});
