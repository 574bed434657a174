// Crash safety: a write load, `kill -9` in the middle of it, a restart — every acknowledged write is there and no
// record is half-written. On PostgreSQL, then on PGlite (the embedded default, on its data directory).
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexPkg, { type Knex } from 'knex';
import { createDatabase } from '../../server/src/db/index.js';
import { ackCount, emptyAcks, missingAcks, startWriteLoad } from './write-load.js';
import { ADMIN_PASSWORD, createPgDatabase, integrityViolations, loginAt, startServerProcess } from './support.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const JWT_SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Engine {
  env: Record<string, string>;
  /** Opens the database from the test process (PGlite: only while no server holds the directory). */
  open(): Promise<{ knex: Knex; close(): Promise<void> }>;
  cleanup(): Promise<void>;
}

async function postgresEngine(): Promise<Engine> {
  const db = await createPgDatabase('crash');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crash-pg-'));
  return {
    env: { DATABASE_URL: db.url, DATA_DIR: dataDir, JWT_SECRET },
    async open() {
      const knex = knexPkg.knex({ client: 'pg', connection: db.url, pool: { min: 0, max: 2 } });
      return { knex, close: () => knex.destroy() };
    },
    async cleanup() {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function pgliteEngine(): Promise<Engine> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crash-pglite-'));
  return {
    env: { DATA_DIR: dataDir, JWT_SECRET },
    async open() {
      const db = await createDatabase({ database: { engine: 'pglite', dir: path.join(dataDir, 'db') } });
      return { knex: db.knex, close: () => db.close() };
    },
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const totals = { rounds: 0, verified: 0 };
afterAll(() => {
  console.log(
    `[crash] ${totals.rounds} kill -9 rounds survived, ${totals.verified} acknowledged writes verified in all`,
  );
});

describe.each([
  ['postgres', postgresEngine],
  ['pglite', pgliteEngine],
] as const)('crash safety on %s', (name, makeEngine) => {
  it(`keeps every acknowledged write over ${ROUNDS} kill -9 rounds, with no half-written record`, async () => {
    const engine = await makeEngine();
    const acks = emptyAcks();
    try {
      let userIds: string[] = [];
      let reportTemplateId = '';
      for (let round = 1; round <= ROUNDS; round++) {
        const server = await startServerProcess(engine.env);
        const { access } = await loginAt(server.url, 'admin', ADMIN_PASSWORD);
        if (round === 1) {
          // The first start migrated and seeded; read the fixtures the load needs.
          const get = async (p: string) =>
            (await (await fetch(server.url + p, { headers: { authorization: `Bearer ${access}` } })).json()) as {
              data: Array<{ id: string; username?: string }>;
            };
          userIds = (await get('/api-system/user?perpage=100')).data
            .filter((u) => u.username !== 'admin')
            .map((u) => u.id);
          reportTemplateId = (await get('/api-system/report-templates?perpage=1')).data[0]!.id;
        }
        const load = startWriteLoad({
          targets: [server.url],
          token: access,
          workers: 8,
          tag: `${name.slice(0, 2)}${round}`,
          userIds,
          reportTemplateId,
          acks,
        });
        // Let the load build up (at least 20 acknowledged writes, however busy the machine), then pull the plug mid-flight.
        for (const until = Date.now() + 20_000; load.stats.acked < 20 && Date.now() < until;) await sleep(50);
        await sleep(300 + Math.floor(Math.random() * 1_000));
        await server.kill9();
        await load.stop();
        expect(load.stats.acked, `round ${round} acknowledged some writes`).toBeGreaterThan(0);
        expect(load.stats.failedConnections, `round ${round} was killed mid-load`).toBeGreaterThan(0);

        // Restart the database (PGlite recovers its directory here, as the next server start would).
        const db = await engine.open();
        try {
          expect(await missingAcks(db.knex, acks), `${name} round ${round}`).toEqual([]);
          expect(await integrityViolations(db.knex), `${name} round ${round}`).toEqual([]);
          // No half-written record: every row of the load has its required values.
          const broken = await db.knex('clusters').whereNull('code').orWhereNull('name').orWhereNull('created_at');
          expect(broken).toEqual([]);
        } finally {
          await db.close();
        }
        totals.rounds++;
        console.log(
          `[crash] ${name} round ${round}: ${load.stats.sent} sent, ${load.stats.acked} acknowledged, ${load.stats.failedConnections} cut by the kill; ${ackCount(acks)} acknowledged so far, all present`,
        );
      }
      totals.verified += ackCount(acks);
      // And the server starts again on what the crashes left, and serves it.
      const server = await startServerProcess(engine.env);
      try {
        const { access } = await loginAt(server.url, 'admin', ADMIN_PASSWORD);
        const someCluster = [...acks.clusters.keys()][0]!;
        const res = await fetch(`${server.url}/api-system/clusters/${someCluster}`, {
          headers: { authorization: `Bearer ${access}` },
        });
        expect(res.status).toBe(200);
      } finally {
        await server.stop();
      }
    } finally {
      await engine.cleanup();
    }
  });
});
