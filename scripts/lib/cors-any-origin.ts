// CORS for any origin, as Prism answers it: for the stateful mock only, where a console or a tool on another origin
// (a dev server, an API client in the browser) calls it. The product itself allows only CORS_ORIGINS.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
export const EXPOSED_HEADERS = 'ETag, Location, Retry-After, X-Request-Id, Content-Disposition';

/** Echoes the caller's origin (credentials allowed, like Prism); answers preflights itself with 204. */
export function corsForAnyOrigin(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return next();
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  res.setHeader('Vary', 'Origin');
  if (req.method === 'OPTIONS' && typeof req.headers['access-control-request-method'] === 'string') {
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    const asked = req.headers['access-control-request-headers'];
    res.setHeader(
      'Access-Control-Allow-Headers',
      typeof asked === 'string' && asked.trim() ? asked : 'Authorization, Content-Type, If-Match, X-Request-Id',
    );
    res.setHeader('Access-Control-Max-Age', '600');
    res.statusCode = 204;
    res.end();
    return;
  }
  next();
}
