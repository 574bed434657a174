// Liveness and readiness: /healthz answers while the process and its database are up, /readyz also when the schema is
// exactly this version's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './support/index.js';

describe.each(engines())('liveness and readiness on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t?.close());

  it('when /healthz is called without a token, then the service and database report ok with the version', async () => {
    const { data, response } = await t.client().GET('/healthz');
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'ok', database: 'ok', version: t.config.version });
  });

  it('when /readyz is called without a token, then the service is ready with every migration applied', async () => {
    const { data, response } = await t.client().GET('/readyz');
    expect(response.status).toBe(200);
    const applied = (await t.knex('knex_migrations').count({ n: '*' }).first()) as { n: number | string };
    expect(data).toMatchObject({
      status: 'ready',
      database: 'ok',
      migrations: { applied: Number(applied.n) },
      version: t.config.version,
    });
    expect(data!.migrations.latest).toMatch(/^\d{4}_/);
  });

  it('when the database holds a migration this server does not know, or lacks one, then /readyz answers 503 saying which', async () => {
    const other = await startTestServer(engine, { seed: false });
    try {
      await other
        .knex('knex_migrations')
        .insert({ name: '9999_from_a_newer_version', batch: 99, migration_time: new Date() });
      let res = await other.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/9999_from_a_newer_version.*newer version/);
      expect((await other.fetch('/healthz')).status, 'liveness does not depend on the schema').toBe(200);

      await other.knex('knex_migrations').where({ name: '9999_from_a_newer_version' }).delete();
      const latest = (await other.knex('knex_migrations').orderBy('id', 'desc').first()) as { name: string };
      await other.knex('knex_migrations').where({ name: latest.name }).delete();
      res = await other.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(((await res.json()) as { detail: string }).detail).toContain(
        `lacks 1 migration of this version (${latest.name})`,
      );
    } finally {
      await other.close();
    }
  });

  it('when the database is gone, then /healthz answers 503 problem', async () => {
    const other = await startTestServer('pglite');
    await other.knex.destroy();
    try {
      const res = await other.fetch('/healthz');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const ready = await other.fetch('/readyz');
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { detail: string }).detail).toBe('The service cannot reach its database.');
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
