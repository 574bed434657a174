// Values the database cannot store are a 400 problem, never a 500 (found by the fuzzer: \u0000 inside JSON columns).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../server/support/index.js';
import { integrityViolations, problemViolations } from './support.js';

describe.each(engines())('hostile values on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let cluster: string;
  let bu: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    cluster = ((await t.knex('clusters').select('id').where({ code: 'CL-C' }).first()) as { id: string }).id;
    bu = ((await t.knex('business_units').select('id').where({ code: 'C-NMN' }).first()) as { id: string }).id;
  });
  afterAll(() => t?.close());

  it('refuses \\u0000 in JSON-stored fields of a business unit with a 400 problem, and stores nothing', async () => {
    const before = Number((await t.knex('business_units').count({ n: '*' }))[0]!.n);
    const bodies = [
      { amount_format: { locales: '\u0000' } },
      { quantity_format: { ['\u0000']: 1 } },
      { recipe_format: 'a\u0000b' },
      { config: [{ key: 'k', label: 'l', datatype: 'string', value: 'a\u0000' }] },
      { config: [{ key: 'k', label: 'l', datatype: 'json', value: { nested: ['\u0000'] } }] },
    ];
    for (const [i, extra] of bodies.entries()) {
      const created = await t.fetch('/api-system/business-units', {
        method: 'POST',
        token: admin,
        json: { cluster_id: cluster, code: `NUL${i}`, name: 'n', ...extra },
      });
      expect(created.status, JSON.stringify(extra)).toBe(400);
      expect(await problemViolations(created)).toEqual([]);
      const updated = await t.fetch(`/api-system/business-units/${bu}`, {
        method: 'PUT',
        token: admin,
        json: { cluster_id: cluster, code: 'C-NMN', name: 'Nimman', ...extra },
      });
      expect(updated.status, JSON.stringify(extra)).toBe(400);
      expect(await problemViolations(updated)).toEqual([]);
    }
    expect(Number((await t.knex('business_units').count({ n: '*' }))[0]!.n)).toBe(before);
    expect(await t.knex('business_units').where({ id: bu }).first()).toMatchObject({ name: 'Nimman Garden Resort' });
    expect(await integrityViolations(t.knex)).toEqual([]);
  });
});
