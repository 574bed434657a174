// The quick start on Node 20, whatever Node runs the suite (CI runs it on 24). A fresh copy of the checkout (its
// tracked and new files, no build, no ./var) shares this install's node_modules, and `npm start` runs there with
// Node 20 first on PATH: the console and the docs are built, the embedded database is created with the demo data,
// `/readyz` answers and the demo admin signs in. NODE20_BIN names the Node 20 binary (.ci/run passes the machine's).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../server/src/config-schema.js';
import { freePort, waitForHttp } from '../support/processes.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const node20 = process.env.NODE20_BIN ?? process.execPath;
const work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-node20-'));
const copy = path.join(work, 'platform-admin');
let child: ChildProcess | null = null;
let output = '';
let baseUrl = '';

function versionOf(bin: string): string {
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
}

/** The pids of `root` and every process below it (Linux /proc). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

beforeAll(async () => {
  const version = versionOf(node20);
  if (!version.startsWith('v20.'))
    throw new Error(
      `NODE20_BIN must name a Node 20 binary (it is ${node20}, ${version}); .ci/run passes the machine's Node 20 or installs one.`,
    );
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && existsSync(path.join(repo, f)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(repo, file), path.join(copy, file));
  }
  symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  // `node` (and so npm, tsx and vite, which start through `env node`) is Node 20.
  const bin = path.join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(node20, path.join(bin, 'node'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...SETTINGS.map((s) => s.name), 'NODE_OPTIONS', 'SKIP_UI_BUILD']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name.startsWith('npm_')) delete env[name];
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  child = spawn('npm', ['start'], {
    cwd: copy,
    env: { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ''}`, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  await waitForHttp(`${baseUrl}/readyz`, 90_000).catch((e: unknown) => {
    throw new Error(`npm start on Node 20 did not serve /readyz:\n${output}\n${String(e)}`);
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child?.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  }
  rmSync(work, { recursive: true, force: true });
});

describe('the quick start on Node 20', () => {
  it('when `npm start` runs in a fresh copy, then every process it starts is Node 20 and it built the console', () => {
    const node20Path = realpathSync(node20);
    const nodes = processTree(child!.pid!).filter((pid) => {
      try {
        return path.basename(readlinkSync(`/proc/${pid}/exe`)).startsWith('node');
      } catch {
        return false;
      }
    });
    // npm, and the server tsx starts.
    expect(nodes.length, output).toBeGreaterThanOrEqual(2);
    for (const pid of nodes) expect(readlinkSync(`/proc/${pid}/exe`)).toBe(node20Path);
    expect(existsSync(path.join(copy, 'admin-ui', 'dist', 'index.html')), output).toBe(true);
    expect(existsSync(path.join(copy, 'var', 'db')), output).toBe(true);
  });

  it('when it is ready, then the demo admin signs in and sees the demo data', async () => {
    const ready = (await (await fetch(`${baseUrl}/readyz`)).json()) as { status: string };
    expect(ready.status, output).toBe('ready');
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin123' }),
    });
    expect(login.status, output).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const clusters = await fetch(`${baseUrl}/api-system/clusters?perpage=100`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(clusters.status).toBe(200);
    // A production-like start creates the admin alone: the quick start adds the demo tenants.
    const { data } = (await clusters.json()) as { data: unknown[] };
    expect(data.length).toBeGreaterThan(0);
    const console = await fetch(`${baseUrl}/`, { headers: { Accept: 'text/html' } });
    expect(await console.text()).toContain('<div id="root">');
  });
});
