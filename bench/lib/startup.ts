import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './processes.js';

export interface StartupResult {
  /** seconds from spawning `npm start` to a 200 from /healthz: empty data directory (initdb, migrations, seed) */
  cold: number;
  /** the same on the directory the cold start left behind */
  warm: number;
}

/** Runs `npm start` (embedded PGlite) once and returns the seconds until /healthz answers 200; then stops it. */
async function timeOneStart(dataDir: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  // Own process group, so the stop reaches npm, tsx and node alike.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SKIP_UI_BUILD: '1',
      NODE_ENV: 'development',
      DATABASE_URL: '',
    },
  });
  let stderr = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start gave no listening line in ${timeoutMs} ms\n${stderr}`)),
        timeoutMs,
      );
      child.stderr.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000);
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited with ${code}\n${stderr}`));
      });
    });
    const res = await fetch(`${url}/healthz`);
    if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
    return (performance.now() - started) / 1000;
  } finally {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(-child.pid, 'SIGTERM');
      const kill = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
    }
  }
}

export async function measureStartup(timeoutMs = 120_000): Promise<StartupResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
  try {
    const cold = await timeOneStart(dir, timeoutMs);
    const warm = await timeOneStart(dir, timeoutMs);
    return { cold, warm };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
