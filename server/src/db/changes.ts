import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from './index.js';

/**
 * The change feed: committed writes that in-memory caches depend on, as the database announces them (the triggers of
 * migration 0008 notify the `platform_changes` channel). Every replica listens, so a write on one replica reaches the
 * caches of all the others one notification later. See docs/adr/0012-change-feed-and-caches.md.
 */

/** The channel the triggers of migration 0008 notify. */
export const CHANGE_CHANNEL = 'platform_changes';

/** One committed change: `id` is the user a per-user change concerns, null for a table-wide one. */
export interface Change {
  table: string;
  id: string | null;
}

export interface ChangeListener {
  onChange(change: Change): void;
  /** notifications may have been missed: drop everything cached */
  onReset(): void;
}

export interface ChangeFeed {
  subscribe(listener: ChangeListener): () => void;
  /** true while notifications are being received, so caches may trust them; false → caches must read through to the database */
  readonly live: boolean;
  /** A point in this process's writes to the announced tables (see `localWritesSince`). */
  writeMark(): number;
  /**
   * If this process sent a statement that writes an announced table since `mark`, every subscriber resets now, so
   * this process reads its own writes at once (the notification reaches the other replicas). A write of another
   * table, such as a cluster's or a widget's, leaves the caches as they are.
   */
  localWritesSince(mark: number): void;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** Reconnects and failed listeners are logged here. */
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** The first wait before reconnecting (PostgreSQL); it doubles after each failed attempt up to `maxRetryMs`. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

/** `print_template_mappings` → table-wide; `users:<id>` → that user. */
function parseChange(payload: string): Change {
  const colon = payload.indexOf(':');
  return colon < 0 ? { table: payload, id: null } : { table: payload.slice(0, colon), id: payload.slice(colon + 1) };
}

/** The subscribers of one feed; a listener that throws is logged and never keeps the others from hearing. */
class Subscribers {
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly logger: ChangeFeedOptions['logger']) {}

