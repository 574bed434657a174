import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  url: string;
  process: ChildProcess;
  /** milliseconds from spawn to the READY line */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * Starts an entry under node and waits for its `READY <url>` line: a TypeScript entry through tsx, a JavaScript one
 * with plain node. Output after READY is discarded (request logs would otherwise cost the harness CPU); the tail of
 * stderr is kept for error messages.
 */
export function spawnReady(
  entry: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
  nodeArgs: string[] = [],
): Promise<Child> {
  const started = performance.now();
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not become ready in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      buffered += d.toString();
      const m = /^READY (\S+)$/m.exec(buffered);
      if (!m) {
        buffered = buffered.slice(-4000);
        return;
      }
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({
        url: m[1]!,
        process: child,
        readyMs: performance.now() - started,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before it was ready\n${stderr}`));
    });
  });
}
