import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { hashPassword } from '../../server/src/modules/auth/passwords.js';
import type { UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { anyString } from '../support/matchers.js';

type CurrencyList = components['schemas']['CurrencyList'];

describe.each(engines())('currencies on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  async function list(query = '', token = admin): Promise<CurrencyList> {
    const res = await t.fetch(`/api-system/currencies${query}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as CurrencyList;
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when currencies are listed, then every currency comes back ordered by code with all its fields', async () => {
    await t.knex('currencies').insert({
      code: 'AAA',
      name: 'Test inactive',
      symbol: 'A',
      decimal_places: 3,
      description: null,
      is_active: false,
    });
    const { data } = await list();
    const codes = data.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['AAA', 'THB', 'USD', 'JPY']));
    expect(data.find((c) => c.code === 'JPY')).toEqual({
      id: anyString(),
      code: 'JPY',
      name: 'Japanese Yen',
      symbol: '¥',
      decimal_places: 0,
      description: anyString(),
      is_active: true,
    });
    expect(data.find((c) => c.code === 'AAA')).toMatchObject({
      is_active: false,
      description: null,
      decimal_places: 3,
    });
  });

  it('when active_only is true, then inactive currencies are left out', async () => {
    await t
      .knex('currencies')
      .insert({ code: 'ZZZ', name: 'Retired', symbol: 'Z', decimal_places: 2, is_active: false });
    const active = await list('?active_only=true');
    expect(active.data.map((c) => c.code)).not.toContain('ZZZ');
    expect(active.data.every((c) => c.is_active)).toBe(true);
    expect((await list('?active_only=false')).data.map((c) => c.code)).toContain('ZZZ');
    expect((await t.fetch('/api-system/currencies?active_only=perhaps', { token: admin })).status).toBe(400);
  });

  it('when the caller reads some cluster, then it may list currencies; without any read grant, then 403', async () => {
    expect((await list('', await t.login('viewer'))).data.length).toBeGreaterThan(0);
    expect((await list('', await t.login('editor-a'))).data.length).toBeGreaterThan(0);
    const username = `cur-${randomUUID().slice(0, 8)}`;
    await t
      .knex<UserRecord>('users')
      .insert({ username, email: `${username}@example.com`, password_hash: await hashPassword('currency-pass') });
    const res = await t.fetch('/api-system/currencies', { token: await t.login(username, 'currency-pass') });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await t.fetch('/api-system/currencies')).status).toBe(401);
  });
});
