import { createRequire } from 'node:module';

/** One request of a scenario: autocannon cycles through the list on every connection. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Builds the request actually sent from this one, just before sending (a request that depends on earlier answers). */
  setupRequest?: (req: LoadRequest, context: Record<string, unknown>) => LoadRequest;
  /** Sees every answer to this request (status, body text, headers with lower-case names). */
  onResponse?: (
    status: number,
    body: string,
    context: Record<string, unknown>,
    headers: Record<string, string>,
  ) => void;
}

export interface LoadResult {
  /** mean requests per second over the run */
  rps: number;
  /** latency in milliseconds */
  p50: number;
  p99: number;
  requests: number;
  /** socket errors + timeouts */
  errors: number;
  /** responses outside 2xx */
  non2xx: number;
  seconds: number;
  /** CPU milliseconds of the target process per request (set by the harness when it can read them) */
  cpuMsPerRequest?: number;
  /** highest resident memory of the target process during the run, MB (set by the harness, sampled every 100 ms) */
  peakRssMb?: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
type Autocannon = (
  opts: Record<string, unknown>,
  cb: (err: Error | null, result: AutocannonResult) => void,
) => { stop(): void };

// autocannon ships CommonJS without types.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export function runLoad(
  baseUrl: string,
  requests: LoadRequest[],
  opts: { seconds: number; connections: number },
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections: opts.connections,
        duration: opts.seconds,
        timeout: 30,
        requests: requests.map((r) => ({
          method: r.method,
          path: r.path,
          headers: { ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers },
          ...(r.body !== undefined ? { body: r.body } : {}),
          ...(r.setupRequest ? { setupRequest: r.setupRequest } : {}),
          ...(r.onResponse ? { onResponse: lowerCaseHeaders(r.onResponse) } : {}),
        })),
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          requests: result.requests.total,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          seconds: result.duration,
        });
      },
    );
  });
}

/** autocannon hands the headers over as the server spelled them; callers read them by lower-case name. */
function lowerCaseHeaders(f: NonNullable<LoadRequest['onResponse']>): NonNullable<LoadRequest['onResponse']> {
  return (status, body, context, headers) =>
    f(
      status,
      body,
      context,
      Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    );
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
