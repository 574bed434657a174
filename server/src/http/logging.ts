import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** Never log credentials: the Authorization header, passwords and tokens are censored wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'refresh_token',
  'access_token',
  '*.password',
  '*.refresh_token',
  '*.access_token',
  'body.password',
  'body.refresh_token',
  'req.body.password',
  'req.body.refresh_token',
];

/** One asynchronous stdout destination per process, however many loggers (tests build many apps). */
let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Logs go to stdout through an asynchronous destination: a request's log line is queued and written by the event loop,
 * instead of blocking the request on a write(2) per line. pino flushes what is queued when the process exits.
 */
export function createLogger(level: string): Logger {
  stdout ??= pino.destination({ sync: false });
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'platform-admin' } },
    stdout,
  );
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request logging with a request id: reuses a sane incoming X-Request-Id, else a new UUID; echoed in the response. */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'info';
      return 'info';
    },
    serializers: {
      req(req: { id: unknown; method: string; url: string }) {
        // The query string may carry signed-URL signatures; keep only the path.
        return { id: req.id, method: req.method, path: req.url.split('?')[0] };
      },
      res(res: { statusCode: number }) {
        return { statusCode: res.statusCode };
      },
    },
  });
}
