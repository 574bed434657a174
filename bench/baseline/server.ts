// The baseline: node:http + pg answering each benchmarked request with the best single statement a careful engineer
// would write for the service's response body (bench/baseline/sql.ts): PostgreSQL builds the JSON, and the caller's
// standing and permission are checked by the same statement. Authentication is as strict as the service's: the
// HS256 token is verified (key imported once), and the account must be active, its session live and the permission
// held. No framework, validator, query builder or logger. The difference to the service is what the stack and its
// statements cost.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  randomUUID,
  scrypt,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import * as SQL from './sql.js';

const ISSUER = 'platform-admin';
const AUDIENCE = 'platform-admin-api';
const ACCESS_TTL = 15 * 60;
const REFRESH_TTL = 14 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** HTTP status of each refusal the `caller` CTE can state (the service's problem types share these statuses). */
const REFUSED: Record<string, [number, string]> = {
  deactivated: [401, 'account deactivated'],
  'session-ended': [401, 'session ended'],
  'password-change': [403, 'password change required'],
  forbidden: [403, 'forbidden'],
  'not-found': [404, 'not found'],
  stale: [412, 'precondition failed'],
  licence: [403, 'licence caps need cluster.update on all clusters'],
};

const b64json = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** HS256 sign and verify with one imported key; a verified token carries its user and, when present, session. */
function tokens(secret: string) {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (text: string) => createHmac('sha256', key).update(text).digest();
  return {
    sign(sub: string, sid: string): string {
      const iat = Math.floor(Date.now() / 1000);
      const head = `${b64json({ alg: 'HS256', typ: 'JWT' })}.${b64json({ sid, sub, iss: ISSUER, aud: AUDIENCE, iat, exp: iat + ACCESS_TTL })}`;
      return `${head}.${mac(head).toString('base64url')}`;
    },
    verify(token: string): { sub: string; sid: string | null } | null {
      const [head, body, sig] = token.split('.');
      if (!head || !body || !sig) return null;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(`${head}.${body}`);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const h = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
        const p = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
          sub?: unknown;
          sid?: unknown;
          iss?: string;
          aud?: string;
          exp?: number;
        };
        if (
          h.alg !== 'HS256' ||
          p.iss !== ISSUER ||
          p.aud !== AUDIENCE ||
          typeof p.exp !== 'number' ||
          p.exp <= Date.now() / 1000
        )
          return null;
        if (typeof p.sub !== 'string' || !UUID.test(p.sub)) return null;
        if (p.sid !== undefined && (typeof p.sid !== 'string' || !UUID.test(p.sid))) return null;
        return { sub: p.sub, sid: p.sid ?? null };
      } catch {
        return null;
      }
    },
  };
}

function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return Promise.resolve(false);
  const expected = Buffer.from(key, 'base64url');
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      Buffer.from(salt, 'base64url'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 },
      (err, got) => (err ? reject(err) : resolve(timingSafeEqual(got, expected))),
    ),
  );
}

/** The service's ETag of a record body (weak, sha1 of `id|updated_at`). */
export function etagOf(body: { id: string; updated_at: string }): string {
  return `W/"${createHash('sha1').update(`${body.id}|${body.updated_at}`).digest('base64url').slice(0, 22)}"`;
}

/** If-Match as the statements take it: the opaque tags, or null when absent, blank or `*` (the service proceeds). */
function ifMatchTags(header: string | undefined): string[] | null {
  if (header === undefined || header.trim() === '' || header.trim() === '*') return null;
  return header.split(',').map((t) => t.trim().replace(/^W\//, ''));
}

function paging(url: URL): { page: number; perpage: number; offset: number } {
  const page = Number(url.searchParams.get('page') ?? 1);
  const perpage = Number(url.searchParams.get('perpage') ?? 10);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perpage) || perpage < 1 || perpage > 100)
    throw new HttpError(400, 'bad paging');
  return { page, perpage, offset: (page - 1) * perpage };
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const v: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        resolve(typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
      } catch {
        reject(new HttpError(400, 'invalid JSON'));
      }
    });
    req.on('error', reject);
  });
}

const uuidParam = (v: string | null | undefined, name: string): string => {
  if (!v || !UUID.test(v)) throw new HttpError(400, `${name} must be a uuid`);
  return v;
};

