// Shared pieces of the reliability suites: problem checks, the database integrity check, fixtures and
// server processes on their own PostgreSQL databases / data directories.
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';
import { freePort } from '../support/processes.js';

export const ADMIN_PASSWORD = 'admin123';
export const DEMO_PASSWORD = 'demo1234';
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Problems a response breaks: a 5xx, or a 4xx that is not an RFC 9457 problem with its own status. */
export async function problemViolations(res: Response): Promise<string[]> {
  const out: string[] = [];
  if (res.status >= 500) out.push(`status ${res.status}: ${(await res.text()).slice(0, 300)}`);
  else if (res.status >= 400) {
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/problem+json')) out.push(`${res.status} with content-type "${type}"`);
    const text = await res.text();
    try {
      const body = JSON.parse(text) as { type?: unknown; title?: unknown; status?: unknown; detail?: unknown };
      if (typeof body.type !== 'string' || typeof body.title !== 'string' || typeof body.detail !== 'string')
        out.push(`${res.status} problem lacks type/title/detail: ${text.slice(0, 200)}`);
      if (body.status !== res.status) out.push(`${res.status} problem says status ${String(body.status)}`);
    } catch {
      out.push(`${res.status} body is not JSON: ${text.slice(0, 200)}`);
    }
  } else {
    await res.arrayBuffer();
  }
  return out;
}

export interface IntegrityOptions {
  /** Clusters / BUs whose caps were changed on purpose by an accepted update: their counts are not judged. */
  capsChanged?: { clusters?: Iterable<string>; businessUnits?: Iterable<string> };
}

/**
 * The database invariants that must hold whatever was sent: no live duplicates, no cap exceeded, no orphan or
 * inconsistent memberships, at most one live default mapping per document type. Returns the violations found.
 */
export async function integrityViolations(knex: Knex, opts: IntegrityOptions = {}): Promise<string[]> {
  const out: string[] = [];
  const rows = async (label: string, sql: string, bindings: unknown[] = []) => {
    const res = await knex.raw<{ rows?: unknown[] } | unknown[]>(sql, bindings as never);
    const list = Array.isArray(res) ? res : (res.rows ?? []);
    if (list.length > 0) out.push(`${label}: ${JSON.stringify(list.slice(0, 5))}`);
  };
  await rows(
    'duplicate live clusters',
    `select code, name, count(*)::int n from clusters where deleted_at is null group by code, name having count(*) > 1`,
  );
  await rows(
    'duplicate live business units',
    `select cluster_id, code, count(*)::int n from business_units where deleted_at is null group by cluster_id, code having count(*) > 1`,
  );
  await rows(
    'duplicate cluster memberships',
    `select user_id, cluster_id, count(*)::int n from cluster_users group by user_id, cluster_id having count(*) > 1`,
  );
  await rows(
    'duplicate BU memberships',
    `select user_id, business_unit_id, count(*)::int n from bu_users group by user_id, business_unit_id having count(*) > 1`,
  );
  await rows(
    'duplicate users',
    `select lower(username) u, count(*)::int n from users group by lower(username) having count(*) > 1`,
  );
  await rows(
    'duplicate widgets',
    `select user_id, dataset_id, count(*)::int n from dashboard_widgets group by user_id, dataset_id having count(*) > 1`,
  );
  await rows(
    'several live defaults for a document type',
    `select document_type, count(*)::int n from print_template_mappings where deleted_at is null and is_default group by document_type having count(*) > 1`,
  );
  const skipClusters = [...(opts.capsChanged?.clusters ?? [])];
  const skipBus = [...(opts.capsChanged?.businessUnits ?? [])];
  await rows(
    'clusters beyond max_license_bu',
    `select c.id, c.code, c.max_license_bu, count(b.id)::int n from clusters c join business_units b on b.cluster_id = c.id and b.deleted_at is null
     where c.max_license_bu is not null and not (c.id = any(?::uuid[])) group by c.id having count(b.id) > c.max_license_bu`,
    [skipClusters],
  );
  await rows(
    'business units beyond max_license_users',
    `select b.id, b.code, b.max_license_users, count(u.id)::int n from business_units b join bu_users u on u.business_unit_id = b.id
     where b.max_license_users is not null and not (b.id = any(?::uuid[])) group by b.id having count(u.id) > b.max_license_users`,
    [skipBus],
  );
  await rows(
    'BU memberships of missing users or BUs',
    `select m.id from bu_users m left join users u on u.id = m.user_id left join business_units b on b.id = m.business_unit_id where u.id is null or b.id is null`,
  );
  await rows(
    'cluster memberships of missing users or clusters',
    `select m.id from cluster_users m left join users u on u.id = m.user_id left join clusters c on c.id = m.cluster_id where u.id is null or c.id is null`,
  );
  await rows(
    "parent BU outside the member's cluster",
    `select m.id from cluster_users m join business_units b on b.id = m.parent_bu_id where b.cluster_id <> m.cluster_id`,
  );
  await rows(
    'parent BU without the BU membership',
    `select m.id from cluster_users m where m.parent_bu_id is not null and not exists (select 1 from bu_users u where u.user_id = m.user_id and u.business_unit_id = m.parent_bu_id)`,
  );
  await rows(
    'grants on missing clusters',
    `select g.id from permission_grants g left join clusters c on c.id = g.cluster_id where g.cluster_id is not null and c.id is null`,
  );
  return out;
}

// ---- PostgreSQL databases of our own --------------------------------------------------------------------

export async function createPgDatabase(prefix = 'rel'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

// ---- server processes ---------------------------------------------------------------------------------

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** SIGKILL, no goodbye. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Starts `server/src/main.ts` as its own process (what `npm start` runs) and waits for /healthz. */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { port?: number; timeoutMs?: number; preload?: string } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  // One node process (tsx as a loader, not its CLI wrapper): the pid is the server's, so SIGKILL really kills it.
  const args = [
    '--import',
    'tsx',
    ...(opts.preload ? ['--import', opts.preload] : []),
    path.join(ROOT, 'server/src/main.ts'),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      VALIDATE_RESPONSES: 'false',
      // The crash, replica and soak loads send far more requests per account than a person: above every quota.
      RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
      RATE_LIMIT_PER_ADDRESS: '1000000/1s',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output = (output + c).slice(-200_000)));
  child.stderr?.on('data', (c) => (output = (output + c).slice(-200_000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during start: ${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    url,
    port,
    output: () => output,
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) {
        child.kill('SIGTERM');
        const t = setTimeout(() => alive() && child.kill('SIGKILL'), 8_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}

export async function loginAt(
  baseUrl: string,
  username: string,
  password: string,
): Promise<{ access: string; refresh: string }> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`login ${username} → ${res.status} ${text}`);
  const body = JSON.parse(text) as { access_token: string; refresh_token: string };
  return { access: body.access_token, refresh: body.refresh_token };
}

export function jsonRequest(
  baseUrl: string,
  method: string,
  p: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  return fetch(baseUrl + p, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
}

export const uniqueCode = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
