// Two server processes on one PostgreSQL database and one storage directory: a mixed load over both, one killed,
// the other carries on — no acknowledged write lost, tokens and signed file URLs good on either, throttling shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexPkg, { type Knex } from 'knex';
import { wellFormedPng } from '../support/images.js';
import { ackCount, emptyAcks, missingAcks, startWriteLoad } from './write-load.js';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  createPgDatabase,
  integrityViolations,
  jsonRequest,
  loginAt,
  startServerProcess,
  type ServerProcess,
} from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two replicas on one PostgreSQL and one storage directory', () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let knex: Knex;
  beforeAll(async () => {
    db = await createPgDatabase('replicas');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'replicas-'));
    const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex') };
    // Both start at once against an empty database: migrations and the first-start seed must not collide.
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    knex = knexPkg.knex({ client: 'pg', connection: db.url, pool: { min: 0, max: 2 } });
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await knex?.destroy();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeded once although both replicas started together', async () => {
    expect(Number((await knex('users').whereRaw('lower(username) = ?', ['admin']).count({ n: '*' }))[0]!.n)).toBe(1);
    expect(Number((await knex('clusters').where({ code: 'CL-A' }).count({ n: '*' }))[0]!.n)).toBe(1);
  });

  it("accepts tokens issued by the other replica, and serves the other replica's uploads by signed URL", async () => {
    const fromA = await loginAt(a.url, 'viewer', DEMO_PASSWORD);
    const onB = await jsonRequest(b.url, 'GET', '/api-system/clusters', fromA.access);
    expect(onB.status).toBe(200);
    await onB.arrayBuffer();
    // A refresh token from A rotates on B, and the spent one is refused on A.
    const rotated = await jsonRequest(b.url, 'POST', '/api/auth/refresh-token', undefined, {
      refresh_token: fromA.refresh,
    });
    expect(rotated.status).toBe(200);
    await rotated.arrayBuffer();
    const reused = await jsonRequest(a.url, 'POST', '/api/auth/refresh-token', undefined, {
      refresh_token: fromA.refresh,
    });
    expect(reused.status).toBe(401);
    await reused.arrayBuffer();

    const admin = await loginAt(b.url, 'admin', ADMIN_PASSWORD);
    const cluster = ((await knex('clusters').select('id').where({ code: 'CL-B' }).first()) as { id: string }).id;
    const form = new FormData();
    form.append('logo', new Blob([new Uint8Array(wellFormedPng(4, 4))], { type: 'image/png' }), 'logo.png');
    const up = await fetch(`${b.url}/api-system/clusters/${cluster}/logo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.access}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const { url } = (await up.json()) as { url: string };
    const file = await fetch(new URL(url, a.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    await file.arrayBuffer();
  });

  it('throttles failed sign-ins across both replicas, even when they arrive at once', async () => {
    const subject = `nobody-${randomUUID().slice(0, 8)}`;
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        jsonRequest(i % 2 ? a.url : b.url, 'POST', '/api/auth/login', undefined, {
          username: subject,
          password: 'wrong-password',
        }),
      ),
    );
    const statuses = tries.map((r) => r.status);
    await Promise.all(tries.map((r) => r.arrayBuffer()));
    // Five failures of this client delay it on this login: no more than five 401s in all, whichever replica answered.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    for (const base of [a.url, b.url]) {
      const res = await jsonRequest(base, 'POST', '/api/auth/login', undefined, {
        username: subject,
        password: 'wrong-password',
      });
      expect(res.status, base).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      await res.arrayBuffer();
    }
    // A client delayed for a real user on A is delayed on B too, even with the right password (the counters live in
    // the database; only another client, one that has not failed, would still get in).
    for (let i = 0; i < 5; i++)
      await (
        await jsonRequest(a.url, 'POST', '/api/auth/login', undefined, { username: 'mapper', password: 'nope-nope' })
      ).arrayBuffer();
    const locked = await jsonRequest(b.url, 'POST', '/api/auth/login', undefined, {
      username: 'mapper',
      password: DEMO_PASSWORD,
    });
    expect(locked.status).toBe(429);
    await locked.arrayBuffer();
    // A client is delayed over every account it tries, and the next test signs in from this same address: forget the
    // failures, as an administrator's unlock would.
    await knex('login_attempts').delete();
  });

  it('loses no acknowledged write when one replica is killed under a mixed load and the other carries on', async () => {
    const { access } = await loginAt(a.url, 'admin', ADMIN_PASSWORD);
    const userIds = ((await knex('users').select('id').where({ is_super_admin: false })) as Array<{ id: string }>).map(
      (r) => r.id,
    );
    const reportTemplateId = ((await knex('report_templates').select('id').first()) as { id: string }).id;
    const acks = emptyAcks();
    const load = startWriteLoad({
      targets: [a.url, b.url],
      token: access,
      workers: 8,
      tag: 'RP',
      userIds,
      reportTemplateId,
      acks,
    });
    // Reads mixed in, over both.
    let reading = true;
    let readErrors = 0;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        for (const base of [a.url, b.url]) {
          try {
            const res = await jsonRequest(base, 'GET', '/api-system/business-units?perpage=20', access);
            await res.arrayBuffer();
            reads++;
            if (res.status !== 200) readErrors++;
          } catch {
            /* the killed replica */
          }
        }
      }
    })();
    await sleep(2_000);
    const beforeKill = load.stats.acked;
    await a.kill9();
    await sleep(3_000);
    const afterKill = load.stats.acked - beforeKill;
    await load.stop();
    reading = false;
    await reader;
    expect(beforeKill).toBeGreaterThan(0);
    expect(afterKill, 'the surviving replica kept acknowledging writes').toBeGreaterThan(0);
    expect(readErrors).toBe(0);
    expect(await missingAcks(knex, acks)).toEqual([]);
    expect(await integrityViolations(knex)).toEqual([]);
    // The survivor still serves everything, with a token the dead replica issued.
    const res = await jsonRequest(b.url, 'GET', `/api-system/clusters/${[...acks.clusters.keys()].at(-1)!}`, access);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    console.log(
      `[replicas] ${load.stats.sent} writes sent, ${ackCount(acks)} acknowledged and verified (${afterKill} after the kill), ${reads} reads, ${load.stats.failedConnections} cut by the kill`,
    );
  });
});
