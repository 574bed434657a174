import type { Schemas } from '../../../core/contract.js';
import { serviceAccountMemberDetail, type AccountKind } from '../../users/people.js';
import type { ImportLine } from './file.js';

export type ImportRow = Schemas['MembershipImportRow'];
type Role = 'admin' | 'user';
type Reason = NonNullable<ImportRow['reason']>;

/** A membership as the plan needs it. */
export interface KnownMembership {
  id: string;
  role: Role;
  is_active: boolean;
}

/** What the file names, as the database knows it now (under the import's locks, when it applies). */
export interface ImportDirectory {
  /** Accounts by lower-cased username and by lower-cased email (service accounts too: the plan refuses them). */
  users: Map<string, Array<{ id: string; username: string; kind: AccountKind }>>;
  /** Live business units by code. */
  businessUnits: Map<
    string,
    {
      id: string;
      code: string;
      cluster_id: string;
      cluster_code: string;
      max_license_users: number | null;
      members: number;
    }
  >;
  /** Live clusters by code (two clusters may share a code). */
  clusters: Map<string, Array<{ id: string; code: string }>>;
  /** Existing memberships by `membershipKey`. */
  memberships: Map<string, KnownMembership>;
}

/** What the caller may do on a cluster. */
export interface ImportAccess {
  canSee(clusterId: string): boolean;
  canChange(clusterId: string): boolean;
}

/** One row's write, when the plan makes one. */
export type ImportWrite =
  | { kind: 'add'; target: Target; userId: string; role: Role; isActive: boolean }
  | { kind: 'update'; target: Target; userId: string; member: KnownMembership; role: Role; isActive: boolean };

export interface Target {
  type: 'business_unit' | 'cluster';
  id: string;
  code: string;
  clusterId: string;
}

export interface PlannedRow {
  row: ImportRow;
  write?: ImportWrite;
}

export const membershipKey = (type: Target['type'], userId: string, targetId: string) =>
  `${type}:${userId}:${targetId}`;

const ROLES: Record<string, Role> = { admin: 'admin', user: 'user' };
const ACTIVE: Record<string, boolean> = {
  true: true,
  yes: true,
  y: true,
  '1': true,
  active: true,
  false: false,
  no: false,
  n: false,
  '0': false,
  inactive: false,
};

const stateText = (role: Role, isActive: boolean) => `${role}, ${isActive ? 'active' : 'inactive'}`;
const targetText = (t: Target) => (t.type === 'business_unit' ? t.code : `cluster ${t.code}`);

class Refusal {
  constructor(
    readonly reason: Reason,
    readonly detail: string,
  ) {}
}

/** The row's requested role and state, or why they cannot be read. */
function requested(line: ImportLine): { role: Role | null; active: boolean | null } | Refusal {
  if (line.unreadable) return new Refusal('malformed_row', line.unreadable);
  if (line.user === '')
    return new Refusal('malformed_row', `Line ${line.line} names no user: give a username or an email.`);
  if (!line.businessUnit && !line.cluster)
    return new Refusal('malformed_row', `Line ${line.line} names neither a business unit nor a cluster.`);
  const role = line.role === null ? null : ROLES[line.role.toLowerCase()];
  if (role === undefined) return new Refusal('malformed_row', `The role "${line.role}" is not admin or user.`);
  const active = line.active === null ? null : ACTIVE[line.active.toLowerCase()];
  if (active === undefined)
    return new Refusal(
      'malformed_row',
      `The active value "${line.active}" is not true or false (yes/no, 1/0 also work).`,
    );
  return { role, active };
}

/** The membership the row is about: a business unit's (checked against a cluster on the same row), or a cluster's. */
function targetOf(line: ImportLine, dir: ImportDirectory, access: ImportAccess): Target | Refusal {
  if (line.businessUnit) {
    const bu = dir.businessUnits.get(line.businessUnit);
    if (!bu || !access.canSee(bu.cluster_id)) {
      return new Refusal(
        'unknown_business_unit',
        `No live business unit you can see has the code "${line.businessUnit}" (codes are case-sensitive).`,
      );
    }
    if (line.cluster && line.cluster !== bu.cluster_code) {
      return new Refusal(
        'malformed_row',
        `The business unit ${bu.code} belongs to cluster ${bu.cluster_code}, not ${line.cluster}.`,
      );
    }
    return { type: 'business_unit', id: bu.id, code: bu.code, clusterId: bu.cluster_id };
  }
  const code = line.cluster!;
  const clusters = (dir.clusters.get(code) ?? []).filter((c) => access.canSee(c.id));
  if (clusters.length === 0)
    return new Refusal(
      'unknown_cluster',
      `No live cluster you can see has the code "${code}" (codes are case-sensitive).`,
    );
  if (clusters.length > 1) {
    return new Refusal(
      'ambiguous_cluster',
      `${clusters.length} live clusters share the code "${code}": add this member from the cluster's page instead.`,
    );
  }
  return { type: 'cluster', id: clusters[0]!.id, code, clusterId: clusters[0]!.id };
}

