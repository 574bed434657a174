// `npm start` in development: /docs and the published contract from the first start, the docs rebuilt when the
// contract changes, the console rebuilt when its sources are newer than its build, and the start-up warnings.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleBuildState } from '../../scripts/lib/console-build.js';
import { ensureDocs } from '../../scripts/lib/docs.js';
import { bundleHash } from '../../server/src/http/published-spec.js';
import { docsMarker } from '../../server/src/http/static.js';
import { freePort, startProcess, waitForHttp } from '../support/processes.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-start-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm start (development)', () => {
  it('when started on a fresh data directory, then /docs, /openapi.json and /openapi.yaml answer from the first start, and the JWT warning is shown', async () => {
    const port = await freePort();
    const server = startProcess('node_modules/.bin/tsx', ['scripts/start.ts'], {
      PORT: String(port),
      DATA_DIR: path.join(work, 'data'),
      SKIP_UI_BUILD: '1',
      DATABASE_URL: '',
      JWT_SECRET: '',
      LOG_LEVEL: 'warn',
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 90_000);
      const docs = await fetch(`http://127.0.0.1:${port}/docs`);
      expect(docs.status, server.output()).toBe(200);
      const html = await docs.text();
      expect(html).toContain(docsMarker(bundleHash(readFileSync('openapi/generated/openapi.bundled.json', 'utf8'))));
      expect(html).toContain(`http://127.0.0.1:${port}/api-system/clusters`);
      const json = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await json.json()) as { openapi: string }).openapi).toBe('3.0.3');
      expect((await fetch(`http://127.0.0.1:${port}/openapi.yaml`)).headers.get('content-type')).toMatch(
        /^application\/yaml/,
      );
      expect(server.output()).toMatch(/Warning: JWT_SECRET is not set.*Replicas/);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('when TRUST_PROXY=true in production, then the start fails at once with one line saying what to write instead', async () => {
    const server = startProcess('node_modules/.bin/tsx', ['server/src/main.ts'], {
      NODE_ENV: 'production',
      TRUST_PROXY: 'true',
      PORT: String(await freePort()),
      DATA_DIR: path.join(work, 'production-data'),
      DATABASE_URL: '',
      JWT_SECRET: 'j'.repeat(48),
      ADMIN_PASSWORD: 'a-production-password',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    });
    try {
      // A refused configuration ends the process before any database is opened; one that starts would never exit.
      const code = await new Promise<number | null>((resolve) => {
        server.child.once('exit', (c) => resolve(c));
        setTimeout(() => resolve(null), 45_000).unref();
      });
      expect(code, server.output()).toBe(1);
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('TRUST_PROXY'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /TRUST_PROXY=true trusts every X-Forwarded-For hop.*write the number of proxies in front of the server \(TRUST_PROXY=1/,
      );
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('when the contract changes, then the docs page is rebuilt for it (keyed by the bundle hash) and the old one removed', () => {
    const root = path.join(work, 'repo');
    mkdirSync(path.join(root, 'openapi', 'generated'), { recursive: true });
    const bundleFile = path.join(root, 'openapi', 'generated', 'openapi.bundled.json');
    cpSync('openapi/generated/openapi.bundled.json', bundleFile);

    const first = ensureDocs(root);
    expect(first.built).toBe(true);
    expect(ensureDocs(root)).toEqual({ file: first.file, built: false });

    const spec = JSON.parse(readFileSync(bundleFile, 'utf8')) as { info: { title: string } };
    spec.info.title = 'Platform Administration API, changed';
    writeFileSync(bundleFile, JSON.stringify(spec, null, 2));
    const second = ensureDocs(root);
    expect(second.built).toBe(true);
    expect(second.file).not.toBe(first.file);
    expect(readFileSync(second.file, 'utf8')).toContain('Platform Administration API, changed');
    expect(readdirSync(path.dirname(second.file))).toEqual([path.basename(second.file)]);
  }, 60_000);

  it('when a console source is newer than the build, then the build is stale; when the build is newer, fresh; without one, missing', () => {
    const root = path.join(work, 'console-repo');
    mkdirSync(path.join(root, 'admin-ui', 'src'), { recursive: true });
    writeFileSync(path.join(root, 'admin-ui', 'src', 'App.tsx'), 'export {};');
    writeFileSync(path.join(root, 'admin-ui', 'index.html'), '<!doctype html>');
    expect(consoleBuildState(root)).toBe('missing');

    mkdirSync(path.join(root, 'admin-ui', 'dist'), { recursive: true });
    const built = path.join(root, 'admin-ui', 'dist', 'index.html');
    writeFileSync(built, '<!doctype html>');
    const past = new Date(Date.now() - 60_000);
    for (const p of [
      path.join(root, 'admin-ui', 'src', 'App.tsx'),
      path.join(root, 'admin-ui', 'src'),
      path.join(root, 'admin-ui', 'index.html'),
    ])
      utimesSync(p, past, past);
    expect(consoleBuildState(root)).toBe('fresh');

    writeFileSync(path.join(root, 'admin-ui', 'src', 'App.tsx'), 'export const changed = true;');
    expect(consoleBuildState(root)).toBe('stale');
  });
});
