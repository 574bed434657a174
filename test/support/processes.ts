// Starts and stops the helper processes tests need (the Prism mock, the server), on free loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the range the kernel draws from for port 0 and for every outgoing connection's local end. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port for a child process to listen on, free when asked. It is drawn below the kernel's ephemeral range: a port
 * from that range (what `listen(0)` gives) can be taken, before the child binds it, by the local end of any outgoing
 * connection on the machine, and the tests beside this one make thousands (the e2e server once failed to start with
 * "port already in use" that way).
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = Math.min(10_000, high - 1_000);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${low} and ${high} after 200 tries`);
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
