import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
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
  // Second factors: a code, a sign-in's second-step token, a WebAuthn answer (it names the credential).
  'code',
  'second_factor_token',
  '*.code',
  '*.second_factor_token',
  'body.code',
  'body.second_factor_token',
  'body.response',
  'req.body.code',
  'req.body.second_factor_token',
  'req.body.response',
];

/** One asynchronous stdout destination per process, however many loggers (tests build many apps). */
let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Lines are gathered up to this many bytes (a dozen request lines) before one write(2); a quiet server's lines go out
 * within LOG_FLUSH_MS. One write per request line cost about 6 % of a read's CPU under load (bench/FINDINGS.md §19).
 */
export const LOG_BATCH_BYTES = 4_096;
export const LOG_FLUSH_MS = 100;

/**
 * Logs go to stdout through an asynchronous destination: a request's log line is queued and written by the event loop,
 * in batches, instead of blocking the request on a write(2) per line. pino flushes what is queued when the process
 * exits. A destination given instead (a test reading what is logged) gets the same redaction.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'platform-admin' } },
    destination ??
      (stdout ??= pino.destination({ sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS })),
  );
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * What the request pipeline learns while answering and leaves for the request's log line (on `res.locals`): the
 * problem a refusal or failure answered with, and the sign-in a wrong password or a delayed client was refused.
 */
export interface RequestLogNotes {
  problem?: { title: string; detail: string };
  /** The login as typed only when it names an account: a password typed into the login field is never logged. */
  signInRefused?: { login: string | null; accountId: string | null };
}

/** The notes of this request's log line, to add to while answering. */
export function requestLogNotes(res: ServerResponse): RequestLogNotes {
  const locals = (res as Partial<Response>).locals;
  if (!locals) return {};
  return ((locals as { requestLog?: RequestLogNotes }).requestLog ??= {});
}

/**
 * The fields of a request's log line beyond its id, method, path and status: all read from what the request already
 * carries (the operation matched, the caller authenticated, the address under TRUST_PROXY), never from the database.
 */
function answerFields(req: IncomingMessage, res: ServerResponse) {
  const r = req as Partial<Request>;
  const notes = requestLogNotes(res);
  return {
    operationId: r.operation?.id,
    accountId: r.auth?.userId,
    clientIp: r.ip,
    problem: res.statusCode >= 400 ? notes.problem : undefined,
    signIn: notes.signInRefused,
  };
}

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
    // A refusal is the client's business (info), except a refused sign-in, which an operator watches for (warn).
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400 && requestLogNotes(res).signInRefused) return 'warn';
      return 'info';
    },
    customSuccessObject: (req, res, line: object) => ({ ...line, ...answerFields(req, res) }),
    customErrorObject: (req, res, _err, line: object) => ({ ...line, ...answerFields(req, res) }),
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
