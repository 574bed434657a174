// `COPY … FROM STDIN` through pg's own query protocol: a Submittable query, the hook pg gives for protocols beyond
// plain statements (pg-copy-streams is built the same way; it is not a dependency, and this needs one message type).
import type { Knex } from 'knex';

/** The parts of pg's connection a COPY uses (pg/lib/connection.js). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean };
}

/** Text lines of `COPY … FROM STDIN` (tab-separated, `\N` for null), a chunk at a time. */
export type CopyChunks = Iterable<string>;

class CopyIn {
  rowCount = 0;
  private settled = false;
  private failure: Error | undefined;

  constructor(
    private readonly text: string,
    private readonly chunks: CopyChunks,
    private readonly done: (err: Error | undefined, rows: number) => void,
  ) {}

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  /** The server is ready for the data: write every chunk, waiting whenever the socket's buffer is full. */
  handleCopyInResponse(connection: CopyConnection): void {
    const it = this.chunks[Symbol.iterator]();
    const pump = (): void => {
      try {
        for (;;) {
          const next = it.next();
          if (next.done) {
            connection.endCopyFrom();
            return;
          }
          connection.sendCopyFromChunk(Buffer.from(next.value, 'utf8'));
          if (connection.stream.writableNeedDrain) {
            connection.stream.once('drain', pump);
            return;
          }
        }
      } catch (err) {
        this.handleError(err instanceof Error ? err : new Error(String(err)));
      }
    };
    pump();
  }

  handleCommandComplete(msg: { text?: string }): void {
    this.rowCount = Number(/^COPY (\d+)/.exec(msg.text ?? '')?.[1] ?? 0);
  }

  handleReadyForQuery(): void {
    this.settle();
  }

  handleError(err: Error): void {
    this.failure ??= err;
    this.settle();
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.done(this.failure, this.rowCount);
  }

  // A COPY answers no rows; pg may still call these on a stray message.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Escapes a value for COPY's text format. */
export function copyValue(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v !== 'string') return String(v);
  return v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** `count` rows of `row(i)` (1-based) as COPY text, about 64 kB a chunk. */
export function* copyRows(count: number, row: (i: number) => Array<string | number | boolean | null>): CopyChunks {
  let chunk = '';
  for (let i = 1; i <= count; i++) {
    chunk += `${row(i).map(copyValue).join('\t')}\n`;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Runs `COPY <table> (<columns>) FROM STDIN` on the transaction's own connection (pg only), feeding it `chunks`;
 * answers the rows copied.
 */
export async function copyInto(
  trx: Knex.Transaction,
  table: string,
  columns: string[],
  chunks: CopyChunks,
): Promise<number> {
  if ((trx.client as Knex.Client).config.client !== 'pg') throw new Error('COPY FROM STDIN needs PostgreSQL (pg)');
  const text = `copy ${table} (${columns.join(', ')}) from stdin`;
  // A knex transaction runs on one pg client; the raw connection is the one its statements use.
  const connection = (await (
    trx as unknown as { client: { acquireConnection(): Promise<unknown> } }
  ).client.acquireConnection()) as {
    query(q: CopyIn): void;
  };
  return new Promise<number>((resolve, reject) => {
    connection.query(new CopyIn(text, chunks, (err, rows) => (err ? reject(err) : resolve(rows))));
  });
}
