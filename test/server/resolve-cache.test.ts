// Resolve answers from memory and forgets through the change feed: what it answers must always be what the resolve
// statement answers, a write through the API is seen by the very next resolve, a write made in the database directly
// (or on another replica) one notification later, and while the feed is down every resolve reads through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { reachesAnnounced, staticChangeFeed, writesOf, type Change } from '../../server/src/db/changes.js';
import {
  mappingRepository,
  type MappingRecord,
  type MappingRepository,
} from '../../server/src/modules/print-template-mappings/repository.js';
import { resolveCache } from '../../server/src/modules/print-template-mappings/resolve-cache.js';
import { aReportTemplate, aStoredMapping, aUser } from '../support/factory.js';
import type {
  BusinessUnitRecord,
  ClusterRecord,
  GrantRecord,
  PrintTemplateMappingRecord,
  ReportTemplateRecord,
  SessionRecord,
  UserRecord,
} from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { deafFeed, eventually, serveApp, settle, startReplica, type Replica } from './support/replicas.js';

const RESOLVE = '/api-system/print-template-mappings/resolve';

interface Resolved {
  status: number;
  body: {
    id?: string;
    display_order?: number;
    display_label?: string | null;
    template_name?: string | null;
    created_by_name?: string | null;
    unknown_business_unit_codes?: string[];
  };
}

const tag = () => randomUUID().slice(0, 8);

