// Several replicas of the app on one database, and ways to wait for what the change feed hears: for the tests of the
// caches that the change feed keeps exact.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import { createApp } from '../../../server/src/app.js';
import {
  CHANGE_CHANNEL,
  openChangeFeed,
  type ChangeFeed,
  type ChangeFeedOptions,
  type ChangeListener,
} from '../../../server/src/db/changes.js';
import { createDatabase } from '../../../server/src/db/index.js';
import { createLogger } from '../../../server/src/http/logging.js';
import type { TestServer } from './index.js';

/** Something that answers HTTP with this app: the test server itself or another replica on its database. */
export interface Replica {
  baseUrl: string;
  changes: ChangeFeed;
  close(): Promise<void>;
}

/** Polls until `check` holds (or the time is up) and returns the last value seen. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  withinMs = 1_000,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Waits until `feed` has heard every write committed so far. Notifications arrive in commit order, so hearing one
 * sent now is enough; it names no table a cache depends on.
 */
export async function settle(t: TestServer, feed: ChangeFeed): Promise<void> {
  const marker = randomUUID();
  let heard = false;
  const unsubscribe = feed.subscribe({
    onChange: (change) => void (change.id === marker && (heard = true)),
    onReset: () => undefined,
  });
  try {
    await t.knex.raw('select pg_notify(?, ?)', [CHANGE_CHANNEL, `marker:${marker}`]);
    expect(
      await eventually(
        async () => heard,
        (done) => done,
        2_000,
      ),
      'the feed heard the marker',
    ).toBe(true);
  } finally {
    unsubscribe();
  }
}

/** This app on the test server's database, over HTTP on a port of its own, with the change feed given. */
export async function serveApp(
  t: TestServer,
  knex: Knex,
  changes: ChangeFeed,
): Promise<Pick<Replica, 'baseUrl' | 'close'>> {
  const server = createServer(
    createApp({ config: t.config, db: { knex }, storage: t.storage, logger: createLogger('silent'), changes }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Another replica on the test server's database, with a knex pool and a change feed of its own (PostgreSQL). */
export async function startReplica(t: TestServer, feedOptions: ChangeFeedOptions = {}): Promise<Replica> {
  const db = await createDatabase(t.config);
  const changes = await openChangeFeed(db, feedOptions);
  const http = await serveApp(t, db.knex, changes);
  return {
    baseUrl: http.baseUrl,
    changes,
    async close() {
      await http.close();
      await changes.close();
      await db.close();
    },
  };
}

/** A feed that says it is live but never hears the database: only this process's own writes reach its caches. */
export function deafFeed(): ChangeFeed {
  const listeners = new Set<ChangeListener>();
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    live: true,
    writeMark: () => 0,
    localWritesSince: () => listeners.forEach((listener) => listener.onReset()),
    close: async () => undefined,
  };
}
