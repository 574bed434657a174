import { request as httpRequest, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { csvLines, guardFormula } from '../../server/src/core/csv.js';
import { csvReply } from '../../server/src/http/export.js';
import { asFixture, aUserWith, clusterIdByCode } from '../support/factory.js';
import type { AuditEventRecord, BusinessUnitRecord, ClusterRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type Cluster = components['schemas']['Cluster'];
type ClusterPage = components['schemas']['ClusterPage'];
type BusinessUnitPage = components['schemas']['BusinessUnitPage'];
type UserAccountPage = components['schemas']['UserAccountPage'];
type AuditEventPage = components['schemas']['AuditEventPage'];

const BULK = 10_000;
const BOM = [0xef, 0xbb, 0xbf];
const CLUSTER_HEADER = [
  'Code',
  'Name',
  'Alias',
  'Status',
  'Max Licensed BUs',
  'Users',
  'Max Licensed Users',
  'Created',
];

const status = (active: boolean) => (active ? 'Active' : 'Inactive');
const cell = (v: number | string | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The wire form of `a=b&c=d:e` (the validator wants `:` encoded). */
const encodeQuery = (query: string) =>
  new URLSearchParams(
    query
      .split('&')
      .filter(Boolean)
      .map((p) => p.split('=') as [string, string]),
  ).toString();

/** Parses a download: the BOM first, then a header line and the rows (as arrays of cells). */
function parseCsv(bytes: Uint8Array): { header: string[]; rows: string[][] } {
  expect([...bytes.subarray(0, 3)]).toEqual(BOM);
  const [header = [], ...rows] = parse(Buffer.from(bytes.subarray(3)).toString('utf8'), {
    relax_column_count: false,
  });
  return { header, rows };
}

/** The cluster list's row as the export writes it. */
const clusterLine = (c: Cluster) => [
  c.code,
  c.name,
  cell(c.alias_name),
  status(c.is_active),
  cell(c.max_license_bu),
  cell(c.users_count),
  cell(c.total_max_license_users),
  c.created_at,
];

describe.each(engines())('exports on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  async function download(
    path: string,
    token = admin,
  ): Promise<{ res: Response; csv: { header: string[]; rows: string[][] }; text: string }> {
    const res = await t.fetch(path, { token });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.status, Buffer.from(bytes).toString()).toBe(200);
    return { res, csv: parseCsv(bytes), text: Buffer.from(bytes.subarray(3)).toString('utf8') };
  }

  async function getJson<T>(path: string, token = admin): Promise<T> {
    const res = await t.fetch(path, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  /** Every row of the cluster list for this query, read a page of 100 at a time through the list API. */
  async function everyListedCluster(query: string): Promise<Cluster[]> {
    const out: Cluster[] = [];
    for (let page = 1; ; page++) {
      const body = await getJson<ClusterPage>(
        `/api-system/clusters?${encodeQuery(`${query}&perpage=100&page=${page}`)}`,
      );
      out.push(...body.data);
      if (page >= body.paginate.pages) return out;
    }
  }

  /** Rows the export reads, made in one statement: test data, not an operator's change, so it records no audit events. */
  const bulkFixture = (sql: string) =>
    asFixture(t, async (trx) => {
      await trx.raw(sql);
    });

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    // One statement for the bulk: every tenth inactive, every seventh licensed for a number of units.
    await bulkFixture(
      `insert into clusters (code, name, alias_name, max_license_bu, is_active)
       select 'BULK-' || lpad(n::text, 5, '0'), 'Bulk cluster ' || n, null, case when n % 7 = 0 then n % 50 else null end, n % 10 <> 0
       from generate_series(1, ${BULK}) as n`,
    );
  }, 120_000);
  afterAll(() => t?.close());

  it('when the cluster list is asked for every row (perpage=-1), then it answers at most 1,000 with the whole total; the export has them all', async () => {
    const res = await t.fetch('/api-system/clusters?search=BULK-&perpage=-1', { token: admin });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: unknown[]; paginate: { total: number; perpage: number; pages: number } };
    expect(page.data).toHaveLength(1000);
    expect(page.paginate).toMatchObject({ total: BULK, perpage: -1, pages: 1 });
  });

  it('when the literal /export is asked, then it is the export, not a record with the id "export"', async () => {
    const c = await clusterIdByCode(t, 'CL-A');
    const bu = (
      (await t.knex<BusinessUnitRecord>('business_units').select('id').where({ code: 'A-HQ' }).first()) as {
        id: string;
      }
    ).id;
    for (const [path, name] of [
      ['/api-system/clusters/export?perpage=1', 'clusters'],
      ['/api-system/business-units/export?perpage=1', 'business-units'],
      ['/api-system/users/export?perpage=1', 'users'],
      [`/api-system/user/clusters/export?cluster_id=${c}`, 'cluster-members'],
      [`/api-system/user/business-units/export?business_unit_id=${bu}`, 'business-unit-members'],
      ['/api-system/audit-events/export?perpage=1', 'audit-log'],
    ] as const) {
      const res = await t.fetch(path, { token: admin });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
      await res.arrayBuffer();
    }
    // The record routes still answer by id.
    expect((await t.fetch(`/api-system/clusters/${c}`, { token: admin })).status).toBe(200);
    expect((await t.fetch(`/api-system/user/clusters/${c}`, { token: admin })).status).toBe(200);
  });

  it(`when every cluster is exported (${BULK} and more), then the file equals the list read page by page, row for row`, async () => {
    const { csv } = await download('/api-system/clusters/export');
    expect(csv.header).toEqual(CLUSTER_HEADER);
    const listed = await everyListedCluster('');
    expect(listed.length).toBeGreaterThan(BULK);
    expect(csv.rows.length).toBe(listed.length);
    expect(csv.rows.map((r) => r[0])).toEqual(listed.map((c) => c.code));
    expect(csv.rows).toEqual(listed.map(clusterLine));
  }, 120_000);

  it('when the list is filtered, searched and sorted, then the export holds exactly the filtered list', async () => {
    const query = 'search=bulk cluster 1&is_active=false&sort=name:asc';
    const { csv } = await download(`/api-system/clusters/export?${encodeQuery(query)}`);
    const listed = await everyListedCluster(query);
    expect(listed.length).toBeGreaterThan(100);
    expect(csv.rows).toEqual(listed.map(clusterLine));
    expect(csv.rows.every((r) => r[3] === 'Inactive')).toBe(true);
  }, 60_000);

  it('when deleted clusters are asked for, then the export follows the deleted filter', async () => {
    const doomed = await clusterIdByCode(t, 'BULK-00042');
    expect((await t.fetch(`/api-system/clusters/${doomed}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const only = await download('/api-system/clusters/export?deleted=only');
    expect(only.csv.rows.map((r) => r[0])).toEqual((await everyListedCluster('deleted=only')).map((c) => c.code));
    expect(only.csv.rows.map((r) => r[0])).toContain('BULK-00042');
    const live = await download(`/api-system/clusters/export?${encodeQuery('search=BULK-0004&sort=code:desc')}`);
    expect(live.csv.rows.map((r) => r[0])).not.toContain('BULK-00042');
    expect(live.csv.rows.map((r) => r[0])).toEqual(
      (await everyListedCluster('search=BULK-0004&sort=code:desc')).map((c) => c.code),
    );
  });

  it('when page and perpage are given, then the export is that page only, in the same format', async () => {
    const query = 'page=3&perpage=7&sort=code:asc';
    const page = await getJson<ClusterPage>(`/api-system/clusters?${encodeQuery(query)}`);
    const { csv } = await download(`/api-system/clusters/export?${encodeQuery(query)}`);
    expect(csv.header).toEqual(CLUSTER_HEADER);
    expect(csv.rows).toEqual(page.data.map(clusterLine));
    expect(csv.rows).toHaveLength(7);
    // Only perpage: the first page.
    const first = await download('/api-system/clusters/export?perpage=5');
    expect(first.csv.rows.map((r) => r[0])).toEqual(
      (await getJson<ClusterPage>('/api-system/clusters?perpage=5')).data.map((c) => c.code),
    );
  });

  it('when business units are exported, then the product columns come in the list order, filter by cluster included', async () => {
    const a = await clusterIdByCode(t, 'CL-A');
    const query = `cluster_id=${a}&sort=name:desc`;
    const listed = await getJson<BusinessUnitPage>(`/api-system/business-units?${encodeQuery(`${query}&perpage=-1`)}`);
    const { csv } = await download(`/api-system/business-units/export?${encodeQuery(query)}`);
    expect(csv.header).toEqual(['Code', 'Name', 'Alias Name', 'Cluster', 'Status', 'Max Licensed Users', 'Created']);
    expect(csv.rows.map((r) => r[0])).toEqual(listed.data.map((b) => b.code));
    expect(csv.rows.map((r) => r[3])).toEqual(listed.data.map((b) => b.cluster_name));
    expect(csv.rows.map((r) => r[6])).toEqual(listed.data.map((b) => b.created_at));
  });

  it('when a caller reads one cluster only, then its export holds what its list shows; no permission is 403, no token 401', async () => {
    const a = await clusterIdByCode(t, 'CL-A');
    const scoped = await aUserWith(t, [['cluster.read', a]]);
    const clusters = await download('/api-system/clusters/export', scoped.token);
    expect(clusters.csv.rows.map((r) => r[0])).toEqual(['CL-A']);
    const units = await download('/api-system/business-units/export', scoped.token);
    const listed = await getJson<BusinessUnitPage>('/api-system/business-units?perpage=-1', scoped.token);
    expect(units.csv.rows.map((r) => r[0])).toEqual(listed.data.map((b) => b.code));
    expect(new Set(units.csv.rows.map((r) => r[3]))).toEqual(new Set(['Andaman Hotels Group']));

    // Naming a cluster outside its grant is refused, as the list refuses it.
    const b = await clusterIdByCode(t, 'CL-B');
    const other = await t.fetch(`/api-system/business-units/export?cluster_id=${b}`, { token: scoped.token });
    expect(other.status).toBe(403);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(other.headers.get('content-disposition')).toBeNull();

    const nobody = await aUserWith(t, []);
    for (const path of [
      '/api-system/clusters/export',
      '/api-system/users/export',
      '/api-system/business-units/export',
    ]) {
      const res = await t.fetch(path, { token: nobody.token });
      expect(res.status, path).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await res.json()) as { status: number }).toMatchObject({ status: 403 });
      expect((await t.fetch(path)).status).toBe(401);
    }
  });

  it('when a name would be a formula, then it is quoted and prefixed; Thai text and quotes, commas and newlines round-trip', async () => {
    const names = [
      '=HYPERLINK("http://x")',
      '+1+1',
      '@SUM(A1)',
      '-2',
      '\tTabbed',
      'กลุ่มโรงแรมอันดามัน',
      'Comma, "quoted"\nand a new line',
    ];
    await t
      .knex<ClusterRecord>('clusters')
      .insert(names.map((name, i) => ({ code: `FX-${i}`, name, max_license_bu: i })));
    const { csv, text } = await download(`/api-system/clusters/export?${encodeQuery('search=FX-&sort=code:asc')}`);
    expect(text).toContain('"\'=HYPERLINK(""http://x"")"');
    expect(csv.rows.map((r) => r[1])).toEqual(names.map((n) => (/^[=+\-@\t\r]/.test(n) ? `'${n}` : n)));
    expect(csv.rows.map((r) => r[4])).toEqual(names.map((_n, i) => String(i)));
    // Records end in CRLF; the newline inside the quoted name stays as it was.
    expect(text.split('\r\n')).toHaveLength(1 + names.length + 1);
  });

  it('the formula guard touches text only: a negative number is a number', () => {
    expect(guardFormula('=1+1')).toEqual({ value: "'=1+1", quoted: true });
    expect(guardFormula('plain')).toBe('plain');
    expect(
      csvLines(
        [{ n: -5, s: '-5' }],
        [
          { header: 'N', value: (r) => r.n },
          { header: 'S', value: (r) => r.s },
        ],
      ),
    ).toBe('-5,"\'-5"\r\n');
  });

  it('when the accounts are exported, then the columns are those of the console and the filters apply', async () => {
    const query = 'is_active=true&sort=email:desc';
    const listed = await getJson<UserAccountPage>(`/api-system/users?${encodeQuery(`${query}&perpage=100`)}`);
    const { csv } = await download(`/api-system/users/export?${encodeQuery(query)}`);
    expect(csv.header).toEqual([
      'Username',
      'Display Name',
      'Email',
      'Status',
      'Super Admin',
      'Grants',
      'Last Sign-in',
      'Created',
    ]);
    expect(csv.rows.map((r) => r[0])).toEqual(listed.data.map((u) => u.username));
    expect(csv.rows.find((r) => r[0] === 'admin')).toEqual(expect.arrayContaining(['Yes', 'Active']));
  });

  it('when the members of a cluster and of a business unit are exported, then they come as in their lists', async () => {
    const a = await clusterIdByCode(t, 'CL-A');
    const members = await getJson<{ data: components['schemas']['ClusterUser'][] }>(`/api-system/user/clusters/${a}`);
    const clusterCsv = await download(`/api-system/user/clusters/export?cluster_id=${a}`);
    expect(clusterCsv.csv.header).toEqual([
      'Username',
      'Name',
      'Email',
      'Role',
      'Parent Business Unit',
      'Status',
      'Created',
    ]);
    expect(clusterCsv.csv.rows.map((r) => [r[0], r[3], r[4]])).toEqual(
      members.data.map((m) => [m.username, m.role, m.parent_bu_name ?? '']),
    );
    const page = await download(`/api-system/user/clusters/export?cluster_id=${a}&page=2&perpage=1`);
    expect(page.csv.rows.map((r) => r[0])).toEqual([members.data[1]!.username]);

    const bu = (
      (await t.knex<BusinessUnitRecord>('business_units').select('id').where({ code: 'A-HQ' }).first()) as {
        id: string;
      }
    ).id;
    const buMembers = await getJson<{ data: components['schemas']['BusinessUnitUser'][] }>(
      `/api-system/user/business-units/${bu}`,
    );
    const buCsv = await download(`/api-system/user/business-units/export?business_unit_id=${bu}`);
    expect(buCsv.csv.header).toEqual(['Username', 'Name', 'Email', 'Role', 'Status', 'Created']);
    expect(buCsv.csv.rows.map((r) => r[0])).toEqual(buMembers.data.map((m) => m.username));

    expect(
      (await t.fetch(`/api-system/user/clusters/export?cluster_id=${randomUUID()}`, { token: admin })).status,
    ).toBe(404);
    const outsider = await aUserWith(t, [['cluster.read', await clusterIdByCode(t, 'CL-B')]]);
    expect((await t.fetch(`/api-system/user/clusters/export?cluster_id=${a}`, { token: outsider.token })).status).toBe(
      403,
    );
  });

  it('when the audit trail is exported, then its events come newest first with the changes as JSON, filters applied', async () => {
    const query = 'action=deleteCluster';
    const listed = await getJson<AuditEventPage>(`/api-system/audit-events?${query}&perpage=100`);
    expect(listed.data.length).toBeGreaterThan(0);
    const { csv } = await download(`/api-system/audit-events/export?${query}`);
    expect(csv.header).toEqual([
      'When',
      'Actor',
      'Action',
      'Record Type',
      'Record',
      'Cluster',
      'IP',
      'Request',
      'Import',
      'Changes',
    ]);
    expect(csv.rows).toEqual(
      listed.data.map((e) => [
        e.at,
        cell(e.actor_name),
        e.action,
        e.target_type,
        cell(e.target_id),
        cell(e.cluster_id),
        cell(e.ip),
        cell(e.request_id),
        cell(e.import_id),
        JSON.stringify(e.changes),
      ]),
    );
    // An export is a read: it records nothing.
    const before = await t.knex<AuditEventRecord>('audit_events').count({ n: '*' }).first();
    await download('/api-system/audit-events/export');
    expect((await t.knex<AuditEventRecord>('audit_events').count({ n: '*' }).first())?.n).toEqual(before?.n);
  });

  /** A GET on the raw socket, so the test sees the chunks as they arrive and can stop reading or abort. */
  function rawGet(path: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(t.baseUrl + path, { headers: { Authorization: `Bearer ${admin}` } }, resolve);
      req.on('error', reject);
      req.end();
    });
  }

  it('when 10,000 rows are exported, then they arrive as a stream of chunks, not one body', async () => {
    const res = await rawGet('/api-system/clusters/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    let chunks = 0;
    let bytes = 0;
    for await (const chunk of res) {
      chunks++;
      bytes += (chunk as Buffer).length;
    }
    expect(bytes).toBeGreaterThan(BULK * 40);
    expect(chunks).toBeGreaterThan(5);
  }, 60_000);

  it('when the client aborts mid-export, then no transaction is left open and the database keeps answering', async () => {
    if (engine === 'postgres') {
      // More CSV than the loopback socket's buffers hold (tens of MB), so the export is still running when the
      // client stops reading: the open transaction must be seen before the abort, or the test proves nothing.
      await bulkFixture(
        `insert into clusters (code, name, max_license_bu, is_active)
         select 'WIDE-' || lpad(n::text, 5, '0'), rpad('Wide cluster ' || n, 255, '.'), null, true from generate_series(1, 60000) as n`,
      );
    }
    const res = await rawGet('/api-system/clusters/export');
    expect(res.statusCode).toBe(200);
    // Read one chunk, then stop reading: the server waits for the socket to drain, its cursor open.
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    res.pause();
    const db = engine === 'postgres' ? (t.config.database as { url: string }) : null;
    const client = db ? new pg.Client({ connectionString: db.url }) : null;
    await client?.connect();
    /** Sessions of the test database, other than this one, idle inside a transaction. */
    const openTransactions = async () =>
      Number(
        (
          await client!.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
            [new URL(db!.url).pathname.slice(1)],
          )
        ).rows[0]!.n,
      );
    /** Polls for up to 2 s until `done` holds; the last count. */
    const poll = async (done: (n: number) => boolean) => {
      const deadline = Date.now() + 2000;
      let n = await openTransactions();
      while (!done(n) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        n = await openTransactions();
      }
      return n;
    };
    try {
      if (client) expect(await poll((n) => n > 0)).toBeGreaterThan(0);
      res.destroy();
      if (client) expect(await poll((n) => n === 0)).toBe(0);
    } finally {
      res.destroy();
      await client?.end();
    }
    // PGlite has one connection: an export that never let go of it would leave this request waiting.
    const after = await t.fetch('/api-system/clusters?perpage=1', { token: admin, signal: AbortSignal.timeout(5000) });
    expect(after.status).toBe(200);
  }, 30_000);
});

describe('a failing export', () => {
  let t: TestServer;
  let admin: string;
  /** Rows of one column; `failAfter` batches, the source throws. */
  const failing = (failAfter: number) =>
    csvReply({
      name: 'clusters',
      columns: [{ header: 'Code', value: (r: { code: string }) => r.code }],
      batches: (async function* () {
        for (let i = 0; i < failAfter; i++) yield [{ code: `ROW-${i}` }];
        throw new Error('the database went away');
      })(),
    });

  beforeAll(async () => {
    t = await startTestServer('pglite', {
      handlerOverrides: { exportClusters: async () => failing(0), exportBusinessUnits: async () => failing(2) },
    });
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when it fails before the first byte, then the answer is an ordinary problem, without a download header', async () => {
    const res = await t.fetch('/api-system/clusters/export', { token: admin });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('content-disposition')).toBeNull();
  });

  it('when it fails after the first byte, then the connection is cut: the client sees a broken download, not a whole file', async () => {
    // The header and the first rows may still sit in the socket's buffer when it is cut: either way the client fails.
    await expect(
      t.fetch('/api-system/business-units/export', { token: admin }).then((res) => res.arrayBuffer()),
    ).rejects.toThrow();
  });
});
