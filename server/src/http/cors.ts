import type { RequestHandler } from 'express';

/**
 * CORS is off unless CORS_ORIGINS names origins: the console is served from the same origin as the API, so by
 * default no Access-Control-* header is ever sent and browsers keep other sites out. An allow-listed origin gets
 * its own origin echoed (never `*`), no credentials (the API uses bearer tokens, not cookies), and preflights
 * answered with 204 before authentication. Requests from any other origin are not refused — they simply get no
 * CORS headers, which is what stops a browser.
 */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    if (allowed.size === 0) return next();
    const origin = req.headers.origin;
    res.vary('Origin');
    if (typeof origin !== 'string' || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader(
      'Access-Control-Expose-Headers',
      'ETag, Location, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id',
    );
    if (req.method === 'OPTIONS' && typeof req.headers['access-control-request-method'] === 'string') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, If-Match, X-Request-Id');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
