// The bare limit: node:http + pg running the same hand-written SQL as the service for the benchmarked reads (and the
// login and widget write of the mixed scenario), with the same token check and permission load on every request,
// no framework, no validator, no query builder. The difference to the service is what the stack costs.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, createHmac, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const OID_INT8 = 20;
const OID_NUMERIC = 1700;
const OID_DATE = 1082;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === OID_INT8 || oid === OID_NUMERIC) return (v: string) => Number(v);
    if (oid === OID_DATE) return (v: string) => v;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

const ISSUER = 'platform-admin';
const AUDIENCE = 'platform-admin-api';
const ACCESS_TTL = 15 * 60;
const REFRESH_TTL = 30 * 24 * 60 * 60;

const name = (a: string) => {
  const part = (c: string) => `nullif(btrim(${a}.${c}), '')`;
  return `coalesce(nullif(concat_ws(' ', ${part('firstname')}, ${part('middlename')}, ${part('lastname')}), ''), ${part('username')}, ${a}.email)`;
};
const actors = (table: string) =>
  ['created', 'updated', 'deleted']
    .map((a) => `left join users ${table}_${a}_by on ${table}_${a}_by.id = ${table}.${a}_by_id`)
    .join(' ');
const actorNames = (table: string) => ['created', 'updated', 'deleted'].map((a) => `${name(`${table}_${a}_by`)} as ${a}_by_name`).join(', ');

export const SQL = {
  permissions: `select users.is_super_admin, users.is_active, permission_grants.permission_key, permission_grants.cluster_id
    from users left join permission_grants on permission_grants.user_id = users.id where users.id = $1
    order by permission_grants.permission_key asc`,
  clusterCount: 'select count(*) as count from clusters where clusters.deleted_at is null',
  clusterPage: `select clusters.id, clusters.code, clusters.name, clusters.alias_name, clusters.max_license_bu, clusters.is_active,
      clusters.logo_key, clusters.avatar_key, clusters.created_at, clusters.created_by_id, clusters.updated_at, clusters.updated_by_id,
      clusters.deleted_at, clusters.deleted_by_id, ${actorNames('clusters')}
    from clusters ${actors('clusters')}
    where clusters.id in (select id from clusters where deleted_at is null order by created_at desc, id asc limit $1 offset $2)
    order by clusters.created_at desc, clusters.id asc`,
  clusterBuCounts: `select cluster_id, count(*) as bu_count, sum(max_license_users) as total, bool_or(max_license_users is null) as unlimited
    from business_units where cluster_id = any($1::uuid[]) and deleted_at is null group by cluster_id`,
  clusterUserCounts: 'select cluster_id, count(*) as users_count from cluster_users where cluster_id = any($1::uuid[]) group by cluster_id',
  buCount: `select count(*) as count from business_units inner join clusters on clusters.id = business_units.cluster_id
    where business_units.deleted_at is null and business_units.cluster_id = $1`,
  buPage: `select business_units.*, clusters.name as cluster_name, ${actorNames('business_units')}
    from business_units inner join clusters on clusters.id = business_units.cluster_id ${actors('business_units')}
    where business_units.id in (select business_units.id from business_units inner join clusters on clusters.id = business_units.cluster_id
      where business_units.deleted_at is null and business_units.cluster_id = $1
      order by business_units.created_at desc, business_units.id asc limit $2 offset $3)
    order by business_units.created_at desc, business_units.id asc`,
  buMemberCounts: 'select business_unit_id, count(*) as count from bu_users where business_unit_id = any($1::uuid[]) group by business_unit_id',
  userWhere: `(lower(users.username) like $1 or lower(users.email) like $1 or lower(users.firstname) like $1 or lower(users.lastname) like $1)`,
  resolve: `select m.*, rt.name as template_name, rt.report_group as template_group, ${name('cu')} as created_by_name, ${name('uu')} as updated_by_name
    from print_template_mappings as m
    left join report_templates as rt on rt.id = m.report_template_id and rt.deleted_at is null
    left join users as cu on cu.id = m.created_by_id left join users as uu on uu.id = m.updated_by_id
    where m.deleted_at is null and m.document_type = $1 and m.is_active = true
      and not (coalesce(m.deny_business_unit, '[]'::jsonb) @> jsonb_build_array($2::text))
      and (m.allow_business_unit is null or m.allow_business_unit = '[]'::jsonb or m.allow_business_unit @> jsonb_build_array($2::text))
    order by m.is_default desc, m.display_order asc, m.created_at asc, m.id asc limit 1`,
  widgets: `select id, dataset_id, widget_type, title, order_index, created_at, updated_at from dashboard_widgets
    where user_id = $1 order by order_index asc, created_at asc, id asc`,
  widgetPatch: `update dashboard_widgets set title = coalesce($3, title), order_index = coalesce($4, order_index), updated_at = now()
    where id = $1 and user_id = $2 returning id, dataset_id, widget_type, title, order_index, created_at, updated_at`,
  lockedFor: `select extract(epoch from (locked_until - now()))::float8 as seconds from login_attempts where subject = $1 and locked_until > now() limit 1`,
  findLogin: `select id, username, email, password_hash, is_active from users where lower(username) = $1 or lower(email) = $1
    order by (lower(username) = $1) desc limit 1`,
  clearFailures: 'delete from login_attempts where subject = $1',
  insertRefresh: `insert into refresh_tokens (user_id, token_hash, family_id, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4))`,
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Perms {
  super: boolean;
  platform: string[];
  clusters: Record<string, string[]>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

function signJwt(secret: string, sub: string): string {
  const iat = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ sub, iss: ISSUER, aud: AUDIENCE, iat, exp: iat + ACCESS_TTL }));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

