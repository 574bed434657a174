// Webhooks under failure, on PostgreSQL with real server processes: `kill -9` of the server while a delivery is in
// flight loses no committed event (the outbox is in the event's transaction; the restarted server takes the
// delivery up again when its lease ends), and two replicas on one database deliver each event exactly once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexPkg from 'knex';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../server/support/webhook-receiver.js';
import {
  ADMIN_PASSWORD,
  createPgDatabase,
  jsonRequest,
  loginAt,
  startServerProcess,
  uniqueCode,
  type ServerProcess,
} from './support.js';

const JWT_SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function postgres() {
  const db = await createPgDatabase('webhooks');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'webhooks-pg-'));
  const knex = knexPkg.knex({ client: 'pg', connection: db.url, pool: { min: 0, max: 2 } });
  return {
    env: {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      JWT_SECRET,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '2',
    },
    knex,
    async cleanup() {
      await knex.destroy();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates `count` clusters through the server(s), in turn: each one a committed createCluster event. */
async function createClusters(servers: ServerProcess[], token: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await jsonRequest(servers[i % servers.length]!.url, 'POST', '/api-system/clusters', token, {
      code: uniqueCode('WH'),
      name: 'Webhook soak',
      is_active: true,
    });
    expect(res.status, await res.text()).toBe(201);
  }
}

const eventIdsOf = (received: Array<{ path: string; headers: Record<string, unknown> }>, p: string) =>
  received.filter((r) => r.path === p).map((r) => String(r.headers['platform-event-id']));

describe('webhooks on PostgreSQL server processes', () => {
  it('when the server is killed with kill -9 mid-delivery, then after a restart every committed event is delivered', async () => {
    const engine = await postgres();
    let hanging = true;
    const receiver = await startReceiver({ '/crash': () => (hanging ? 'hang' : 200) });
    let server = await startServerProcess(engine.env);
    try {
      const { access } = await loginAt(server.url, 'admin', ADMIN_PASSWORD);
      const created = await jsonRequest(server.url, 'POST', '/api-system/webhooks', access, {
        url: receiver.url('/crash'),
        event_types: ['createCluster'],
      });
      expect(created.status).toBe(201);
      await createClusters([server], access, 12);
      await receiver.waitFor('/crash', 1);
      await server.kill9();
      hanging = false;
      const committed = (
        await engine.knex('audit_events').where({ action: 'createCluster' }).select<Array<{ id: string }>>('id')
      ).map((e) => e.id);
      expect(committed).toHaveLength(12);
      server = await startServerProcess(engine.env);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const delivered = new Set(eventIdsOf(receiver.received.slice(), '/crash'));
        if (committed.every((id) => delivered.has(id))) break;
        await sleep(200);
      }
      const delivered = new Set(eventIdsOf(receiver.received, '/crash'));
      expect(
        committed.filter((id) => !delivered.has(id)),
        'committed events never delivered',
      ).toEqual([]);
      // The receiver has each event before the dispatcher records its answer: wait for the record too.
      const recorded = async () =>
        (await engine.knex('webhook_deliveries').distinct<Array<{ status: string }>>('status')).map((s) => s.status);
      const until = Date.now() + 15_000;
      while (Date.now() < until && (await recorded()).some((status) => status !== 'delivered')) await sleep(200);
      expect(await recorded()).toEqual(['delivered']);
    } finally {
      await server.stop();
      await receiver.close();
      await engine.cleanup();
    }
  });

  it('when two replicas share the outbox, then each event is delivered exactly once between them', async () => {
    const engine = await postgres();
    const receiver = await startReceiver();
    const servers = [await startServerProcess(engine.env)];
    try {
      servers.push(await startServerProcess(engine.env));
      const { access } = await loginAt(servers[0]!.url, 'admin', ADMIN_PASSWORD);
      const created = await jsonRequest(servers[1]!.url, 'POST', '/api-system/webhooks', access, {
        url: receiver.url('/replicas'),
        event_types: ['createCluster', 'updateCluster'],
      });
      expect(created.status).toBe(201);
      await createClusters(servers, access, 40);
      await receiver.waitFor('/replicas', 40, 30_000);
      // Whatever is still on its way arrives within a poll; none may come twice.
      await sleep(1_500);
      const ids = eventIdsOf(receiver.received, '/replicas');
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      const latencies = receiver.received.map(
        (r) => r.at - Date.parse((JSON.parse(r.body) as { created_at: string }).created_at),
      );
      latencies.sort((a, b) => a - b);
      console.log(
        `[webhooks] two replicas: 40 events, each delivered once; commit → delivery median ${latencies[20]} ms, max ${latencies.at(-1)} ms`,
      );
    } finally {
      for (const s of servers) await s.stop();
      await receiver.close();
      await engine.cleanup();
    }
  });
});
