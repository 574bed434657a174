// What an operator meets at the edges of a fresh clone: a probe at a path that does not exist is told so (404), not
// handed the console; `npm run migrate -- status` only looks; the first start says what it created; and a backup is
// written where git will not pick it up.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBackupFile } from '../../server/src/cli/backup.js';
import { migrate } from '../../server/src/cli/migrate.js';
import { firstStartSummary } from '../../server/src/db/seed/index.js';
import { freePort, startProcess, waitForHttp } from '../support/processes.js';
import { startTestServer, type TestServer } from './support/index.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-edges-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('paths outside the API and the console', () => {
  let t: TestServer;
  const consoleDir = path.join(work, 'console');
  beforeAll(async () => {
    mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
    writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(consoleDir, 'assets', 'index-AbCd12_-.js'), 'console.log(1);\n');
    t = await startTestServer('pglite', { seed: false, env: { CONSOLE_DIR: consoleDir } });
  });
  afterAll(() => t?.close());

  it('when a probe or a crawler asks for a path that does not exist, then it gets a 404 problem naming what does', async () => {
    for (const p of [
      '/metrics',
      '/health',
      '/status',
      '/robots.txt',
      '/clusters/3b0f5a52/edit',
      '/assets/gone-AbCd12_-.js',
    ]) {
      for (const accept of ['*/*', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
        const res = await t.fetch(p, { headers: { Accept: accept } });
        expect(res.status, `${p} (${accept})`).toBe(404);
        expect(res.headers.get('content-type'), p).toMatch(/^application\/problem\+json/);
        const body = (await res.json()) as {
          type: string;
          title: string;
          status: number;
          detail: string;
          instance: string;
        };
        expect(body).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404, instance: p });
        expect(body.detail, p).toContain(`No route for GET ${p}`);
        for (const named of ['console at /', '/api', '/api-system', '/healthz', '/readyz', '/docs'])
          expect(body.detail, p).toContain(named);
      }
    }
    // The same shape as an unknown API path's answer.
    const api = (await (await t.fetch('/api/nothing-here')).json()) as Record<string, unknown>;
    const site = (await (await t.fetch('/metrics')).json()) as Record<string, unknown>;
    expect(Object.keys(site).sort()).toEqual(Object.keys(api).sort());
  });

  it('when a write is sent to a path that does not exist, then it gets the same 404 problem, never an HTML page', async () => {
    for (const [method, p] of [
      ['POST', '/metrics'],
      ['PUT', '/'],
      ['DELETE', '/robots.txt'],
    ] as const) {
      const res = await t.fetch(p, { method });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.headers.get('content-type'), `${method} ${p}`).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { detail: string }).detail).toContain(`No route for ${method} ${p}`);
    }
  });

  it('when the console itself is asked for, then it is still served: its page, its index and its built files', async () => {
    for (const p of ['/', '/index.html', '/?lang=en']) {
      const res = await t.fetch(p, { headers: { Accept: 'text/html' } });
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toContain('<div id="root">');
    }
    expect((await t.fetch('/assets/index-AbCd12_-.js')).status).toBe(200);
  });

  it('when the console is not built, then its page is a 404 problem saying how to build it', async () => {
    const unbuilt = await startTestServer('pglite', {
      seed: false,
      env: { CONSOLE_DIR: path.join(work, 'no-console') },
    });
    try {
      const res = await unbuilt.fetch('/', { headers: { Accept: 'text/html' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/The console is not built.*npm run build/);
    } finally {
      await unbuilt.close();
    }
  });
});

describe('npm run migrate -- status or down on a data directory without a database', () => {
  it.each(['status', 'down'])(
    'when no database exists yet, then %s says so in one line, exits 0 and creates nothing',
    async (command) => {
      for (const dataDir of [
        mkdtempSync(path.join(work, `empty-${command}-`)),
        path.join(work, `never-made-${command}`),
      ]) {
        const result = await migrate(command, { DATA_DIR: dataDir, DATABASE_URL: '' });
        const dbDir = path.join(dataDir, 'db');
        expect(result).toEqual({
          output: [`no database at ${dbDir} yet: the first \`npm start\` or \`npm run migrate\` creates it`],
          exitCode: 0,
        });
        expect(existsSync(dataDir) ? readdirSync(dataDir) : [], dataDir).toEqual([]);
      }
    },
  );
});

describe('the first start', () => {
  it('when it creates the data, then its message says what it created: the admin only, or the admin and the demo', () => {
    expect(firstStartSummary({ seedDemo: false })).toBe(
      'first start: created the admin account only (SEED_DEMO is off: no demo tenants or accounts)',
    );
    expect(firstStartSummary({ seedDemo: true })).toBe(
      'first start: created the admin account and the demo tenants and accounts',
    );
  });

  it('when a production server starts on a fresh data directory, then it logs that it created the admin account only', async () => {
    const port = await freePort();
    const server = startProcess('node_modules/.bin/tsx', ['server/src/main.ts'], {
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: path.join(work, 'production-data'),
      DATABASE_URL: '',
      JWT_SECRET: 'j'.repeat(48),
      ADMIN_PASSWORD: 'a-production-password',
      SEED_DEMO: '',
      TRUST_PROXY: '',
      LOG_LEVEL: 'info',
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 90_000);
      const output = server.output();
      expect(output).toContain('first start: created the admin account only');
      expect(output).not.toMatch(/seeded demo data/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('npm run backup', () => {
  const ignored = (file: string) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', file]);
      return true;
    } catch {
      return false;
    }
  };

  it('when no file is named, then the backup goes under var/backups/, which git ignores, as it does an old backups/', () => {
    const file = defaultBackupFile();
    expect(path.relative(process.cwd(), file)).toMatch(/^var[/\\]backups[/\\]platform-admin-db-\d{8}T\d{6}Z\.tar\.gz$/);
    expect(ignored(path.relative(process.cwd(), file))).toBe(true);
    expect(ignored('backups/platform-admin-db-20260101T000000Z.tar.gz')).toBe(true);
  });
});