function verifyJwt(secret: string, token: string): string | null {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return null;
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const h = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
    const p = JSON.parse(Buffer.from(body, 'base64url').toString()) as { sub?: unknown; iss?: string; aud?: string; exp?: number };
    if (h.alg !== 'HS256' || p.iss !== ISSUER || p.aud !== AUDIENCE || typeof p.exp !== 'number' || p.exp <= Date.now() / 1000) return null;
    return typeof p.sub === 'string' ? p.sub : null;
  } catch {
    return null;
  }
}

function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return Promise.resolve(false);
  const expected = Buffer.from(key, 'base64url');
  return new Promise((resolve, reject) =>
    scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) }, (err, got) =>
      err ? reject(err) : resolve(timingSafeEqual(got, expected)),
    ),
  );
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function audit(row: Record<string, unknown>) {
  const actor = (a: 'created' | 'updated' | 'deleted') => ({
    at: iso(row[`${a}_at`]),
    id: (row[`${a}_by_id`] as string | null) ?? null,
    name: (row[`${a}_by_name`] as string | null) ?? null,
    avatar: null,
  });
  return {
    audit: { created: actor('created'), updated: actor('updated'), deleted: actor('deleted') },
    created_at: iso(row.created_at),
    created_by_name: row.created_by_name ?? null,
    updated_at: iso(row.updated_at),
    updated_by_name: row.updated_by_name ?? null,
    deleted_at: iso(row.deleted_at),
    deleted_by_name: row.deleted_by_name ?? null,
  };
}

function paging(url: URL): { page: number; perpage: number } {
  const page = Number(url.searchParams.get('page') ?? 1);
  const perpage = Number(url.searchParams.get('perpage') ?? 10);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perpage) || perpage < 1 || perpage > 100) throw new HttpError(400, 'bad paging');
  return { page, perpage };
}
const paginate = (total: number, p: { page: number; perpage: number }) => ({ total, page: p.page, perpage: p.perpage, pages: total === 0 ? 1 : Math.ceil(total / p.perpage) });

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch {
        reject(new HttpError(400, 'invalid JSON'));
      }
    });
    req.on('error', reject);
  });
}

export interface BaselineOptions {
  databaseUrl: string;
  jwtSecret: string;
  poolSize?: number;
}

export interface Baseline {
  url: string;
  close(): Promise<void>;
}

