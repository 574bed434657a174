// A statement compiled once per shape answers what knex's builder answers, for every value of that shape; where the
// values would change the text, it is built every time instead of answering from a wrong template.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { compiledStatement } from '../../server/src/db/compiled-statement.js';
import { aCluster, aClusterMembership, aUser, unique } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type Values = { prefix: string | undefined; limit: number; offset: number };

const usernames = (rows: Array<{ username: string }>) => rows.map((r) => r.username);

describe.each(engines())('statements compiled once per shape on %s', (engine) => {
  let t: TestServer;
  let prefix: string;
  let names: string[];
  beforeAll(async () => {
    t = await startTestServer(engine);
    prefix = unique('cs').toLowerCase();
    names = [];
    for (let i = 0; i < 7; i++) names.push((await aUser(t, { username: `${prefix}${i}` })).username);
    names.sort();
  });
  afterAll(() => t?.close());

  const build = (db: Knex | Knex.Transaction, v: Values) => {
    const qb = db('users').select('username').orderBy('username').limit(v.limit).offset(v.offset);
    if (v.prefix !== undefined) qb.where('username', 'like', v.prefix);
    return qb;
  };

  it('when a shape runs again with other values, then it answers from its template what the builder answers', async () => {
    const statement = compiledStatement<Values>(build);
    for (const [limit, offset] of [
      [3, 0],
      [3, 3],
      [2, 5],
      [10, 0],
    ] as const) {
      const values = { prefix: `${prefix}%`, limit, offset };
      const rows = await statement.rows<{ username: string }>(t.knex, values);
      expect(usernames(rows), `${limit}/${offset}`).toEqual(names.slice(offset, offset + limit));
      expect(usernames(rows)).toEqual(usernames((await build(t.knex, values)) as Array<{ username: string }>));
    }
    // Another prefix, the same shape: the same template with the new value.
    expect(await statement.rows(t.knex, { prefix: `${prefix}4%`, limit: 5, offset: 0 })).toEqual([
      { username: `${prefix}4` },
    ]);
    // Offset 0 and a later offset are two shapes: knex leaves `offset 0` out of the text.
    expect(statement.templates).toBe(2);
    // A transaction has a client object of its own, of the same dialect: it runs from the same template.
    await t.knex.transaction(async (trx) => {
      const rows = await statement.rows<{ username: string }>(trx, { prefix: `${prefix}%`, limit: 3, offset: 3 });
      expect(usernames(rows)).toEqual(names.slice(3, 6));
    });
    expect(statement.templates).toBe(2);
    // The other shape (no prefix) has its own text and template.
    const all = await statement.rows<{ username: string }>(t.knex, { prefix: undefined, limit: 1, offset: 0 });
    expect(all).toHaveLength(1);
    expect(statement.templates).toBe(3);
  });

  it('when a value is written into the text, or changed on its way to the binding, then that shape is built every time and still answers right', async () => {
    // The limit is written into the SQL text: one template would answer every limit with the first.
    const inText = compiledStatement<Values>((db, v) =>
      db
        .select('username')
        .from(
          db.raw(
            `(select username from users where username like ? order by username limit ${Number(v.limit)}) as page`,
            [v.prefix!],
          ),
        )
        .orderBy('username'),
    );
    // The pattern is made inside the builder: the stand-in would not come back as the value.
    const transformed = compiledStatement<Values>((db, v) =>
      db('users').select('username').where('username', 'like', `${v.prefix}%`).orderBy('username').limit(v.limit),
    );
    for (const limit of [2, 4]) {
      const a = await inText.rows<{ username: string }>(t.knex, { prefix: `${prefix}%`, limit, offset: 0 });
      expect(usernames(a)).toEqual(names.slice(0, limit));
      const b = await transformed.rows<{ username: string }>(t.knex, { prefix, limit, offset: 0 });
      expect(usernames(b)).toEqual(names.slice(0, limit));
    }
    expect(inText.templates).toBe(0);
    expect(transformed.templates).toBe(0);
  });

  it('when callers ask for more shapes than a statement keeps, then the ones past the bound are built every time and still answer right', async () => {
    const bounded = compiledStatement<Values, { descending: boolean }>(
      (db, v, shape) =>
        build(db, v)
          .clearOrder()
          .orderBy('username', shape.descending ? 'desc' : 'asc'),
      { maxShapes: 2 },
    );
    const values = { prefix: `${prefix}%`, limit: 3, offset: 0 };
    const ascending = names.slice(0, 3);
    const descending = [...names].reverse().slice(0, 3);
    for (let round = 0; round < 2; round++) {
      expect(usernames(await bounded.rows(t.knex, values, { descending: false }))).toEqual(ascending);
      expect(usernames(await bounded.rows(t.knex, values, { descending: true }))).toEqual(descending);
      // A third shape (no prefix) finds the statement full: it is built, not kept.
      expect(await bounded.rows(t.knex, { ...values, prefix: undefined }, { descending: false })).toHaveLength(3);
    }
    expect(bounded.templates).toBe(2);
  });

  it('when the add-user search runs in each of its four shapes, then each page matches the search by page number', async () => {
    const admin = await t.login('admin');
    const { id: clusterId } = await aCluster(t);
    const member = await aUser(t, { username: `${prefix}member` });
    await aClusterMembership(t, { user_id: member.id, cluster_id: clusterId });
    const search = async (query: string) => {
      const res = await t.fetch(`/api-system/user?${query}`, { token: admin });
      expect(res.status, query).toBe(200);
      return (await res.json()) as { data: Array<{ username: string }>; paginate: { total: number } };
    };
    const walk = async (query: string) => {
      const first = await search(`${query}&perpage=3&page=1`);
      const rest = [];
      for (let page = 2; (page - 1) * 3 < first.paginate.total; page++)
        rest.push(...(await search(`${query}&perpage=3&page=${page}`)).data);
      return { total: first.paginate.total, usernames: usernames([...first.data, ...rest]) };
    };
    // Twice each, so the second walk answers from the template the first one made.
    for (let round = 0; round < 2; round++) {
      expect(await walk(`search=${prefix.toUpperCase()}`)).toEqual({
        total: 8,
        usernames: [...names, `${prefix}member`].sort(),
      });
      expect(await walk(`search=${prefix}&exclude_cluster_id=${clusterId}`)).toEqual({ total: 7, usernames: names });
      const everyone = await search('perpage=1');
      const notMembers = await search(`perpage=1&exclude_cluster_id=${clusterId}`);
      expect(notMembers.paginate.total).toBe(everyone.paginate.total - 1);
    }
  });
});