  add(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  change(change: Change): void {
    this.each((listener) => listener.onChange(change));
  }

  reset(): void {
    this.each((listener) => listener.onReset());
  }

  private each(call: (listener: ChangeListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (err) {
        this.logger?.warn({ err }, 'a change listener failed');
      }
    }
  }
}

/** The feed as its users see it; the engine-specific part only says whether it is live and how it closes. */
function feedOf(
  subscribers: Subscribers,
  isLive: () => boolean,
  close: () => Promise<void>,
  writes: WriteCount | null = null,
): ChangeFeed {
  return {
    subscribe: (listener) => subscribers.add(listener),
    get live() {
      return isLive();
    },
    writeMark: () => writes?.count() ?? 0,
    // Without a count of statements, any write may have touched an announced table.
    localWritesSince: (mark) => {
      if (!writes || writes.count() !== mark) subscribers.reset();
    },
    close: async () => {
      writes?.stop();
      await close();
    },
  };
}

/**
 * Which writes reach a table the feed announces (one with a `*_notify_change` trigger of migration 0008): any write of
 * such a table, and a delete or an update of a table whose foreign keys cascade into one (deleting a cluster deletes
 * its grants). Read from the schema, so it follows the migrations.
 */
export interface AnnouncedWrites {
  tables: Set<string>;
  cascadingDeletes: Set<string>;
  cascadingUpdates: Set<string>;
}

/** The tables that carry a change trigger of migration 0008 (`<table>_notify_change`), as relation oids. */
const TRIGGERED_TABLES = `select tgrelid from pg_trigger where tgname like '%\\_notify\\_change' and not tgisinternal`;

async function announcedWrites(knex: Knex): Promise<AnnouncedWrites> {
  // `action` is the column of pg_constraint that says what a delete (confdeltype) or an update (confupdtype) of the
  // referenced row does; cascade, set null and set default all write the announced side.
  const reach = (action: 'confdeltype' | 'confupdtype') => `with recursive announced(rel) as (
      ${TRIGGERED_TABLES}
      union
      select c.confrelid from pg_constraint c join announced a on c.conrelid = a.rel
      where c.contype = 'f' and c.${action} in ('c', 'n', 'd')
    )
    select rel from announced`;
  const names = async (oids: string) =>
    new Set(
      (
        await knex.raw<{ rows: Array<{ relname: string }> }>(`select relname from pg_class where oid in (${oids})`)
      ).rows.map((r) => r.relname),
    );
  return {
    tables: await names(TRIGGERED_TABLES),
    cascadingDeletes: await names(reach('confdeltype')),
    cascadingUpdates: await names(reach('confupdtype')),
  };
}

/** What a statement writes: each `insert into`, `update` and `delete from` with its table, as SQL names it (knex quotes it). */
export function writesOf(sql: string): Array<{ verb: 'insert' | 'update' | 'delete'; table: string }> {
  return [...sql.matchAll(/\b(insert\s+into|update|delete\s+from)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi)].map(
    (m) => ({
      verb: m[1]!.slice(0, 6).toLowerCase() as 'insert' | 'update' | 'delete',
      table: m[2]!.toLowerCase(),
    }),
  );
}

/** Whether a statement writes a table the feed announces, directly or through a cascade. */
export function reachesAnnounced(sql: string, announced: AnnouncedWrites): boolean {
  return writesOf(sql).some(
    ({ verb, table }) =>
      announced.tables.has(table) ||
      (verb === 'delete' && announced.cascadingDeletes.has(table)) ||
      (verb === 'update' && announced.cascadingUpdates.has(table)),
  );
}

interface WriteCount {
  count(): number;
  /** Stops counting (the feed closed; the knex instance may outlive it). */
  stop(): void;
}

/**
 * Counts the statements this process sends (through `knex`, transactions included) that reach an announced table. A
 * statement is counted when it is sent, before it commits: a request compares the count at its end with the count at
 * its start, so it always sees its own writes, and at worst another request's too (one reset more).
 */
function countWrites(knex: Knex, announced: AnnouncedWrites): WriteCount {
  let count = 0;
  const onQuery = (query: { sql?: unknown }) => {
    if (typeof query.sql === 'string' && reachesAnnounced(query.sql, announced)) count++;
  };
  knex.on('query', onQuery);
  return { count: () => count, stop: () => void knex.off('query', onQuery) };
}

/** A feed that never hears anything: caches built on it always read through (apps built without a feed). */
export function staticChangeFeed(opts: ChangeFeedOptions = {}): ChangeFeed {
  return feedOf(
    new Subscribers(opts.logger),
    () => false,
    () => Promise.resolve(),
  );
}

/** Opens the feed of the database: LISTEN on a connection of its own (PostgreSQL), or on the one instance (PGlite). */
export async function openChangeFeed(db: Database, opts: ChangeFeedOptions = {}): Promise<ChangeFeed> {
  const subscribers = new Subscribers(opts.logger);
  const writes = countWrites(db.knex, await announcedWrites(db.knex));
  if (db.engine === 'pglite') {
    if (!db.pglite) throw new Error('a PGlite database without its instance');
    return pgliteFeed(db.pglite, subscribers, writes);
  }
  if (!db.url) throw new Error('a PostgreSQL database without its URL');
  const feed = new PostgresListener(db.url, subscribers, opts);
  await feed.start();
  return feedOf(
    subscribers,
    () => feed.live,
    () => feed.close(),
    writes,
  );
}

/** PGlite runs in this process and delivers a notification with the commit's own reply: always live. */
async function pgliteFeed(
  pglite: NonNullable<Database['pglite']>,
  subscribers: Subscribers,
  writes: WriteCount,
): Promise<ChangeFeed> {
  const unlisten = await pglite.listen(CHANGE_CHANNEL, (payload) => subscribers.change(parseChange(payload)));
  let closed = false;
  return feedOf(
    subscribers,
    () => !closed,
    async () => {
      if (closed) return;
      closed = true;
      if (!pglite.closed) await unlisten();
    },
    writes,
  );
}

const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A dedicated connection (never one of the pool's: a pooled connection is handed to queries and recycled) that
 * LISTENs. While it is down, notifications are lost, so the feed is not live and caches read through; once it listens
 * again, every subscriber resets (whatever changed meanwhile is forgotten with the rest) and the feed is live again.
 */
class PostgresListener {
  live = false;
  private client: pg.Client | null = null;
  /** A connection being opened, so close() can end it too. */
  private connecting: pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs: number;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly subscribers: Subscribers,
    private readonly opts: ChangeFeedOptions,
  ) {
    this.retryMs = opts.minRetryMs ?? MIN_RETRY_MS;
  }

  /** The first connection; when it fails the feed starts not live and keeps trying. */
  async start(): Promise<void> {
    try {
      await this.listen();
    } catch (err) {
      this.opts.logger?.warn(
        { err, retryInMs: this.retryMs },
        'change feed: cannot listen for changes; caches read through until it can',
      );
      this.scheduleRetry();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const open = [this.client, this.connecting].filter((c): c is pg.Client => c !== null);
    this.client = null;
    this.connecting = null;
    await Promise.all(open.map((c) => c.end().catch(() => undefined)));
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    client.on('notification', (msg) => {
      if (client === this.client && msg.channel === CHANGE_CHANNEL)
        this.subscribers.change(parseChange(msg.payload ?? ''));
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    this.connecting = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    } finally {
      if (this.connecting === client) this.connecting = null;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Anything that changed before the LISTEN took effect went unheard: forget it all, then trust notifications.
    this.subscribers.reset();
    this.live = true;
  }

  /** The connection broke (or ended): stop trusting the feed, forget everything cached, and reconnect. */
  private lost(client: pg.Client, err?: Error): void {
    if (client !== this.client) return;
    this.client = null;
    this.live = false;
    client.end().catch(() => undefined);
    this.subscribers.reset();
    if (this.closed) return;
    this.opts.logger?.warn(
      { err, retryInMs: this.retryMs },
      'change feed: lost the connection that listens for changes; caches read through until it is back',
    );
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(wait * 2, this.opts.maxRetryMs ?? MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.listen().then(
        () => {
          this.retryMs = this.opts.minRetryMs ?? MIN_RETRY_MS;
          if (this.live) this.opts.logger?.info('change feed: listening for changes again');
        },
        (retryErr: unknown) => {
          this.opts.logger?.warn({ err: retryErr, retryInMs: this.retryMs }, 'change feed: reconnect failed');
          this.scheduleRetry();
        },
      );
    }, wait);
    // A pending reconnect never keeps the process alive on its own.
    this.retryTimer.unref();
  }
}
