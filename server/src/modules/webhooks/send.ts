import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Target } from './ssrf.js';

/** What one attempt found: the receiver's status (null when none came), how long it took, and why it failed. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  ok: boolean;
}

const EXCERPT_CHARS = 500;
/** A receiver's answer is read this far at most: the log keeps an excerpt, and nothing else needs the rest. */
const READ_LIMIT = 16 * 1024;

/** Control characters (line breaks included) read as spaces in the log. */
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * POSTs the body to the target, connecting to the address the guard checked whatever the name resolves to now (the
 * TLS certificate is still checked against the URL's host). No redirect is followed: a 3xx is a failure.
 */
export function postTo(
  target: Target,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const text = printable(Buffer.concat(chunks).toString('utf8')).slice(0, EXCERPT_CHARS);
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          done({
            statusCode: status,
            responseExcerpt: text === '' ? null : text,
            error: ok ? null : `The receiver answered ${status}; only a 2xx counts as delivered`,
            ok,
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    req.on('timeout', () => {
      req.destroy();
      done({
        statusCode: null,
        responseExcerpt: null,
        error: `No answer within ${timeoutMs} ms`,
        ok: false,
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({
        statusCode: null,
        responseExcerpt: null,
        error: printable(`Could not reach the receiver: ${err.code ?? ''} ${err.message}`).slice(0, 900),
        ok: false,
      }),
    );
    req.end(body);
  });
}
