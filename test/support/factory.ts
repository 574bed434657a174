/**
 * Test data for server tests: one place that knows how to make a cluster, a business unit, an account with grants, a
 * membership or a print-template mapping, so a test says only what matters to it.
 *
 *   const cluster = await aCluster(t, { max_license_bu: 1 });
 *   const bu = await aBusinessUnit(t, { cluster_id: cluster.id });
 *   const reader = await aUserWith(t, [['cluster.read', cluster.id]]);
 *   const page = await bodyOf<ClusterPage>(await t.fetch('/api-system/clusters', { token: reader.token }), 200);
 *
 * Every default that must be unique (codes, usernames) comes from a counter plus a random suffix, so tests never
 * collide, neither with each other nor with the demo data, on PGlite or PostgreSQL. Records whose creation is the
 * product's behaviour (clusters, business units, memberships, mappings) are made through the API as the platform's
 * administrator (ADMIN_USERNAME, a super admin), so they carry the same defaults, events and rules as an operator's.
 * Accounts are written straight to the database: a test needs an account with exactly the grants it names and no
 * forced password change, which the API (rightly) does not hand out; those fixture rows are exempt from the audit
 * trail, as they are no operator's change.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { exemptFromAudit } from '../../server/src/db/audit-exempt.js';
import { hashPassword } from '../../server/src/modules/auth/passwords.js';
import type { TestServer } from '../server/support/index.js';
import type { PrintTemplateMappingRecord } from './records.js';

type Schemas = components['schemas'];
export type Cluster = Schemas['Cluster'];
export type BusinessUnit = Schemas['BusinessUnit'];
export type ClusterUser = Schemas['ClusterUser'];
export type BusinessUnitUser = Schemas['BusinessUnitUser'];
export type PrintTemplateMapping = Schemas['PrintTemplateMapping'];
export type Problem = Schemas['Problem'];

/** A permission: `[key, clusterId]`, `clusterId` null for every cluster; a bare key is held on every cluster. */
export type Grant = [key: string, clusterId: string | null] | string;

/** The password of every account the factory makes (sign in with `t.login(username, FACTORY_PASSWORD)`). */
export const FACTORY_PASSWORD = 'Factory-Lagoon-2026';

let counter = 0;
/** `PREFIX-<n><random>`: unique across tests, files and runs on a shared database; upper case, as codes are. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter.toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();
}

/**
 * The response's JSON body as the contract type `T`, after checking its status when one is given (the failure shows
 * the body, which usually says why).
 */
