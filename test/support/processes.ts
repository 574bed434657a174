// Starts and stops the helper processes tests need (the Prism mock, the server), on free loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until `accepted` takes its answer or the deadline passes; `gone` ends the wait early. */
async function pollHttp(
  url: string,
  timeoutMs: number,
  accepted: (res: Response) => boolean,
  init?: RequestInit,
  gone?: () => string | null,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const why = gone?.();
    if (why) throw new Error(`${why} before ${url} answered`);
    try {
      const res = await fetch(url, init);
      if (accepted(res)) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${last}`);
}

/** Polls `url` until it answers (any status) or the deadline passes. */
export function waitForHttp(url: string, timeoutMs = 30_000, init?: RequestInit): Promise<void> {
  return pollHttp(url, timeoutMs, () => true, init);
}

/**
 * Waits until `url` answers `started`'s server with a success, failing at once if the process exits (a port taken
 * meanwhile, a crash): another listener's refusal on the same port (a 404) is not taken for this server being up.
 */
export function waitForServer(started: Started, url: string, timeoutMs = 60_000): Promise<void> {
  const { child } = started;
  return pollHttp(
    url,
    timeoutMs,
    (res) => res.ok,
    undefined,
    () =>
      child.exitCode !== null || child.signalCode !== null
        ? `the process exited (${child.exitCode ?? child.signalCode})`
        : null,
  );
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