async function resolveOn(
  replica: Pick<Replica, 'baseUrl'>,
  token: string,
  documentType: string,
  buCode: string | null = null,
): Promise<Resolved> {
  const query = new URLSearchParams({ document_type: documentType, ...(buCode === null ? {} : { bu_code: buCode }) });
  const res = await fetch(`${replica.baseUrl}${RESOLVE}?${query.toString()}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as Resolved['body'] };
}

describe.each(engines())('resolve cache on %s', (engine) => {
  let t: TestServer;
  let token: string;
  let repo: MappingRepository;

  beforeAll(async () => {
    t = await startTestServer(engine);
    token = await t.login(t.config.admin.username);
    repo = mappingRepository({ knex: t.knex });
  });
  afterAll(() => t.close());

  const resolve = (documentType: string, buCode: string | null = null) => resolveOn(t, token, documentType, buCode);

  /** The type to itself: its live mappings (from the demo data or an earlier test) are soft-deleted. */
  async function emptyType(documentType: string): Promise<string> {
    await t
      .knex<PrintTemplateMappingRecord>('print_template_mappings')
      .where({ document_type: documentType })
      .whereNull('deleted_at')
      .update({ deleted_at: new Date() });
    return documentType;
  }

  /** A mapping of the type written straight to the database, on a template of its own: its id. */
  const insertMapping = async (documentType: string, columns: Partial<PrintTemplateMappingRecord>) =>
    (await aStoredMapping(t, { document_type: documentType, report_template_id: await aReportTemplate(t), ...columns }))
      .id;

  it('when the app starts, then its change feed is live, so resolve answers from memory', () => {
    expect(t.changes.live).toBe(true);
  });

  it('when rows change, then the feed hears the tables and users it is told about, and not the sign-in time', async () => {
    const heard: Change[] = [];
    const unsubscribe = t.changes.subscribe({
      onChange: (change) => void heard.push(change),
      onReset: () => undefined,
    });
    try {
      const userId = (await aUser(t)).id;
      const sessionId = randomUUID();
      await t
        .knex<SessionRecord>('sessions')
        .insert({ id: sessionId, user_id: userId, expires_at: new Date(Date.now() + 60_000) });
      const [bu] = await t.knex<BusinessUnitRecord>('business_units').select('id').limit(1);
      await settle(t, t.changes);
      heard.length = 0;

      await t.knex<UserRecord>('users').where({ id: userId }).update({ last_sign_in_at: new Date() });
      await t
        .knex<BusinessUnitRecord>('business_units')
        .where({ id: (bu as { id: string }).id })
        .update({ description: 'not what resolve reads' });
      await t.knex<UserRecord>('users').where({ id: userId }).update({ lastname: 'Renamed' });
      await t
        .knex<GrantRecord>('permission_grants')
        .insert({ user_id: userId, permission_key: 'print_template_mapping.manage', cluster_id: null });
      await t.knex<SessionRecord>('sessions').where({ id: sessionId }).update({ revoked_at: new Date() });
      await t
        .knex<ReportTemplateRecord>('report_templates')
        .insert({ name: `Form ${tag()}`, report_group: 'PO', kind: 'print' });
      await settle(t, t.changes);
      expect(heard.filter((change) => change.table !== 'marker')).toEqual([
        { table: 'users', id: userId },
        { table: 'permission_grants', id: userId },
        { table: 'sessions', id: userId },
        { table: 'report_templates', id: null },
      ]);
    } finally {
      unsubscribe();
    }
  });

  it("when a grid of document types and business units is resolved, then each answer is the resolve statement's", async () => {
    const [po, grn, sr, cn] = await Promise.all(['PO', 'GRN', 'SR', 'CN'].map(emptyType));
    await insertMapping(po!, { is_default: true, display_order: -9, deleted_at: new Date() }); // soft-deleted: never
    await insertMapping(po!, { is_default: true, display_order: -5, is_active: false }); // inactive: never
    await insertMapping(po!, { is_default: true, display_order: 0, allow_business_unit: ['BU-A'] }); // allowed only
    await insertMapping(po!, { display_order: 1, deny_business_unit: ['BU-B'] });
    await insertMapping(po!, { display_order: 2, allow_business_unit: [] });
    await insertMapping(grn!, { is_default: true, allow_business_unit: ['BU-C'], deny_business_unit: ['BU-C'] }); // deny wins
    await insertMapping(grn!, { display_order: 3, deny_business_unit: ['BU-A', 'BU-GONE'] });
    await insertMapping(sr!, { is_default: true, allow_business_unit: ['BU-A', 'BU-B'] }); // nothing without a BU
    for (const documentType of [po!, grn!, sr!, cn!]) {
      for (const buCode of [null, 'BU-A', 'BU-B', 'BU-C', 'BU-UNKNOWN']) {
        const expected = await repo.resolve(documentType, buCode);
        const { status, body } = await resolve(documentType, buCode);
        const at = `${documentType} for ${buCode ?? 'no BU'}`;
        if (expected) {
          expect(status, at).toBe(200);
          expect(body, at).toEqual(JSON.parse(JSON.stringify(expected)));
        } else {
          expect(status, at).toBe(404);
        }
      }
    }
  });

  it('when a type was resolved once, then the next resolves of it send no query about mappings', async () => {
    const type = await emptyType('IA');
    await insertMapping(type, { is_default: true });
    await settle(t, t.changes); // no notification of the insert is still on its way to empty the cache
    expect((await resolve(type)).status).toBe(200);
    const asked: string[] = [];
    const record = (q: { sql: string }) => asked.push(q.sql);
    t.knex.on('query', record);
    try {
      expect((await resolve(type, 'BU-A')).status).toBe(200);
      expect((await resolve(type)).status).toBe(200);
    } finally {
      t.knex.removeListener('query', record);
    }
    expect(asked.filter((sql) => sql.includes('print_template_mappings'))).toEqual([]);
  });

  it('when mappings are reordered, deactivated and deleted through the API, then the very next resolve sees each write', async () => {
    const type = await emptyType('PR');
    const first = await insertMapping(type, { display_order: 0 });
    const second = await insertMapping(type, { display_order: 1 });
    const write = async (method: 'PUT' | 'DELETE', id: string, json?: unknown) =>
      expect((await t.fetch(`/api-system/print-template-mappings/${id}`, { method, token, json })).status).toBeLessThan(
        300,
      );

    expect((await resolve(type)).body.id).toBe(first);
    await write('PUT', first, { display_order: 9 });
    expect((await resolve(type)).body.id).toBe(second);
    await write('PUT', second, { is_active: false });
    expect((await resolve(type)).body).toMatchObject({ id: first, display_order: 9 });
    await write('DELETE', first);
    expect((await resolve(type)).status).toBe(404);
  });

  it('when a business unit a mapping names is created through the API, then the next resolve no longer calls its code unknown', async () => {
    const type = await emptyType('PC');
    const code = `BU-${tag()}`;
    await insertMapping(type, { allow_business_unit: [code] });
    expect((await resolve(type, code)).body.unknown_business_unit_codes).toEqual([code]);
    const cluster = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token,
      json: { code: `CL-${tag()}`, name: 'Cache group', max_license_bu: null },
    });
    expect(cluster.status).toBe(201);
    const created = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token,
      json: { cluster_id: ((await cluster.json()) as { id: string }).id, code, name: 'Cache hotel' },
    });
    expect(created.status).toBe(201);
    expect((await resolve(type, code)).body.unknown_business_unit_codes).toEqual([]);
  });

  it('when this process writes through the API, then its next resolve reads the write at once, without waiting for any notification', async () => {
    const type = await emptyType('CN');
    const mapping = await insertMapping(type, { display_label: 'kept' });
    const deaf = await serveApp(t, t.knex, deafFeed());
    try {
      expect((await resolveOn(deaf, token, type)).body.display_label).toBe('kept');
      // Unheard, so still answered from memory: the cache does keep answers.
      await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ id: mapping })
        .update({ display_label: 'unheard' });
      expect((await resolveOn(deaf, token, type)).body.display_label).toBe('kept');
      const res = await fetch(`${deaf.baseUrl}/api-system/print-template-mappings/${mapping}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ display_label: 'written here' }),
      });
      expect(res.status).toBe(200);
      expect((await resolveOn(deaf, token, type)).body.display_label).toBe('written here');
    } finally {
      await deaf.close();
    }
  });

  /** Counts the resets of every cache of this process while `work` runs (a notification is a change, not a reset). */
  async function resetsDuring(work: () => Promise<unknown>): Promise<number> {
    let resets = 0;
    const unsubscribe = t.changes.subscribe({ onChange: () => undefined, onReset: () => void resets++ });
    try {
      await work();
    } finally {
      unsubscribe();
    }
    return resets;
  }

  it('when this process writes only what no cache depends on (a cluster edit, a widget), then its caches keep what they hold', async () => {
    const cluster = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token,
      json: { code: `KP-${tag()}`, name: 'Kept caches' },
    });
    expect(cluster.status).toBe(201);
    const { id, code } = (await cluster.json()) as { id: string; code: string };
    expect(
      await resetsDuring(async () => {
        const edit = await t.fetch(`/api-system/clusters/${id}`, {
          method: 'PUT',
          token,
          json: { code, name: 'Kept caches, renamed' },
        });
        expect(edit.status).toBe(200);
      }),
    ).toBe(0);
    // A write of an announced table, through the API or past it, resets them at once; so does a cascade into one.
    const mapping = await insertMapping(await emptyType('RFQ'), {});
    expect(
      await resetsDuring(async () => {
        const edit = await t.fetch(`/api-system/print-template-mappings/${mapping}`, {
          method: 'PUT',
          token,
          json: { display_order: 3 },
        });
        expect(edit.status).toBe(200);
      }),
    ).toBe(1);
    const mark = t.changes.writeMark();
    await t.knex<ClusterRecord>('clusters').where({ id }).del();
    expect(await resetsDuring(async () => t.changes.localWritesSince(mark))).toBe(1);
  });

  it('when the database is written directly (a template renamed, a user renamed, a mapping reordered), then resolve sees it one notification later', async () => {
    const type = await emptyType('SC');
    const userId = (await aUser(t, { firstname: 'Before' })).id;
    const first = await insertMapping(type, { display_order: 0, created_by_id: userId });
    const second = await insertMapping(type, { display_order: 1 });
    const templateId = (await t
      .knex<PrintTemplateMappingRecord>('print_template_mappings')
      .where({ id: first })
      .first('report_template_id'))!.report_template_id;
    expect((await resolve(type)).body).toMatchObject({ id: first, created_by_name: 'Before' });

    await t.knex<ReportTemplateRecord>('report_templates').where({ id: templateId }).update({ name: 'Renamed form' });
    expect(
      (
        await eventually(
          () => resolve(type),
          (r) => r.body.template_name === 'Renamed form',
        )
      ).body.template_name,
    ).toBe('Renamed form');
    await t.knex<UserRecord>('users').where({ id: userId }).update({ firstname: 'After' });
    expect(
      (
        await eventually(
          () => resolve(type),
          (r) => r.body.created_by_name === 'After',
        )
      ).body.created_by_name,
    ).toBe('After');
    await t
      .knex<PrintTemplateMappingRecord>('print_template_mappings')
      .where({ id: first })
      .update({ display_order: 5 });
    expect(
      (
        await eventually(
          () => resolve(type),
          (r) => r.body.id === second,
        )
      ).body.id,
    ).toBe(second);
  });

  // PGlite admits one process: there is no second replica, and no separate connection that could drop.
  describe.skipIf(engine !== 'postgres')('with several replicas on one PostgreSQL database', () => {
    it('when replica A updates a mapping, then replica B answers the update once the notification arrived, never stale after it', async () => {
      const b = await startReplica(t);
      try {
        const type = await emptyType('RFQ');
        const mapping = await insertMapping(type, { display_order: 0, display_label: 'before' });
        await settle(t, b.changes); // B has heard the insert: the next notification B hears is the update's
        expect((await resolveOn(b, token, type)).body.display_label).toBe('before'); // B keeps it now
        let notified = false;
        // Subscribed after B's cache: by the time this hears the change, the cache has forgotten the type.
        b.changes.subscribe({
          onChange: (change) => void (change.table === 'print_template_mappings' && (notified = true)),
          onReset: () => undefined,
        });

        const res = await t.fetch(`/api-system/print-template-mappings/${mapping}`, {
          method: 'PUT',
          token,
          json: { display_label: 'after' },
        });
        expect(res.status).toBe(200);
        const seen = await eventually(
          async () => {
            const heardBefore = notified;
            const answer = await resolveOn(b, token, type);
            if (heardBefore) expect(answer.body.display_label, 'B answered stale after the notification').toBe('after');
            return answer;
          },
          (answer) => answer.body.display_label === 'after',
        );
        expect(seen.body.display_label).toBe('after');
        expect(notified).toBe(true);
      } finally {
        await b.close();
      }
    });

    it('when the listening connection is terminated, then resolve reads through until the feed listens again, and later writes are still seen', async () => {
      // A slow first reconnect keeps the feed down long enough to watch it.
      const replica = await startReplica(t, { minRetryMs: 1_000, maxRetryMs: 1_000 });
      let resets = 0;
      replica.changes.subscribe({ onChange: () => undefined, onReset: () => void (resets += 1) });
      try {
        const type = await emptyType('INV');
        const mapping = await insertMapping(type, { display_label: 'cached' });
        expect((await resolveOn(replica, token, type)).body.display_label).toBe('cached');

        await t.knex.raw(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
        );
        await eventually(
          async () => replica.changes.live,
          (live) => !live,
        );
        expect(replica.changes.live).toBe(false);
        expect(resets).toBe(1);
        await t
          .knex<PrintTemplateMappingRecord>('print_template_mappings')
          .where({ id: mapping })
          .update({ display_label: 'while down' });
        expect((await resolveOn(replica, token, type)).body.display_label).toBe('while down');

        await eventually(
          async () => replica.changes.live,
          (live) => live,
          5_000,
        );
        expect(replica.changes.live).toBe(true);
        expect(resets).toBe(2);
        expect((await resolveOn(replica, token, type)).body.display_label).toBe('while down'); // kept again
        await t
          .knex<PrintTemplateMappingRecord>('print_template_mappings')
          .where({ id: mapping })
          .update({ display_label: 'after reconnect' });
        const seen = await eventually(
          () => resolveOn(replica, token, type),
          (r) => r.body.display_label === 'after reconnect',
        );
        expect(seen.body.display_label).toBe('after reconnect');
      } finally {
        await replica.close();
      }
    });
  });
});

