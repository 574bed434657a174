// Every authenticated request needs the caller's account, session and grants. They are kept for a few seconds and
// forgotten through the change feed: a change made through the API takes effect at the very next request, one made in
// the database directly (or on another replica) one notification later, and while the feed is down every request
// reads them again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeed, ChangeListener } from '../../server/src/db/changes.js';
import type { CallerStanding } from '../../server/src/modules/auth/repository.js';
import { STANDING_TTL_MS, standingCache } from '../../server/src/modules/auth/standing-cache.js';
import { aUserWith } from '../support/factory.js';
import type { GrantRecord, SessionRecord, UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { eventually, settle, startReplica } from './support/replicas.js';

const CLUSTERS = '/api-system/clusters?page=1&perpage=1';

describe.each(engines())('the caller standing cache on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  /** Runs `work` and counts the statements it sent that read the caller's grants. */
  async function standingQueries(work: () => Promise<unknown>): Promise<number> {
    let count = 0;
    const onQuery = (q: { sql: string }) => void (/permission_grants/.test(q.sql) && count++);
    t.knex.on('query', onQuery);
    try {
      await work();
    } finally {
      t.knex.off('query', onQuery);
    }
    return count;
  }

  it('when a caller sends two requests, then the second reuses the standing the first read', async () => {
    const u = await aUserWith(t, ['cluster.read']);
    await settle(t, t.changes);
    expect(await standingQueries(() => t.fetch(CLUSTERS, { token: u.token }))).toBe(1);
    expect(await standingQueries(() => t.fetch(CLUSTERS, { token: u.token }))).toBe(0);
  });

  it('when an admin revokes a grant through the API, then the very next request of that user is refused', async () => {
    const u = await aUserWith(t, ['cluster.read']);
    expect((await t.fetch(CLUSTERS, { token: u.token })).status).toBe(200);
    const grants = (await (await t.fetch(`/api-system/users/${u.id}/grants`, { token: admin })).json()) as {
      data: Array<{ id: string }>;
    };
    const removed = await t.fetch(`/api-system/users/${u.id}/grants/${grants.data[0]!.id}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(removed.status).toBe(204);
    expect((await t.fetch(CLUSTERS, { token: u.token })).status).toBe(403);
  });

  it('when the database is changed directly (grant removed, account deactivated, session revoked), then each is refused one notification later', async () => {
    const grant = await aUserWith(t, ['cluster.read']);
    expect((await t.fetch(CLUSTERS, { token: grant.token })).status).toBe(200);
    await t.knex<GrantRecord>('permission_grants').where({ user_id: grant.id }).delete();
    await settle(t, t.changes);
    expect((await t.fetch(CLUSTERS, { token: grant.token })).status).toBe(403);

    const account = await aUserWith(t, ['cluster.read']);
    expect((await t.fetch(CLUSTERS, { token: account.token })).status).toBe(200);
    await t.knex<UserRecord>('users').where({ id: account.id }).update({ is_active: false });
    await settle(t, t.changes);
    const deactivated = await t.fetch(CLUSTERS, { token: account.token });
    expect(deactivated.status).toBe(401);
    expect(((await deactivated.json()) as { type: string }).type).toMatch(/account-deactivated$/);

    const session = await aUserWith(t, ['cluster.read']);
    expect((await t.fetch(CLUSTERS, { token: session.token })).status).toBe(200);
    await t.knex<SessionRecord>('sessions').where({ user_id: session.id }).update({ revoked_at: t.knex.fn.now() });
    await settle(t, t.changes);
    const ended = await t.fetch(CLUSTERS, { token: session.token });
    expect(ended.status).toBe(401);
    expect(((await ended.json()) as { type: string }).type).toMatch(/session-ended$/);
  });

  describe.skipIf(engine !== 'postgres')('with two replicas on one PostgreSQL database', () => {
    it('when replica A deactivates a user, then replica B refuses that user once the notification arrived', async () => {
      const b = await startReplica(t);
      try {
        const u = await aUserWith(t, ['cluster.read']);
        const onB = () => fetch(`${b.baseUrl}${CLUSTERS}`, { headers: { authorization: `Bearer ${u.token}` } });
        expect((await onB()).status).toBe(200);
        expect((await onB()).status).toBe(200);
        expect((await t.fetch(`/api-system/users/${u.id}/deactivate`, { method: 'POST', token: admin })).status).toBe(
          200,
        );
        const refused = await eventually(onB, (res) => res.status === 401, 2_000);
        expect(refused.status).toBe(401);
        await settle(t, b.changes);
        expect((await onB()).status).toBe(401);
      } finally {
        await b.close();
      }
    });
  });
});

describe('the caller standing cache, against a loader it counts', () => {
  const OK: CallerStanding = {
    status: 'ok',
    permissions: {
      platform: ['cluster.read'],
      clusters: {},
      is_super_admin: false,
      must_change_password: false,
      must_enrol_second_factor: false,
    },
    secondFactors: { methods: [], usedAt: null },
  };

  function fakeFeed(live = true) {
    const listeners = new Set<ChangeListener>();
    const feed: ChangeFeed & { live: boolean; emit(table: string, id: string | null): void; reset(): void } = {
      live,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      writeMark: () => 0,
      localWritesSince: () => listeners.forEach((l) => l.onReset()),
      close: async () => undefined,
      emit: (table, id) => listeners.forEach((l) => l.onChange({ table, id })),
      reset: () => listeners.forEach((l) => l.onReset()),
    };
    return feed;
  }

  function countingLoader() {
    const calls: string[] = [];
    return {
      calls,
      load: async (userId: string, sessionId: string | null) => (
        calls.push(`${userId}/${sessionId}`),
        structuredClone(OK)
      ),
    };
  }

  it('when the same caller asks again within the time to live, then the loader is not asked; after it, it is', async () => {
    let now = 1_000;
    const loader = countingLoader();
    const cache = standingCache({ changes: fakeFeed(), load: loader.load, now: () => now });
    await cache.standingOf('u1', 's1');
    await cache.standingOf('u1', 's1');
    expect(loader.calls).toHaveLength(1);
    now += STANDING_TTL_MS + 1;
    await cache.standingOf('u1', 's1');
    expect(loader.calls).toHaveLength(2);
  });

  it("when a change names a user, then only that user's standings are read again; a reset forgets everyone", async () => {
    const feed = fakeFeed();
    const loader = countingLoader();
    const cache = standingCache({ changes: feed, load: loader.load });
    await cache.standingOf('u1', 's1');
    await cache.standingOf('u2', 's2');
    feed.emit('permission_grants', 'u1');
    feed.emit('print_template_mappings', null);
    await cache.standingOf('u1', 's1');
    await cache.standingOf('u2', 's2');
    expect(loader.calls).toEqual(['u1/s1', 'u2/s2', 'u1/s1']);
    feed.reset();
    await cache.standingOf('u2', 's2');
    expect(loader.calls.at(-1)).toBe('u2/s2');
  });

  it('when a change arrives while a standing loads, then that load answers but is not kept', async () => {
    const feed = fakeFeed();
    let release!: () => void;
    const calls: number[] = [];
    const cache = standingCache({
      changes: feed,
      load: async () => {
        calls.push(1);
        if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return structuredClone(OK);
      },
    });
    const first = cache.standingOf('u1', null);
    await new Promise((resolve) => setImmediate(resolve));
    feed.emit('users', 'u1');
    release();
    expect((await first).status).toBe('ok');
    await cache.standingOf('u1', null);
    expect(calls).toHaveLength(2);
  });

  it('when the feed is not live, then every request reads the standing and nothing is kept', async () => {
    const feed = fakeFeed(false);
    const loader = countingLoader();
    const cache = standingCache({ changes: feed, load: loader.load });
    await cache.standingOf('u1', 's1');
    await cache.standingOf('u1', 's1');
    expect(loader.calls).toHaveLength(2);
  });

  it('when a standing is shared by requests, then none of them can change it', async () => {
    const cache = standingCache({ changes: fakeFeed(), load: countingLoader().load });
    const standing = await cache.standingOf('u1', 's1');
    if (standing.status !== 'ok') throw new Error('expected ok');
    expect(() => standing.permissions.platform.push('cluster.delete')).toThrow(TypeError);
    expect((await cache.standingOf('u1', 's1')).status === 'ok' && (await cache.standingOf('u1', 's1'))).toMatchObject({
      permissions: { platform: ['cluster.read'] },
    });
  });
});