export async function bodyOf<T>(res: Response, status?: number): Promise<T> {
  if (status !== undefined) expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** The `detail` of a problem response. */
export async function detailOf(res: Response): Promise<string> {
  return (await bodyOf<Problem>(res.clone())).detail ?? '';
}

const adminTokens = new WeakMap<TestServer, Promise<string>>();
/** An access token of the platform's administrator (ADMIN_USERNAME), signed in once per server. */
export function adminToken(t: TestServer): Promise<string> {
  let token = adminTokens.get(t);
  if (!token) {
    token = t.login(t.config.admin.username);
    // A failed sign-in is not kept: the next call tries again and reports its own failure.
    token.catch(() => adminTokens.delete(t));
    adminTokens.set(t, token);
  }
  return token;
}

/** Who makes the record: the super admin unless `as` names another caller's access token. */
export interface Actor {
  as?: string;
}

/** POST as the actor and expect 201: the created record. */
async function created<T>(t: TestServer, path: string, json: unknown, actor: Actor = {}): Promise<T> {
  const token = actor.as ?? (await adminToken(t));
  return bodyOf<T>(await t.fetch(path, { method: 'POST', token, json }), 201);
}

/** A new cluster, created through the API (by the super admin unless another actor is named). */
export function aCluster(
  t: TestServer,
  overrides: Partial<Schemas['ClusterInput']> = {},
  actor: Actor = {},
): Promise<Cluster> {
  const code = overrides.code ?? unique('CL');
  return created<Cluster>(
    t,
    '/api-system/clusters',
    { name: `Group ${code}`, is_active: true, ...overrides, code },
    actor,
  );
}

/**
 * A new business unit, created through the API (by the super admin unless another actor is named), in a new cluster
 * unless one is named.
 */
export async function aBusinessUnit(
  t: TestServer,
  overrides: Partial<Schemas['BusinessUnitInput']> = {},
  actor: Actor = {},
): Promise<BusinessUnit> {
  const code = overrides.code ?? unique('BU');
  const cluster_id = overrides.cluster_id ?? (await aCluster(t)).id;
  return created<BusinessUnit>(
    t,
    '/api-system/business-units',
    {
      name: `Hotel ${code}`,
      is_hq: false,
      is_active: true,
      ...overrides,
      cluster_id,
      code,
    },
    actor,
  );
}

/** The fields of an account the factory writes; anything not named gets a unique or neutral default. */
export interface UserFields {
  username?: string;
  email?: string;
  firstname?: string | null;
  middlename?: string | null;
  lastname?: string | null;
  is_active?: boolean;
  is_super_admin?: boolean;
  must_change_password?: boolean;
  /** Its password; FACTORY_PASSWORD unless given. */
  password?: string;
}

export interface FactoryUser {
  id: string;
  username: string;
  email: string;
}

// Hashing is deliberately slow; every account of a test process shares the one hash of FACTORY_PASSWORD.
let factoryHash: Promise<string> | null = null;
const passwordHashOf = (password: string | undefined) =>
  password === undefined || password === FACTORY_PASSWORD
    ? (factoryHash ??= hashPassword(FACTORY_PASSWORD))
    : hashPassword(password);

/** Runs `work` in one transaction whose writes the audit trail does not record: a test's fixture rows. */
export async function asFixture<T>(t: TestServer, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return t.knex.transaction(async (trx) => {
    await exemptFromAudit(trx, 'test fixture');
    return work(trx);
  });
}

/** A new account with these grants, straight in the database (no forced password change, no event). */
export async function aUser(t: TestServer, fields: UserFields = {}, grants: Grant[] = []): Promise<FactoryUser> {
  const { password, ...columns } = fields;
  const username = columns.username ?? unique('u').toLowerCase();
  const email = columns.email ?? `${username}@example.com`;
  const password_hash = await passwordHashOf(password);
  const id = await asFixture(t, async (trx) => {
    const [row] = await trx('users')
      .insert({ ...columns, username, email, password_hash })
      .returning<Array<{ id: string }>>('id');
    const userId = row!.id;
    if (grants.length)
      await trx('permission_grants').insert(
        grants.map((g) => {
          const [key, clusterId] = typeof g === 'string' ? [g, null] : g;
          return { user_id: userId, permission_key: key, cluster_id: clusterId };
        }),
      );
    return userId;
  });
  return { id, username, email };
}

/** A new account with exactly these grants, and an access token of a signed-in device of it. */
export async function aUserWith(
  t: TestServer,
  grants: Grant[],
  fields: UserFields = {},
): Promise<FactoryUser & { token: string }> {
  const user = await aUser(t, fields, grants);
  return { ...user, token: await t.tokenFor(user.id) };
}

/** The account joins the cluster, through the API as the super admin. */
export function aClusterMembership(
  t: TestServer,
  body: Pick<Schemas['ClusterUserCreate'], 'user_id' | 'cluster_id'> & Partial<Schemas['ClusterUserCreate']>,
): Promise<ClusterUser> {
  return created<ClusterUser>(t, '/api-system/user/clusters', { is_active: true, ...body });
}

/** The account joins the business unit, through the API as the super admin. */
export function aBusinessUnitMembership(
  t: TestServer,
  body: Schemas['BusinessUnitUserCreate'],
): Promise<BusinessUnitUser> {
  return created<BusinessUnitUser>(t, '/api-system/user/business-units', body);
}

/** `count` new accounts in the business unit at once, straight in the database (to fill a unit up to its licence). */
export async function membersOf(t: TestServer, businessUnitId: string, count: number): Promise<FactoryUser[]> {
  const users: FactoryUser[] = [];
  for (let i = 0; i < count; i++) users.push(await aUser(t));
  await asFixture(t, (trx) =>
    trx('bu_users').insert(users.map((u) => ({ user_id: u.id, business_unit_id: businessUnitId }))),
  );
  return users;
}

/** A report template (the catalogue has no API to add one), straight in the database: its id. */
export async function aReportTemplate(
  t: TestServer,
  overrides: {
    name?: string;
    description?: string | null;
    report_group?: string;
    kind?: string;
    is_active?: boolean;
    deleted_at?: Date | null;
  } = {},
): Promise<string> {
  const [row] = await t
    .knex('report_templates')
    .insert({ name: `Template ${unique('rt')}`, report_group: 'PO', kind: 'print', ...overrides })
    .returning<Array<{ id: string }>>('id');
  return row!.id;
}

/** A print-template mapping, created through the API by the super admin (on a new template unless one is named). */
export async function aMapping(
  t: TestServer,
  overrides: Partial<Schemas['PrintTemplateMappingCreate']> = {},
): Promise<PrintTemplateMapping> {
  const report_template_id = overrides.report_template_id ?? (await aReportTemplate(t));
  return created<PrintTemplateMapping>(t, '/api-system/print-template-mappings', {
    document_type: 'IA',
    is_default: false,
    display_order: 0,
    is_active: true,
    ...overrides,
    report_template_id,
  });
}

const jsonb = (codes: string[] | null) => (codes === null ? null : JSON.stringify(codes));

/**
 * A mapping row written straight to the database, for stored data the API refuses to write (duplicates, several
 * defaults of one type, a template that does not exist, a row already deleted).
 */
export async function aStoredMapping(
  t: TestServer,
  overrides: Partial<Omit<PrintTemplateMappingRecord, 'id'>> = {},
): Promise<{ id: string; document_type: string }> {
  const { allow_business_unit, deny_business_unit, ...rest } = overrides;
  const row = {
    document_type: 'PO',
    report_template_id: randomUUID(),
    is_default: false,
    display_order: 0,
    is_active: true,
    ...rest,
    // jsonb columns: an array must be sent as its JSON text, or the driver writes a PostgreSQL array.
    ...(allow_business_unit !== undefined && { allow_business_unit: jsonb(allow_business_unit) }),
    ...(deny_business_unit !== undefined && { deny_business_unit: jsonb(deny_business_unit) }),
  };
  const [stored] = await asFixture(t, (trx) =>
    trx('print_template_mappings')
      .insert(row)
      .returning<Array<{ id: string; document_type: string }>>(['id', 'document_type']),
  );
  return stored!;
}

/** The id of the live cluster with this code (e.g. one of the demo data's). */
export async function clusterIdByCode(t: TestServer, code: string): Promise<string> {
  const row = (await t.knex('clusters').first('id').where({ code }).whereNull('deleted_at')) as
    { id: string } | undefined;
  if (!row) throw new Error(`no live cluster has the code ${code}`);
  return row.id;
}

/** The live business unit with this code (e.g. one of the demo data's): its id and cluster. */
export async function businessUnitByCode(t: TestServer, code: string): Promise<{ id: string; cluster_id: string }> {
  const row = (await t.knex('business_units').first('id', 'cluster_id').where({ code }).whereNull('deleted_at')) as
    { id: string; cluster_id: string } | undefined;
  if (!row) throw new Error(`no live business unit has the code ${code}`);
  return row;
}