describe('resolve cache, against a repository it waits on', () => {
  /** A repository whose candidate loads wait until the test settles them; the statement answers `statement`. */
  function waitingRepository() {
    const loads: Array<(ids: string[]) => void> = [];
    const repo = {
      candidates: () =>
        new Promise<MappingRecord[]>((settle) =>
          loads.push((ids) =>
            settle(
              ids.map(
                (id) => ({ id, is_active: true, allow_business_unit: null, deny_business_unit: null }) as MappingRecord,
              ),
            ),
          ),
        ),
      resolve: async () => ({ id: 'statement' }) as MappingRecord,
    } as unknown as MappingRepository;
    return { repo, loads };
  }

  it('when a change arrives while a type loads, then that load answers its callers but is not kept, and the next resolve loads again', async () => {
    const { repo, loads } = waitingRepository();
    const feed = deafFeed();
    const cache = resolveCache({ repo, changes: feed });
    const first = cache.resolve('PO', null);
    const concurrent = cache.resolve('PO', 'BU-A');
    expect(loads).toHaveLength(1); // concurrent first resolves share one query
    feed.localWritesSince(feed.writeMark() - 1);
    loads[0]!(['before the change']);
    expect([(await first)?.id, (await concurrent)?.id]).toEqual(['before the change', 'before the change']);

    const second = cache.resolve('PO', null);
    expect(loads).toHaveLength(2);
    loads[1]!(['after the change']);
    expect((await second)?.id).toBe('after the change');
    expect((await cache.resolve('PO', null))?.id).toBe('after the change');
    expect(loads).toHaveLength(2); // kept this time
    // An answer changed on its way out leaves the kept record as it was for the next one.
    const answer = (await cache.resolve('PO', null))!;
    Object.assign(answer, { id: 'changed by a caller' });
    expect((await cache.resolve('PO', null))?.id).toBe('after the change');
  });

  it('when a type has no mappings, then it is not kept, so asking for made-up types cannot grow the cache', async () => {
    const { repo, loads } = waitingRepository();
    const cache = resolveCache({ repo, changes: deafFeed() });
    const first = cache.resolve('MADE-UP', null);
    loads[0]!([]);
    expect(await first).toBeUndefined();
    const second = cache.resolve('MADE-UP', null);
    expect(loads).toHaveLength(2); // asked again: nothing was kept
    loads[1]!([]);
    expect(await second).toBeUndefined();
  });

  it('when the feed is not live, then every resolve asks the statement and nothing is kept', async () => {
    const { repo, loads } = waitingRepository();
    const cache = resolveCache({ repo, changes: staticChangeFeed() });
    expect((await cache.resolve('PO', null))?.id).toBe('statement');
    expect((await cache.resolve('PO', null))?.id).toBe('statement');
    expect(loads).toHaveLength(0);
  });
});