/**
 * The plan of an import: for each row of the file, in order, what it would do. A dry run and an apply make the
 * same plan from the same directory; the licence cap of a business unit counts the rows added above in the file, and
 * a user joins a business unit only as a user of its cluster, already or by a row above.
 */
export function planImport(lines: ImportLine[], dir: ImportDirectory, access: ImportAccess): PlannedRow[] {
  const firstLine = new Map<string, number>();
  const addedTo = new Map<string, number>();
  /** Cluster memberships the rows above add, so a business unit row below may count on them. */
  const joinsCluster = new Set<string>();

  const plan = (
    line: ImportLine,
    asked: ReturnType<typeof requested>,
  ): { outcome: ImportRow['outcome']; detail: string; write?: ImportWrite } | Refusal => {
    if (asked instanceof Refusal) return asked;
    const users = dir.users.get(line.user.toLowerCase()) ?? [];
    if (users.length !== 1) {
      return new Refusal(
        'unknown_user',
        users.length === 0
          ? `No user has the username or email "${line.user}".`
          : `"${line.user}" is the username of one user and the email of another: use the other name.`,
      );
    }
    const account = users[0]!;
    // The membership operations refuse a service account; a file is no side door for one.
    if (account.kind === 'service') return new Refusal('unknown_user', serviceAccountMemberDetail(account));
    const userId = account.id;
    const target = targetOf(line, dir, access);
    if (target instanceof Refusal) return target;
    if (!access.canChange(target.clusterId)) {
      return new Refusal(
        'no_permission',
        `You need cluster.update on the cluster of ${targetText(target)} to change its members.`,
      );
    }
    const key = membershipKey(target.type, userId, target.id);
    const first = firstLine.get(key);
    if (first !== undefined)
      return new Refusal(
        'duplicate_row',
        `The same user and ${target.type === 'cluster' ? 'cluster' : 'business unit'} as line ${first}.`,
      );
    firstLine.set(key, line.line);

    const member = dir.memberships.get(key);
    if (member) {
      const role = asked.role ?? member.role;
      const isActive = asked.active ?? member.is_active;
      if (role === member.role && isActive === member.is_active)
        return { outcome: 'unchanged', detail: `Already in ${targetText(target)} as ${stateText(role, isActive)}.` };
      return {
        outcome: 'updated',
        detail: `In ${targetText(target)}: ${stateText(member.role, member.is_active)} → ${stateText(role, isActive)}.`,
        write: { kind: 'update', target, userId, member, role, isActive },
      };
    }
    const role = asked.role ?? 'user';
    const isActive = asked.active ?? true;
    if (target.type === 'cluster') joinsCluster.add(membershipKey('cluster', userId, target.id));
    if (target.type === 'business_unit') {
      const bu = dir.businessUnits.get(target.code)!;
      const inCluster = membershipKey('cluster', userId, bu.cluster_id);
      // A business unit takes its members from its cluster's users, as its Add user dialog offers them (ADR 0021).
      if (!dir.memberships.has(inCluster) && !joinsCluster.has(inCluster)) {
        return new Refusal(
          'not_cluster_member',
          `"${line.user}" is not a user of cluster ${bu.cluster_code}, and ${bu.code} takes its members from its ` +
            `cluster: add the row "${line.user},,${bu.cluster_code}" above this one, or add them to the cluster first.`,
        );
      }
      const above = addedTo.get(bu.id) ?? 0;
      if (bu.max_license_users !== null && bu.members + above >= bu.max_license_users) {
        const counting = above > 0 ? `, counting ${above} ${above === 1 ? 'row' : 'rows'} above in this file` : '';
        return new Refusal(
          'licence_cap_reached',
          `${bu.code} has reached its licence limit (${bu.members + above}/${bu.max_license_users}${counting}).`,
        );
      }
      addedTo.set(bu.id, above + 1);
    }
    return {
      outcome: 'added',
      detail: `Joins ${targetText(target)} as ${stateText(role, isActive)}.`,
      write: { kind: 'add', target, userId, role, isActive },
    };
  };

  return lines.map((line) => {
    const echo = { line: line.line, user: line.user, business_unit: line.businessUnit, cluster: line.cluster };
    const asked = requested(line);
    const shown = asked instanceof Refusal ? { role: null, active: null } : asked;
    const result = plan(line, asked);
    if (result instanceof Refusal)
      return { row: { ...echo, ...shown, outcome: 'refused', reason: result.reason, detail: result.detail } };
    return {
      row: { ...echo, ...shown, outcome: result.outcome, reason: null, detail: result.detail },
      write: result.write,
    };
  });
}

/** How many rows of each outcome. */
export function summarize(rows: ImportRow[]): Schemas['MembershipImportResult']['summary'] {
  const summary = { total: rows.length, added: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const row of rows) summary[row.outcome]++;
  return summary;
}
