import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';

/** Compared as digests, so neither the token's length nor its bytes leak through the comparison's timing. */
function sameToken(sent: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

function answer(res: ServerResponse, status: number, title: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify({ type: 'about:blank', title, status }));
}

/**
 * The metrics listener: GET /metrics only, on an address of its own (METRICS_HOST:METRICS_PORT), never on the public
 * port. With a token (METRICS_TOKEN) a scrape must send `Authorization: Bearer <token>`.
 */
export function metricsHandler(metrics: Metrics, token: string | null) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'Not Found');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'Method Not Allowed', { Allow: 'GET' });
    if (token !== null) {
      const sent = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(sent, token))
        return answer(res, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => answer(res, 500, 'Internal Server Error'),
    );
  };
}

export function createMetricsServer(metrics: Metrics, token: string | null): Server {
  return createServer(metricsHandler(metrics, token));
}
