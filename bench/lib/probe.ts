import http from 'node:http';
import type { LoadRequest } from './load.js';

export interface ProbeResult {
  /** latency in milliseconds, microsecond resolution */
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

function send(agent: http.Agent, base: URL, r: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: r.method,
        path: r.path,
        headers: {
          ...(r.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) }
            : {}),
          ...r.headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * One connection, one request at a time, for `seconds`: the latency of a request on an otherwise idle target (no
 * queueing), timed with microsecond resolution (autocannon rounds to whole milliseconds). The cost-growth goal
 * compares these p50s across scales.
 */
export async function probeLatency(baseUrl: string, requests: LoadRequest[], seconds: number): Promise<ProbeResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(baseUrl);
  const times: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  try {
    for (let i = 0; performance.now() < end; i++) {
      const t = performance.now();
      const status = await send(agent, base, requests[i % requests.length]!);
      times.push(performance.now() - t);
      if (status < 200 || status >= 300) failures++;
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), requests: times.length, failures };
}
