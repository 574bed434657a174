import type { Request, Response } from 'express';
import { CSV_BOM, csvFileName, csvHeader, csvLines, type CsvExport } from '../core/csv.js';
import type { StreamedReply } from '../core/contract.js';

/**
 * An export is one page only when the caller names `page` or `perpage` (the console's "this page"); otherwise every
 * matching row. The contract validator has filled in both defaults by now, so the request's own query decides.
 */
export function pageOrAll<Q extends { page?: number; perpage?: number }>(req: Request, query: Q): Q {
  const named = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  return named.has('page') || named.has('perpage') ? query : { ...query, page: 1, perpage: -1 };
}

/** Resolves when the response can take more (`drain`) or will take nothing more (`close`). */
function writable(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Streams an export as a CSV download (UTF-8 with a BOM, CRLF), respecting backpressure. The first batch is read
 * before anything is sent, so a failure there is still an ordinary problem+json reply. Once bytes are out, an error
 * propagates to the dispatcher, which destroys the socket: the client sees a truncated download, never a wrong file.
 * A client that goes away stops the loop at the next batch; leaving the loop ends the rows' source (its cursor and
 * transaction) through the iterator's `return()`.
 */
async function streamCsv<R>(res: Response, exp: CsvExport<R>, today: Date): Promise<void> {
  const iterator = exp.batches[Symbol.asyncIterator]();
  try {
    let step = await iterator.next();
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${csvFileName(exp.name, today)}"`);
    let chunk = CSV_BOM + csvHeader(exp.columns);
    while (!res.destroyed) {
      if (!step.done) chunk += csvLines(step.value, exp.columns);
      if (!res.write(chunk)) await writable(res);
      if (step.done || res.destroyed) break;
      chunk = '';
      step = await iterator.next();
    }
    if (!res.destroyed) res.end();
  } finally {
    await iterator.return?.();
  }
}

/** The reply of an export operation: the dispatcher hands it the response to stream into. */
export function csvReply<R>(exp: CsvExport<R>, today = new Date()): StreamedReply {
  return { status: 200, stream: (res) => streamCsv(res as Response, exp, today) };
}
