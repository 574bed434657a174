import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  at: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** How the receiver answers the nth request (0-based) to a path: a status, or `hang` (never answer). */
export type Behaviour = (n: number) => number | 'hang';

/**
 * A real webhook receiver on loopback: answers each path as told and keeps every request it got, so a test checks
 * what a partner's system would see.
 */
export async function startReceiver(behaviours: Record<string, Behaviour> = {}) {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const waiting = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      received.push({ at: Date.now(), path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiting) wake();
      const answer = (behaviours[path] ?? (() => 200))(n);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : `nope ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    /** Resolves once `count` requests reached the path (or rejects after `timeoutMs`). */
    async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((r) => r.path === path);
        if (got.length >= count) return got;
        if (Date.now() > deadline) throw new Error(`${path}: ${got.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 50);
          waiting.add(wake);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
