// `npm run build` makes a tree that runs with production dependencies only: installed with `npm ci --omit=dev` from
// the npm cache (no network) in a directory of its own, started with `npm start` on PostgreSQL, it serves the API,
// the console and the docs, and an operator signs in.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../reliability/support.js';
import { freePort, startProcess, waitForHttp, type Started } from '../support/processes.js';
import { BUILD, INSTALL_PRODUCTION, START, runStep } from './production-steps.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-build-'));
const out = path.join(work, 'dist');
let server: Started | null = null;
let database: { url: string; drop(): Promise<void> } | null = null;
let baseUrl = '';
const ADMIN_PASSWORD = 'a-strong-admin-password';

beforeAll(async () => {
  runStep(BUILD, ['--', '--out', out]);
  runStep(INSTALL_PRODUCTION, [], out);
  database = await createPgDatabase('build');
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startProcess('npm', ['--prefix', out, 'start', '--silent'], {
    // Nothing of the repository: the built tree alone, in production.
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: database.url,
    JWT_SECRET: 'j'.repeat(48),
    ADMIN_PASSWORD,
    DEMO_PASSWORD: 'another-strong-password',
    LOG_LEVEL: 'warn',
    CONSOLE_DIR: '',
  });
  await waitForHttp(`${baseUrl}/readyz`, 120_000).catch((e: unknown) => {
    throw new Error(`the built server did not start:\n${server?.output()}\n${String(e)}`);
  });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the production build', () => {
  it('when built, then dist holds the compiled server, the console, the docs and a lock of production dependencies only', () => {
    for (const p of [
      'server/main.js',
      'server/src/main.js',
      'server/src/cli/migrate.js',
      'openapi/generated/openapi.bundled.json',
      'console/index.html',
      'api-docs/index.html',
      'package-lock.json',
    ]) {
      expect(existsSync(path.join(out, p)), p).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(path.join(out, 'package.json'), 'utf8')) as {
      devDependencies?: unknown;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts.start).toBe(START.join(' '));
    for (const dev of ['vite', 'typescript', 'tsx', '@redocly/cli', 'vitest', 'react'])
      expect(existsSync(path.join(out, 'node_modules', dev)), `${dev} is not installed`).toBe(false);
    expect(readdirSync(path.join(out, 'console', 'assets')).some((f) => f.endsWith('.js.br'))).toBe(true);
  });

  it('when started with production dependencies only on PostgreSQL, then it is ready and the admin signs in', async () => {
    const ready = (await (await fetch(`${baseUrl}/readyz`)).json()) as { status: string };
    expect(ready.status).toBe('ready');
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status, server?.output()).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const me = await fetch(`${baseUrl}/api/user/permission/platform`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(((await me.json()) as { is_super_admin: boolean }).is_super_admin).toBe(true);
  });

  it('when the console and the docs are asked for, then the built ones are served, assets compressed and immutable', async () => {
    const index = await fetch(`${baseUrl}/`, { headers: { Accept: 'text/html' } });
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const res = await rawGet(`${baseUrl}${asset}`, { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const docs = await fetch(`${baseUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain(`${baseUrl}/api-system/clusters`);
  });
});