/** A reply: status, JSON text and extra headers. */
interface Reply {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

export interface BaselineOptions {
  databaseUrl: string;
  jwtSecret: string;
  poolSize?: number;
  /**
   * The bare limit instead of the peer: the token is read for its subject but not verified, and each statement's
   * caller check is removed (`SQL.bare`): one statement per request, the same body, no auth. Reads only.
   */
  bare?: boolean;
}

/** The token's subject and session, read without verifying it (the bare limit only). */
function unverifiedCaller(token: string): { sub: string; sid: string | null } | null {
  try {
    const p = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sub?: string;
      sid?: string;
    };
    return typeof p.sub === 'string' && UUID.test(p.sub) ? { sub: p.sub, sid: p.sid ?? null } : null;
  } catch {
    return null;
  }
}

export interface Baseline {
  url: string;
  close(): Promise<void>;
}

export async function startBaseline(opts: BaselineOptions, port = 0, host = '127.0.0.1'): Promise<Baseline> {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
  // The version check hashes in SQL like the service's ETag (sha1); pgcrypto provides digest().
  await pool.query('create extension if not exists pgcrypto');
  const jwt = tokens(opts.jwtSecret);
  const bareStatements = new Map<string, string>();
  /** The statement as this server runs it: the peer's, or its bare form (made once per text). */
  const statement = (sql: string): string => {
    if (!opts.bare) return sql;
    let b = bareStatements.get(sql);
    if (b === undefined) bareStatements.set(sql, (b = SQL.bare(sql)));
    return b;
  };

  /** Runs a statement of sql.ts for the caller and turns its standing into the reply (or the refusal). */
  async function answer(caller: { sub: string; sid: string | null }, sql: string, params: unknown[]): Promise<string> {
    const { rows } = await pool.query<{ standing: string; body: string | null }>(statement(sql), [
      caller.sub,
      caller.sid,
      ...params,
    ]);
    const row = rows[0];
    if (!row) throw new HttpError(401, 'unauthorized');
    if (row.standing !== 'ok') {
      const [status, message] = REFUSED[row.standing] ?? [500, row.standing];
      throw new HttpError(status, message);
    }
    if (row.body === null) throw new HttpError(404, 'not found');
    return row.body;
  }

  const origin = (req: IncomingMessage) => [
    randomUUID(),
    req.socket.remoteAddress ?? null,
    req.headers['user-agent']?.slice(0, 1000) ?? null,
  ];

  /** A write's reply: the record and its ETag; a duplicate code/name is a conflict as in the service. */
  async function versioned(run: () => Promise<string>): Promise<Reply> {
    try {
      const text = await run();
      return { status: 200, text, headers: { ETag: etagOf(JSON.parse(text) as { id: string; updated_at: string }) } };
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new HttpError(409, 'conflict');
      throw err;
    }
  }

  async function login(req: IncomingMessage): Promise<Reply> {
    const b = await readBody(req);
    const login = b.username ?? b.email;
    if (typeof login !== 'string' || typeof b.password !== 'string')
      throw new HttpError(400, 'username and password required');
    const subject = login.trim().toLowerCase();
    const client = req.socket.remoteAddress ?? 'unknown';
    const [requestId, ip, agent] = origin(req);
    const { rows } = await pool.query<{
      id: string | null;
      password_hash: string | null;
      is_active: boolean | null;
      delayed_seconds: number | null;
    }>(SQL.signInAccount, [subject, client]);
    const user = rows[0]!;
    if (user.delayed_seconds) throw new HttpError(429, 'too many failed sign-ins');
    const ok = user.password_hash !== null && (await verifyPassword(b.password, user.password_hash));
    if (!ok || !user.id || !user.is_active) {
      await pool.query(SQL.signInFailed, [user.id ?? subject, client, user.id, subject, requestId, ip, agent]);
      throw new HttpError(401, 'invalid username or password');
    }
    const refresh = randomBytes(32).toString('base64url');
    const sessionId = randomUUID();
    await pool.query(SQL.signInSucceeded, [
      user.id,
      client,
      sessionId,
      ip,
      agent,
      createHash('sha256').update(refresh).digest('hex'),
      REFRESH_TTL,
      requestId,
    ]);
    const body = {
      access_token: jwt.sign(user.id, sessionId),
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL,
      refresh_expires_in: REFRESH_TTL,
    };
    return { status: 200, text: JSON.stringify(body) };
  }

  const CLUSTER = /^\/api-system\/clusters\/([^/]+)$/;
  const WIDGET = /^\/api\/proxy\/api\/me\/dashboard-widgets\/([^/]+)$/;

  async function route(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url ?? '/', 'http://baseline');
    const path = url.pathname;
    if (req.method === 'POST' && path === '/api/auth/login') return login(req);

    const m = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(req.headers.authorization ?? '');
    const caller = m ? (opts.bare ? unverifiedCaller(m[1]!) : jwt.verify(m[1]!)) : null;
    if (!caller) throw new HttpError(401, 'unauthorized');
    if (opts.bare && req.method !== 'GET') throw new HttpError(405, 'the bare limit answers reads only');
    const ok = (text: string): Reply => ({ status: 200, text });

    if (req.method === 'GET' && path === '/api-system/clusters') {
      const p = paging(url);
      return ok(await answer(caller, SQL.clusterPage, [p.perpage, p.offset, p.page]));
    }
    if (req.method === 'GET' && path === '/api-system/business-units') {
      const p = paging(url);
      return ok(
        await answer(caller, SQL.businessUnitsOfCluster, [
          uuidParam(url.searchParams.get('cluster_id'), 'cluster_id'),
          p.perpage,
          p.offset,
          p.page,
        ]),
      );
    }
    if (req.method === 'GET' && path === '/api-system/user') {
      const p = paging(url);
      const search = (url.searchParams.get('search') ?? '').trim().toLowerCase();
      const pattern = `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      return ok(await answer(caller, SQL.userSearch, [pattern, p.perpage, p.offset, p.page]));
    }
    if (req.method === 'GET' && path === '/api-system/print-template-mappings/resolve') {
      const documentType = (url.searchParams.get('document_type') ?? '').trim();
      if (!documentType) throw new HttpError(400, 'document_type is required');
      const buCode = url.searchParams.get('bu_code')?.trim() || null;
      return ok(
        await answer(
          caller,
          SQL.resolveMapping(buCode !== null),
          buCode === null ? [documentType] : [documentType, buCode],
        ),
      );
    }
    if (req.method === 'GET' && path === '/api/proxy/api/me/dashboard-widgets')
      return ok(await answer(caller, SQL.widgetList, []));

    const widget = WIDGET.exec(path);
    if (req.method === 'PATCH' && widget) {
      const b = await readBody(req);
      const hasTitle = b.title !== undefined;
      const title = typeof b.title === 'string' && b.title.trim() !== '' ? b.title.trim() : null;
      const order = typeof b.order_index === 'number' ? b.order_index : null;
      const id = uuidParam(widget[1], 'id');
      return versioned(() =>
        answer(caller, SQL.widgetUpdate, [
          id,
          hasTitle,
          title,
          order,
          ifMatchTags(req.headers['if-match']),
          ...origin(req),
        ]),
      );
    }
    const cluster = CLUSTER.exec(path);
    if (req.method === 'PUT' && cluster) {
      const b = await readBody(req);
      if (typeof b.code !== 'string' || typeof b.name !== 'string')
        throw new HttpError(400, 'code and name are required');
      const id = uuidParam(cluster[1], 'id');
      const values = [
        b.code.trim(),
        b.name.trim(),
        b.alias_name ?? null,
        b.max_license_bu ?? null,
        b.is_active ?? true,
      ];
      return versioned(() =>
        answer(caller, SQL.clusterUpdate, [id, ...values, ifMatchTags(req.headers['if-match']), ...origin(req)]),
      );
    }
    throw new HttpError(404, 'not found');
  }

  const send = (res: ServerResponse, reply: Reply, type = 'application/json; charset=utf-8') => {
    res.writeHead(reply.status, {
      'content-type': type,
      'content-length': Buffer.byteLength(reply.text),
      ...reply.headers,
    });
    res.end(reply.text);
  };
  const server = http.createServer((req, res) => {
    route(req).then(
      (reply) => send(res, reply),
      (err: unknown) => {
        const status = err instanceof HttpError ? err.status : 500;
        if (!res.headersSent)
          send(
            res,
            { status, text: JSON.stringify({ status, title: err instanceof Error ? err.message : String(err) }) },
            'application/problem+json',
          );
        else res.end();
      },
    );
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

// Child-process entry: DATABASE_URL, JWT_SECRET, PORT (BARE=1 for the bare limit); prints one READY line with the URL.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const databaseUrl = process.env.DATABASE_URL;
  const jwtSecret = process.env.JWT_SECRET;
  if (!databaseUrl || !jwtSecret) {
    process.stderr.write('DATABASE_URL and JWT_SECRET are required\n');
    process.exit(1);
  }
  const baseline = await startBaseline(
    { databaseUrl, jwtSecret, bare: process.env.BARE === '1' },
    Number(process.env.PORT ?? 0),
    process.env.HOST ?? '127.0.0.1',
  );
  process.stdout.write(`READY ${baseline.url}\n`);
  const shutdown = () => void baseline.close().then(() => process.exit(0));
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
