// Membership import: a CSV file becomes a plan row by row; a dry run answers it, an apply makes the same plan under
// the licence-cap locks and writes it in one transaction, with one audit event per change carrying the import's id.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aBusinessUnit, aCluster, aClusterMembership, asFixture, aUser, aUserWith } from '../support/factory.js';
import type { AuditEventRecord, BusinessUnitMemberRecord, ClusterMemberRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

interface ImportRow {
  line: number;
  user: string;
  business_unit: string | null;
  cluster: string | null;
  role: 'admin' | 'user' | null;
  active: boolean | null;
  outcome: 'added' | 'updated' | 'unchanged' | 'refused';
  reason: string | null;
  detail: string;
}
interface ImportResult {
  import_id: string;
  dry_run: boolean;
  mode: string;
  applied: boolean;
  summary: { total: number; added: number; updated: number; unchanged: number; refused: number };
  rows: ImportRow[];
}

describe.each(engines())('membership import on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  const uniq = () => randomUUID().slice(0, 6).toUpperCase();

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  const send = (csv: string | Buffer, query = '', token = admin) =>
    t.upload(
      `/api-system/memberships/import${query}`,
      'file',
      typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv,
      'members.csv',
      token,
      'text/csv',
    );
  const imported = async (csv: string | Buffer, query = '', token = admin): Promise<ImportResult> => {
    const res = await send(csv, query, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ImportResult;
  };
  const refusedFile = async (csv: string | Buffer): Promise<string> => {
    const res = await send(csv, '?dry_run=true');
    expect(res.status, await res.clone().text()).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    return ((await res.json()) as { detail: string }).detail;
  };
  const buMembers = async (buId: string) =>
    Object.fromEntries(
      (await t.knex<BusinessUnitMemberRecord>('bu_users').where({ business_unit_id: buId })).map(
        (m: { user_id: string; role: string; is_active: boolean }) => [m.user_id, `${m.role}/${m.is_active}`],
      ),
    );
  const withoutRun = (r: ImportResult) => ({ summary: r.summary, rows: r.rows });
  /** The users join the cluster, straight in the database: a business unit takes its members from its cluster's. */
  const inCluster = (clusterId: string, ...users: Array<{ id: string }>) =>
    asFixture(t, (trx) =>
      trx('cluster_users').insert(users.map((u) => ({ user_id: u.id, cluster_id: clusterId, role: 'user' }))),
    );

  it('when a file mixes every outcome, then the dry run writes nothing and an apply of the valid rows makes the same plan', async () => {
    const cluster = await aCluster(t);
    const [open, capped] = [
      await aBusinessUnit(t, { cluster_id: cluster.id }),
      await aBusinessUnit(t, { cluster_id: cluster.id, max_license_users: 2 }),
    ];
    const other = await aCluster(t);
    const otherBu = await aBusinessUnit(t, { cluster_id: other.id });
    const [ann, bob, cat, dan, eve] = [await aUser(t), await aUser(t), await aUser(t), await aUser(t), await aUser(t)];
    // fay is no user of the cluster; gus becomes one on line 15.
    const [fay, gus] = [await aUser(t), await aUser(t)];
    await inCluster(cluster.id, ann, eve);
    // bob is already a user of `open`, cat already an admin of it.
    await t.knex<BusinessUnitMemberRecord>('bu_users').insert([
      { user_id: bob.id, business_unit_id: open.id, role: 'user', is_active: true },
      { user_id: cat.id, business_unit_id: open.id, role: 'admin', is_active: true },
      { user_id: dan.id, business_unit_id: capped.id, role: 'user', is_active: true },
    ]);
    // The operator may change members of `cluster` only; it can see `other` but not change it.
    const operator = await aUserWith(t, [
      ['cluster.read', cluster.id],
      ['cluster.update', cluster.id],
      ['cluster.read', other.id],
    ]);
    const csv = [
      'user,business_unit,cluster,role,active',
      `${ann.username},${open.code},,admin,true`, // 2 added
      `${bob.email.toUpperCase()},${open.code},,admin,`, // 3 updated (email, any case)
      `${cat.username},${open.code},,,yes`, // 4 unchanged
      `nobody-${uniq()},${open.code},,user,true`, // 5 unknown user
      `${ann.username},NO-SUCH-${uniq()},,user,true`, // 6 unknown BU
      `${ann.username},${otherBu.code},,user,true`, // 7 no permission
      `${eve.username},${capped.code},,user,true`, // 8 added: 2/2 with dan
      `${ann.username},${capped.code},,user,true`, // 9 cap reached counting line 8
      `${ann.username},${open.code},,user,true`, // 10 duplicate of line 2
      `${eve.username},${open.code},,manager,true`, // 11 malformed role
      `${eve.username},${open.code}`, // 12 wrong field count
      `${dan.username},,${cluster.code},admin,false`, // 13 added to the cluster
      `${fay.username},${open.code},,user,true`, // 14 not a user of the cluster
      `${gus.username},,${cluster.code},user,true`, // 15 added to the cluster
      `${gus.username},${open.code},,user,true`, // 16 added: a user of the cluster since line 15
    ].join('\n');

    const dry = await imported(csv, '?dry_run=true', operator.token);
    expect(dry).toMatchObject({ dry_run: true, applied: false, mode: 'all_or_nothing' });
    expect(dry.rows.map((r) => [r.line, r.outcome, r.reason])).toEqual([
      [2, 'added', null],
      [3, 'updated', null],
      [4, 'unchanged', null],
      [5, 'refused', 'unknown_user'],
      [6, 'refused', 'unknown_business_unit'],
      [7, 'refused', 'no_permission'],
      [8, 'added', null],
      [9, 'refused', 'licence_cap_reached'],
      [10, 'refused', 'duplicate_row'],
      [11, 'refused', 'malformed_row'],
      [12, 'refused', 'malformed_row'],
      [13, 'added', null],
      [14, 'refused', 'not_cluster_member'],
      [15, 'added', null],
      [16, 'added', null],
    ]);
    expect(dry.summary).toEqual({ total: 15, added: 5, updated: 1, unchanged: 1, refused: 8 });
    expect(dry.rows[12]!.detail).toBe(
      `"${fay.username}" is not a user of cluster ${cluster.code}, and ${open.code} takes its members from its ` +
        `cluster: add the row "${fay.username},,${cluster.code}" above this one, or add them to the cluster first.`,
    );
    expect(dry.rows[7]!.detail).toBe(
      `${capped.code} has reached its licence limit (2/2, counting 1 row above in this file).`,
    );
    expect(dry.rows[8]!.detail).toBe('The same user and business unit as line 2.');
    expect(dry.rows[9]!.detail).toMatch(/"manager" is not admin or user/);
    expect(dry.rows[10]!.detail).toMatch(/Line 12 has 2 fields; the header has 5/);
    expect(dry.rows[1]!.detail).toBe(`In ${open.code}: user, active → admin, active.`);
    expect(await buMembers(open.id)).toEqual({ [bob.id]: 'user/true', [cat.id]: 'admin/true' });

    // All or nothing (the default): a refused row means nothing is written.
    const refused = await imported(csv, '', operator.token);
    expect(refused).toMatchObject({ dry_run: false, applied: false });
    expect(withoutRun(refused)).toEqual(withoutRun(dry));
    expect(await buMembers(open.id)).toEqual({ [bob.id]: 'user/true', [cat.id]: 'admin/true' });

    const applied = await imported(csv, '?mode=valid_rows', operator.token);
    expect(applied).toMatchObject({ dry_run: false, applied: true, mode: 'valid_rows' });
    expect(withoutRun(applied)).toEqual(withoutRun(dry));
    expect(await buMembers(open.id)).toEqual({
      [ann.id]: 'admin/true',
      [bob.id]: 'admin/true',
      [cat.id]: 'admin/true',
      [gus.id]: 'user/true',
    });
    expect(await buMembers(capped.id)).toEqual({ [dan.id]: 'user/true', [eve.id]: 'user/true' });
    expect(
      await t.knex<ClusterMemberRecord>('cluster_users').where({ user_id: dan.id, cluster_id: cluster.id }).first(),
    ).toMatchObject({
      role: 'admin',
      is_active: false,
    });

    // One audit event per change, in the file's order, each carrying the import's id.
    const events = await t.fetch(`/api-system/audit-events?import_id=${applied.import_id}&perpage=100`, {
      token: admin,
    });
    expect(events.status).toBe(200);
    const trail = (
      (await events.json()) as {
        data: Array<{ action: string; import_id: string; actor_id: string; changes: Record<string, unknown> }>;
      }
    ).data.reverse();
    expect(trail.map((e) => e.action)).toEqual([
      'addBusinessUnitUser',
      'updateBusinessUnitUser',
      'addBusinessUnitUser',
      'addClusterUser',
      'addClusterUser',
      'addBusinessUnitUser',
    ]);
    expect(trail.every((e) => e.import_id === applied.import_id && e.actor_id === operator.id)).toBe(true);
    expect(trail[1]!.changes).toEqual({ role: { before: 'user', after: 'admin' } });

    // Applying the same file again changes nothing more.
    const again = await imported(csv, '?mode=valid_rows', operator.token);
    expect(again.summary).toMatchObject({ added: 0, updated: 0, unchanged: 7 });
    expect((await t.knex<AuditEventRecord>('audit_events').where({ import_id: again.import_id })).length).toBe(0);
  });

  it('when a single add races an import for the last licence of a business unit, then exactly one of them gets it', async () => {
    for (let round = 0; round < 5; round++) {
      const cluster = await aCluster(t);
      const bu = await aBusinessUnit(t, { cluster_id: cluster.id, max_license_users: 2 });
      const [held, viaImport, viaSingle] = [await aUser(t), await aUser(t), await aUser(t)];
      await inCluster(cluster.id, viaImport);
      await t
        .knex<BusinessUnitMemberRecord>('bu_users')
        .insert({ user_id: held.id, business_unit_id: bu.id, role: 'user', is_active: true });
      const [fromFile, single] = await Promise.all([
        imported(`user,business_unit\n${viaImport.username},${bu.code}\n`),
        t.fetch('/api-system/user/business-units', {
          method: 'POST',
          token: admin,
          json: { user_id: viaSingle.id, business_unit_id: bu.id },
        }),
      ]);
      const members = await buMembers(bu.id);
      expect(Object.keys(members)).toHaveLength(2);
      if (fromFile.applied) {
        expect(single.status).toBe(409);
        expect(members[viaImport.id]).toBe('user/true');
      } else {
        expect(single.status).toBe(201);
        expect(fromFile.rows[0]).toMatchObject({ outcome: 'refused', reason: 'licence_cap_reached' });
        expect(members[viaSingle.id]).toBe('user/true');
      }
    }
  });

  it('when 8 imports race 8 cluster adds with a parent business unit over the same units and clusters, then every one finishes: no deadlock', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const cluster = await aCluster(t);
        const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
        const [toBu, toCluster, single] = [await aUser(t), await aUser(t), await aUser(t)];
        await inCluster(cluster.id, toBu);
        return {
          cluster,
          bu,
          file: `user,business_unit,cluster\n${toBu.username},${bu.code},\n${toCluster.username},,${cluster.code}\n`,
          single,
        };
      }),
    );
    const results = await Promise.all(
      pairs.flatMap(({ cluster, bu, file, single }) => [
        send(file).then(async (res) => [res.status, await res.text()] as const),
        t
          .fetch('/api-system/user/clusters', {
            method: 'POST',
            token: admin,
            json: { user_id: single.id, cluster_id: cluster.id, parent_bu_id: bu.id },
          })
          .then(async (res) => [res.status, await res.text()] as const),
      ]),
    );
    expect(results.filter(([status]) => status >= 300)).toEqual([]);
    // Each unit has its imported member and the single add's user, who joined it as their parent business unit.
    for (const { bu, single } of pairs) {
      const members = await buMembers(bu.id);
      expect(Object.keys(members)).toHaveLength(2);
      expect(members[single.id]).toBe('user/true');
    }
  });

  it('when 8 imports race 8 parent business unit changes of the memberships they update, then every one finishes: no deadlock', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const cluster = await aCluster(t);
        const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
        const user = await aUser(t);
        const member = await aClusterMembership(t, { user_id: user.id, cluster_id: cluster.id, role: 'user' });
        // The file adds the user to the unit and changes their cluster role; the single change makes the unit their parent.
        return {
          bu,
          user,
          memberId: member.id,
          file: `user,business_unit,cluster,role\n${user.username},${bu.code},,user\n${user.username},,${cluster.code},admin\n`,
        };
      }),
    );
    const results = await Promise.all(
      pairs.flatMap(({ bu, memberId, file }) => [
        send(file).then(async (res) => [res.status, await res.text()] as const),
        t
          .fetch(`/api-system/user/clusters/${memberId}`, {
            method: 'PUT',
            token: admin,
            json: { parent_bu_id: bu.id },
          })
          .then(async (res) => [res.status, await res.text()] as const),
      ]),
    );
    expect(results.filter(([status]) => status >= 300)).toEqual([]);
    for (const { bu, user, memberId } of pairs) {
      expect(await buMembers(bu.id)).toEqual({ [user.id]: 'user/true' });
      expect(await t.knex<ClusterMemberRecord>('cluster_users').where({ id: memberId }).first()).toMatchObject({
        role: 'admin',
        parent_bu_id: bu.id,
      });
    }
  });

  it('when the file uses a BOM, semicolons, quoted fields, CRLF and Thai names, then it is read as written', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const thai = await aUser(t, { username: `สมชาย.${uniq().toLowerCase()}` });
    const plain = await aUser(t);
    await inCluster(cluster.id, thai, plain);
    const csv = `\uFEFF"User";"Business Unit";Role;Active\r\n"${thai.username}";${bu.code};"admin";"TRUE"\r\n${plain.email};"${bu.code}";user;0\r\n`;
    const result = await imported(csv, '?mode=valid_rows');
    expect(result.rows.map((r) => [r.line, r.user, r.outcome, r.role, r.active])).toEqual([
      [2, thai.username, 'added', 'admin', true],
      [3, plain.email, 'added', 'user', false],
    ]);
    expect(await buMembers(bu.id)).toEqual({ [thai.id]: 'admin/true', [plain.id]: 'user/false' });
  });

  it('when a cluster code is shared by two live clusters, then its rows are refused as ambiguous', async () => {
    const code = `IM-${uniq()}`;
    await aCluster(t, { code, name: 'One' });
    await aCluster(t, { code, name: 'Two' });
    const user = await aUser(t);
    const result = await imported(`user,cluster\n${user.username},${code}\n`, '?dry_run=true');
    expect(result.rows[0]).toMatchObject({ outcome: 'refused', reason: 'ambiguous_cluster' });
  });

  it.each([
    ['empty', '', /The file is empty/],
    ['only blank lines', '\n\n \n', /The file is empty/],
    ['a header and no rows', 'user,business_unit\n', /header but no rows/],
    [
      'no header',
      'alice,A-PKT,admin,true\nbob,A-PKT,user,true\n',
      /Line 1 must be the header naming the columns user, business_unit.*it reads "alice, A-PKT, admin, true"/,
    ],
    [
      'a column named twice',
      'username,email,business_unit\na,b,c\n',
      /Line 1 names the same column twice \("username" and "email"\)/,
    ],
    [
      'an unclosed quote',
      'user,business_unit\nalice,A-PKT\n"bob,A-PKT\ncarol,A-PKT\n',
      /A quoted field is never closed: a " opens a field after line 2/,
    ],
    ['a stray quote', 'user,business_unit\nalice,A-PKT\nbo"b"x,A-PKT\n', /^Line 3 is not valid CSV/],
    ['JSON', '{"user": "alice", "business_unit": "A-PKT"}', /Line 1 must be the header/],
  ])('when the file is %s, then 400 names the problem and the line', async (_label, csv, message) => {
    expect(await refusedFile(csv)).toMatch(message);
  });

  it('when the file is binary or not UTF-8, then 400 names the line', async () => {
    // A PNG's signature holds two line feeds before its first NUL byte.
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect(await refusedFile(png)).toMatch(/not a CSV text file: line 3 holds binary data/);
    const latin1 = Buffer.concat([
      Buffer.from('user,business_unit\nalice,A-PKT\n'),
      Buffer.from('Jos\xe9,A-PKT\n', 'latin1'),
    ]);
    expect(await refusedFile(latin1)).toMatch(/^Line 3 is not UTF-8 text/);
  });

  it('when the file has more than 10,000 rows or 5 MB, then it is refused with the limit', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `user${i},A-PKT`);
    expect(await refusedFile(`user,business_unit\n${rows.join('\n')}\n`)).toBe(
      'The file has 10,001 rows; an import takes at most 10,000 (line 10002 is row 10,001). Split it into files of at most 10,000 rows.',
    );
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const res = await send(big, '?dry_run=true');
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toBe('The file is larger than 5 MB (5,242,880 bytes)');
  });

  it('when 10,000 rows are imported, then the dry run and the apply agree and every member is written', async () => {
    const cluster = await aCluster(t);
    const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
    const users = Array.from({ length: 10_000 }, (_, i) => ({
      username: `bulk-${uniq().toLowerCase()}-${i}`,
      email: `bulk-${uniq().toLowerCase()}-${i}@example.com`,
      password_hash: 'x',
    }));
    await asFixture(t, async (trx) => {
      for (let i = 0; i < users.length; i += 1000) {
        const ids: Array<{ id: string }> = await trx('users')
          .insert(users.slice(i, i + 1000))
          .returning('id');
        await trx('cluster_users').insert(ids.map(({ id }) => ({ user_id: id, cluster_id: cluster.id, role: 'user' })));
      }
    });
    const csv = `user,business_unit,role\n${users.map((u, i) => `${u.username},${bu.code},${i % 10 === 0 ? 'admin' : 'user'}`).join('\n')}\n`;
    const dry = await imported(csv, '?dry_run=true');
    const applied = await imported(csv);
    expect(applied.applied).toBe(true);
    expect(withoutRun(applied)).toEqual(withoutRun(dry));
    expect(applied.summary).toEqual({ total: 10_000, added: 10_000, updated: 0, unchanged: 0, refused: 0 });
    expect(Object.keys(await buMembers(bu.id))).toHaveLength(10_000);
    const [counted] = await t
      .knex<AuditEventRecord>('audit_events')
      .where({ import_id: applied.import_id })
      .count({ n: '*' });
    expect(Number(counted!.n)).toBe(10_000);
  });

  it('when a caller holds cluster.update nowhere, then the import is refused before the file is read', async () => {
    const reader = await aUserWith(t, [['cluster.read', null]]);
    const res = await send('user,business_unit\nalice,A-PKT\n', '?dry_run=true', reader.token);
    expect(res.status).toBe(403);
  });

  it('when no file is attached, then 400 asks for it', async () => {
    const form = new FormData();
    form.append('note', 'no file');
    const res = await t.fetch('/api-system/memberships/import?dry_run=true', {
      method: 'POST',
      token: admin,
      body: form,
    });
    expect(res.status).toBe(400);
    // The contract's required field refuses it, naming the field.
    expect(JSON.stringify(((await res.json()) as { errors?: unknown }).errors)).toMatch(/file/);
  });
});
