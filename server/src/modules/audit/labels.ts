import type { Knex } from 'knex';
import { displayNameSql } from '../../db/sql.js';
import type { AuditLabels, AuditRow } from './repository.js';

type Changes = AuditRow['changes'];

/** A recorded field's value after the change, or before it when the change removed it (a delete keeps "before"). */
function recorded(changes: Changes, key: string): unknown {
  const change = changes[key];
  if (!change) return undefined;
  return change.after ?? change.before;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = (value: unknown): string | undefined =>
  typeof value === 'string' && UUID.test(value) ? value : undefined;

/** What one event names by id, before the names are looked up. */
interface Refs {
  clusterId?: string;
  businessUnitId?: string;
  userId?: string;
  role?: string;
  permission?: string;
  /** A grant's cluster: null for a platform-wide grant, undefined when the event is not about a grant. */
  scopeId?: string | null;
  mappingId?: string;
  clusterMemberId?: string;
  businessUnitMemberId?: string;
  /** A session's account is read from the session: "Ended a session of nok". */
  sessionId?: string;
}

/** The ids an event carries: its target, its cluster, and the ids among its recorded values. */
function refsOf(row: AuditRow): Refs {
  const c = row.changes;
  const target = row.target_id ?? undefined;
  const refs: Refs = { clusterId: uuid(row.cluster_id) };
  switch (row.target_type) {
    case 'cluster':
      refs.clusterId = uuid(target) ?? refs.clusterId;
      break;
    case 'business_unit':
      refs.businessUnitId = uuid(target);
      break;
    case 'cluster_user':
    case 'business_unit_user':
      refs.userId = uuid(recorded(c, 'user_id'));
      refs.role = text(recorded(c, 'role'));
      refs.businessUnitId = uuid(recorded(c, 'business_unit_id'));
      // An update records only what it changed: the member (and its role, its unit) are read from the membership.
      if (row.target_type === 'cluster_user') refs.clusterMemberId = uuid(target);
      else refs.businessUnitMemberId = uuid(target);
      break;
    case 'print_template_mapping':
      refs.mappingId = uuid(target);
      break;
    case 'session':
      refs.sessionId = uuid(target);
      break;
    case 'user':
      refs.userId = uuid(target);
      if (c.permission_key) {
        refs.permission = text(recorded(c, 'permission_key'));
        // A platform-wide grant records no cluster (null before and after is no change).
        refs.scopeId = uuid(recorded(c, 'cluster_id')) ?? null;
      }
      break;
    default:
      break;
  }
  return refs;
}

const distinct = (ids: Array<string | null | undefined>) => [...new Set(ids.filter((id): id is string => !!id))];

async function byId<T extends { id: string }>(
  db: Knex | Knex.Transaction,
  table: string,
  ids: string[],
  columns: Array<string | Knex.Raw>,
): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  const rows = (await db(table)
    .select('id', ...columns)
    .whereIn('id', ids)) as T[];
  return new Map(rows.map((r) => [r.id, r]));
}

interface MemberRow {
  id: string;
  user_id: string;
  role: string;
  business_unit_id?: string;
}

/**
 * The human names of what each event touches, read in the change's own transaction (so a renamed cluster reads as it
 * was named by the change, and a removed member is still named): a few queries for any number of events (an import's).
 * Labels come from the event alone, so no module has to say them: a new write is labelled like the others.
 */
export async function labelsOf(db: Knex | Knex.Transaction, rows: AuditRow[]): Promise<AuditLabels[]> {
  const refs = rows.map(refsOf);
  const [clusterMembers, unitMembers, sessions] = await Promise.all([
    byId<MemberRow>(db, 'cluster_users', distinct(refs.map((r) => r.clusterMemberId)), ['user_id', 'role']),
    byId<MemberRow>(db, 'bu_users', distinct(refs.map((r) => r.businessUnitMemberId)), [
      'user_id',
      'role',
      'business_unit_id',
    ]),
    byId<{ id: string; user_id: string }>(db, 'sessions', distinct(refs.map((r) => r.sessionId)), ['user_id']),
  ]);
  for (const r of refs) {
    r.userId ??= sessions.get(r.sessionId ?? '')?.user_id;
    const member = clusterMembers.get(r.clusterMemberId ?? '') ?? unitMembers.get(r.businessUnitMemberId ?? '');
    if (!member) continue;
    r.userId ??= member.user_id;
    r.role ??= member.role;
    r.businessUnitId ??= member.business_unit_id;
  }
  const [clusters, units, users, mappings] = await Promise.all([
    byId<{ id: string; code: string; name: string }>(
      db,
      'clusters',
      distinct(refs.flatMap((r) => [r.clusterId, r.scopeId])),
      ['code', 'name'],
    ),
    byId<{ id: string; code: string; name: string }>(
      db,
      'business_units',
      distinct(refs.map((r) => r.businessUnitId)),
      ['code', 'name'],
    ),
    byId<{ id: string; username: string | null; display_name: string | null }>(
      db,
      'users',
      distinct(refs.map((r) => r.userId)),
      ['username', db.raw(`${displayNameSql('users')} as display_name`)],
    ),
    byId<{ id: string; document_type: string; display_label: string | null }>(
      db,
      'print_template_mappings',
      distinct(refs.map((r) => r.mappingId)),
      ['document_type', 'display_label'],
    ),
  ]);
  return refs.map((r) => {
    const labels: AuditLabels = {};
    const cluster = clusters.get(r.clusterId ?? '');
    if (cluster) Object.assign(labels, { cluster: cluster.code, cluster_name: cluster.name });
    const unit = units.get(r.businessUnitId ?? '');
    if (unit)
      Object.assign(labels, { business_unit_id: unit.id, business_unit: unit.code, business_unit_name: unit.name });
    const user = users.get(r.userId ?? '');
    if (user) {
      labels.user_id = user.id;
      if (user.username) labels.user = user.username;
      if (user.display_name) labels.user_name = user.display_name;
    }
    if (r.role) labels.role = r.role;
    if (r.permission) {
      labels.permission = r.permission;
      labels.scope_id = r.scopeId ?? null;
      labels.scope = r.scopeId ? (clusters.get(r.scopeId)?.code ?? null) : null;
    }
    const mapping = mappings.get(r.mappingId ?? '');
    if (mapping)
      labels.mapping = mapping.display_label
        ? `${mapping.document_type} · ${mapping.display_label}`
        : mapping.document_type;
    return labels;
  });
}

/**
 * The labels of an event written as a part of its change's own statement (see `insertPerRow`), as SQL over the written
 * row `perRowOf`: a statement sees the tables as they were before it, so the written row is where the new names are.
 */
export function rowLabelsSql(
  db: Knex | Knex.Transaction,
  row: AuditRow,
  perRowOf: string,
  extra: AuditLabels,
): Knex.Raw {
  const keys =
    row.target_type === 'cluster'
      ? { code: 'cluster', name: 'cluster_name' }
      : row.target_type === 'business_unit'
        ? { code: 'business_unit', name: 'business_unit_name' }
        : null;
  if (!keys) return db.raw('?::jsonb', [JSON.stringify(extra)]);
  return db.raw(
    `jsonb_strip_nulls(jsonb_build_object(?::text, to_jsonb(??) ->> 'code', ?::text, to_jsonb(??) ->> 'name'))
       || ?::jsonb`,
    [keys.code, perRowOf, keys.name, perRowOf, JSON.stringify(extra)],
  );
}
