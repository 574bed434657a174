// The memory of a whole-list export: starts the service on a benchmark database, downloads the CSV export of every
// business unit (soft-deleted ones included), samples the server's RSS every 100 ms, and prints rows, seconds, and
// RSS before, at peak and after. An export streams from a database cursor, so the peak stays near the idle figure
// whatever the row count.
//
//   npx tsx bench/export-memory.ts [--database-url postgres://postgres@127.0.0.1:5432/bench_s100]
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './lib/cli.js';
import { rssMb } from './lib/harness.js';
import { spawnReady } from './lib/processes.js';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/bench_s100';
const CRLF = Buffer.from('\r\n');

async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${username} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Downloads the export, counting its bytes and its CRLF-terminated lines as they arrive. */
async function download(url: string, token: string): Promise<{ bytes: number; lines: number }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200 || !res.body) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  let carry = Buffer.alloc(0);
  for await (const chunk of res.body) {
    const buf = Buffer.concat([carry, Buffer.from(chunk as Uint8Array)]);
    bytes += (chunk as Uint8Array).length;
    for (let at = buf.indexOf(CRLF); at >= 0; at = buf.indexOf(CRLF, at + 2)) lines++;
    carry = buf.subarray(buf.length - 1);
  }
  return { bytes, lines };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const databaseUrl = args.get('database-url') ?? DEFAULT_URL;
  const server = await spawnReady('bench/lib/server-process.ts', {
    ...process.env,
    NODE_ENV: 'production',
    // Production asks a super admin to set up a second factor first; the run's accounts sign in with a password.
    SECOND_FACTOR_REQUIRED: 'none',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(36).toString('base64url'),
    ADMIN_PASSWORD: 'admin123',
    DEMO_PASSWORD: 'demo1234',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(os.tmpdir(), 'bench-export-memory-data'),
  });
  const pid = server.process.pid;
  try {
    const token = await signIn(server.url, 'admin', 'admin123');
    const before = rssMb(pid);
    let peak = before ?? 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid) ?? 0);
    }, 100);
    const started = performance.now();
    const { bytes, lines } = await download(
      `${server.url}/api-system/business-units/export?deleted=include`,
      token,
    ).finally(() => clearInterval(sampler));
    const seconds = (performance.now() - started) / 1000;
    const after = rssMb(pid);
    peak = Math.max(peak, after ?? 0);
    const mb = (v: number | undefined) => (v === undefined ? 'n/a' : `${v.toFixed(1)} MB`);
    console.log(`database   ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
    console.log(`rows       ${lines - 1} (${(bytes / 1024 / 1024).toFixed(1)} MB of CSV)`);
    console.log(`seconds    ${seconds.toFixed(2)}`);
    console.log(`RSS        before ${mb(before)}, peak ${mb(peak)}, after ${mb(after)}`);
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