describe('which statements reach a table the change feed announces', () => {
  const announced = {
    tables: new Set(['permission_grants', 'users']),
    cascadingDeletes: new Set(['clusters', 'users']),
    cascadingUpdates: new Set<string>(),
  };

  it('reads each insert, update and delete of a statement with its table, as knex and hand-written SQL spell them', () => {
    expect(
      writesOf(
        'with "written" as (update "clusters" set "a" = $1 returning *), "r" as (insert into audit_events (a) select 1 from "written") select * from "written"',
      ),
    ).toEqual([
      { verb: 'update', table: 'clusters' },
      { verb: 'insert', table: 'audit_events' },
    ]);
    expect(writesOf('DELETE FROM ONLY "Permission_Grants" where id = $1')).toEqual([
      { verb: 'delete', table: 'permission_grants' },
    ]);
    expect(writesOf('select * from clusters where id = $1 for update')).toEqual([]);
  });

  it('counts a write of an announced table, and a delete or update of a table only where its cascade reaches one', () => {
    expect(reachesAnnounced('insert into "permission_grants" ("user_id") values ($1)', announced)).toBe(true);
    expect(reachesAnnounced('update "users" set "email" = $1', announced)).toBe(true);
    expect(reachesAnnounced('delete from "clusters" where "id" = $1', announced)).toBe(true);
    expect(reachesAnnounced('update "clusters" set "name" = $1', announced)).toBe(false);
    expect(reachesAnnounced('insert into "clusters" ("code") values ($1)', announced)).toBe(false);
    expect(reachesAnnounced('select * from "users" for update', announced)).toBe(false);
  });
});