export async function startBaseline(opts: BaselineOptions, port = 0, host = '127.0.0.1'): Promise<Baseline> {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, types });
  const q = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as Array<Record<string, unknown>>;

  async function authenticate(req: IncomingMessage): Promise<{ userId: string; perms: Perms }> {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const userId = m ? verifyJwt(opts.jwtSecret, m[1]!) : null;
    if (!userId) throw new HttpError(401, 'unauthorized');
    const rows = await q(SQL.permissions, [userId]);
    const user = rows[0];
    if (!user?.is_active) throw new HttpError(401, 'unauthorized');
    const perms: Perms = { super: !!user.is_super_admin, platform: [], clusters: {} };
    for (const g of rows) {
      if (g.permission_key === null) continue;
      if (g.cluster_id === null) perms.platform.push(g.permission_key as string);
      else (perms.clusters[g.cluster_id as string] ??= []).push(g.permission_key as string);
    }
    return { userId, perms };
  }
  const can = (p: Perms, key: string) => p.super || p.platform.includes(key);
  const canAnywhere = (p: Perms, key: string) => can(p, key) || Object.values(p.clusters).some((ks) => ks.includes(key));

  async function clusters(url: URL, perms: Perms) {
    if (!can(perms, 'cluster.read')) throw new HttpError(403, 'forbidden');
    const p = paging(url);
    const [c] = await q(SQL.clusterCount);
    const total = Number(c!.count);
    const rows = total === 0 ? [] : await q(SQL.clusterPage, [p.perpage, (p.page - 1) * p.perpage]);
    const ids = rows.map((r) => r.id as string);
    const counts = new Map(ids.map((id) => [id, { bu_count: 0, users_count: 0, total_max_license_users: null as number | null }]));
    if (ids.length) {
      // In the service's order (one after the other), so the ratio measures the stack and not a different plan.
      const bus = await q(SQL.clusterBuCounts, [ids]);
      const users = await q(SQL.clusterUserCounts, [ids]);
      for (const r of bus) {
        const x = counts.get(r.cluster_id as string)!;
        x.bu_count = Number(r.bu_count);
        x.total_max_license_users = r.unlimited || r.total === null ? null : Number(r.total);
      }
      for (const r of users) counts.get(r.cluster_id as string)!.users_count = Number(r.users_count);
    }
    const data = rows.map((r) => ({
      id: r.id, code: r.code, name: r.name, alias_name: r.alias_name, max_license_bu: r.max_license_bu, is_active: r.is_active,
      ...counts.get(r.id as string)!, ...audit(r),
    }));
    return { data, paginate: paginate(total, p) };
  }

  async function businessUnits(url: URL, perms: Perms) {
    const clusterId = url.searchParams.get('cluster_id');
    if (!clusterId || !/^[0-9a-f-]{36}$/i.test(clusterId)) throw new HttpError(400, 'cluster_id required');
    if (!can(perms, 'cluster.read') && !perms.clusters[clusterId]?.includes('cluster.read')) throw new HttpError(403, 'forbidden');
    const p = paging(url);
    const [c] = await q(SQL.buCount, [clusterId]);
    const total = Number(c!.count);
    const rows = total === 0 ? [] : await q(SQL.buPage, [clusterId, p.perpage, (p.page - 1) * p.perpage]);
    const ids = rows.map((r) => r.id as string);
    const members = new Map<string, number>();
    if (ids.length) for (const r of await q(SQL.buMemberCounts, [ids])) members.set(r.business_unit_id as string, Number(r.count));
    const data = rows.map((r) => {
      const { logo_key: _l, avatar_key: _a, created_by_name: _c, updated_by_name: _u, deleted_by_name: _d, is_default: _i, ...rest } = r;
      return { ...rest, config: Array.isArray(r.config) ? r.config : [], users_count: members.get(r.id as string) ?? 0, ...audit(r) };
    });
    return { data, paginate: paginate(total, p) };
  }

  async function users(url: URL, perms: Perms) {
    if (!canAnywhere(perms, 'cluster.update')) throw new HttpError(403, 'forbidden');
    const p = paging(url);
    const search = (url.searchParams.get('search') ?? '').trim().toLowerCase();
    const pattern = `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const where = search ? `where ${SQL.userWhere}` : '';
    const params = search ? [pattern] : [];
    const [c] = await q(`select count(*) as count from users ${where}`, params);
    const total = Number(c!.count);
    const n = params.length;
    const rows =
      total === 0
        ? []
        : await q(
            `select id, username, email, firstname, middlename, lastname, is_active from users ${where}
             order by lower(users.username) asc, users.id asc limit $${n + 1} offset $${n + 2}`,
            [...params, p.perpage, (p.page - 1) * p.perpage],
          );
    const data = rows.map((u) => ({
      id: u.id, username: u.username, email: u.email,
      userInfo: { firstname: u.firstname ?? null, middlename: u.middlename ?? null, lastname: u.lastname ?? null }, is_active: u.is_active,
    }));
    return { data, paginate: paginate(total, p) };
  }

  async function resolve(url: URL) {
    const documentType = url.searchParams.get('document_type') ?? '';
    if (!documentType.trim()) throw new HttpError(400, 'document_type required');
    const [row] = await q(SQL.resolve, [documentType, url.searchParams.get('bu_code') ?? '']);
    if (!row) throw new HttpError(404, 'no mapping');
    return {
      id: row.id, document_type: row.document_type, report_template_id: row.report_template_id, is_default: row.is_default,
      display_label: row.display_label, display_order: row.display_order, allow_business_unit: row.allow_business_unit,
      deny_business_unit: row.deny_business_unit, is_active: row.is_active, created_at: iso(row.created_at), updated_at: iso(row.updated_at),
      created_by_id: row.created_by_id, updated_by_id: row.updated_by_id, deleted_by_id: row.deleted_by_id, deleted_at: iso(row.deleted_at),
      template_name: row.template_name, template_group: row.template_group, created_by_name: row.created_by_name, updated_by_name: row.updated_by_name,
    };
  }

  const widget = (r: Record<string, unknown>) => ({
    id: r.id, dataset_id: r.dataset_id, widget_type: r.widget_type, title: r.title ?? null, order_index: r.order_index,
    created_at: iso(r.created_at), updated_at: iso(r.updated_at),
  });

  async function login(body: unknown) {
    const b = (body ?? {}) as { username?: unknown; email?: unknown; password?: unknown };
    const subject = String(b.username ?? b.email ?? '').trim().toLowerCase();
    if (!subject || typeof b.password !== 'string') throw new HttpError(400, 'username and password required');
    if ((await q(SQL.lockedFor, [subject])).length) throw new HttpError(429, 'locked');
    const [user] = await q(SQL.findLogin, [subject]);
    if (!user || !(await verifyPassword(b.password, user.password_hash as string)) || !user.is_active) throw new HttpError(401, 'invalid username or password');
    await q(SQL.clearFailures, [subject]);
    const refresh = randomBytes(32).toString('base64url');
    await q(SQL.insertRefresh, [user.id, createHash('sha256').update(refresh).digest('hex'), randomUUID(), REFRESH_TTL]);
    return { access_token: signJwt(opts.jwtSecret, user.id as string), refresh_token: refresh, token_type: 'Bearer', expires_in: ACCESS_TTL, refresh_expires_in: REFRESH_TTL };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://baseline');
    const path = url.pathname;
    let status = 200;
    let body: unknown;
    if (req.method === 'POST' && path === '/api/auth/login') body = await login(await readBody(req));
    else {
      const { userId, perms } = await authenticate(req);
      if (req.method === 'GET' && path === '/api-system/clusters') body = await clusters(url, perms);
      else if (req.method === 'GET' && path === '/api-system/business-units') body = await businessUnits(url, perms);
      else if (req.method === 'GET' && path === '/api-system/user') body = await users(url, perms);
      else if (req.method === 'GET' && path === '/api-system/print-template-mappings/resolve') body = await resolve(url);
      else if (req.method === 'GET' && path === '/api/proxy/api/me/dashboard-widgets') {
        const items = (await q(SQL.widgets, [userId])).map(widget);
        body = { items, count: items.length };
      } else if (req.method === 'PATCH' && path.startsWith('/api/proxy/api/me/dashboard-widgets/')) {
        const id = path.slice('/api/proxy/api/me/dashboard-widgets/'.length);
        const b = ((await readBody(req)) ?? {}) as { title?: string | null; order_index?: number };
        const [row] = await q(SQL.widgetPatch, [id, userId, b.title ?? null, b.order_index ?? null]);
        if (!row) throw new HttpError(404, 'not found');
        body = widget(row);
      } else throw new HttpError(404, 'not found');
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    status = 0;
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const text = JSON.stringify({ status, title: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.address}:${addr.port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}

// Child-process entry: DATABASE_URL, JWT_SECRET, PORT; prints one READY line with the URL.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const databaseUrl = process.env.DATABASE_URL;
  const jwtSecret = process.env.JWT_SECRET;
  if (!databaseUrl || !jwtSecret) {
    process.stderr.write('DATABASE_URL and JWT_SECRET are required\n');
    process.exit(1);
  }
  const baseline = await startBaseline({ databaseUrl, jwtSecret }, Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  process.stdout.write(`READY ${baseline.url}\n`);
  const shutdown = () => void baseline.close().then(() => process.exit(0));
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
