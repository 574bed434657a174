import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { iso } from '../../core/audit.js';
import { statusText, type CsvColumn, type CsvExport } from '../../core/csv.js';
import { displayName } from '../../core/display-name.js';
import { parsePageQuery } from '../../core/list-query.js';
import { cursorBatches } from '../../db/cursor.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import type { FreshnessCheck } from '../../core/etag.js';
import { assertCan, assertVisible, type AuthContext } from '../../core/permissions.js';
import { isUniqueViolation } from '../../db/sql.js';
import { pick, type AuditTrail } from '../audit/service.js';
import { assertMayBeMember } from '../users/people.js';
import { presentBuMember, presentClusterMember } from './present.js';
import { membershipRepository, type BuMemberRow, type ClusterMemberRow } from './repository.js';

type ClusterUser = Schemas['ClusterUser'];
type ClusterUserCreate = Schemas['ClusterUserCreate'];
type ClusterUserUpdate = Schemas['ClusterUserUpdate'];
type BusinessUnitUser = Schemas['BusinessUnitUser'];
type BusinessUnitUserCreate = Schemas['BusinessUnitUserCreate'];
type BusinessUnitUserUpdate = Schemas['BusinessUnitUserUpdate'];

/** What memberships need of a tenant row: whether it is live, its licence cap and (for a BU) its cluster. */
interface TenantRecords<R> {
  findRecord(db: Knex | Knex.Transaction, id: string): Promise<R | undefined>;
  lockRecord(trx: Knex.Transaction, id: string): Promise<R | undefined>;
}
interface ClusterRow {
  id: string;
  deleted_at: Date | string | null;
}
interface BusinessUnitRow extends ClusterRow {
  cluster_id: string;
  max_license_users: number | null;
}

export interface MembershipDeps {
  knex: Knex;
  audit: AuditTrail;
  clusters: TenantRecords<ClusterRow>;
  businessUnits: TenantRecords<BusinessUnitRow>;
}

/** The fields of a membership its audit events show. */
const CLUSTER_MEMBER_FIELDS = ['user_id', 'cluster_id', 'role', 'is_active', 'parent_bu_id'];
const BU_MEMBER_FIELDS = ['user_id', 'business_unit_id', 'role', 'is_active'];

/** The columns both member exports share, around the cluster export's parent business unit. */
function memberColumns<R extends BuMemberRow | ClusterMemberRow>(detail: CsvColumn<R>[]): CsvColumn<R>[] {
  return [
    { header: 'Username', value: (m) => m.username },
    { header: 'Name', value: displayName },
    { header: 'Email', value: (m) => m.email },
    { header: 'Role', value: (m) => m.role },
    ...detail,
    { header: 'Status', value: (m) => statusText(m.is_active) },
    { header: 'Created', value: (m) => iso(m.created_at) },
  ];
}
const CLUSTER_MEMBER_COLUMNS = memberColumns<ClusterMemberRow>([
  { header: 'Parent Business Unit', value: (m) => m.parent_bu_name },
]);
const BU_MEMBER_COLUMNS = memberColumns<BuMemberRow>([]);

/** The members of a business unit, for its detail view. */
export function memberDirectory() {
  const repo = membershipRepository();
  return {
    ofBusinessUnit: async (db: Knex | Knex.Transaction, businessUnitId: string): Promise<BusinessUnitUser[]> =>
      (await repo.listBuMembers(db, businessUnitId)).map(presentBuMember),
  };
}
export type MemberDirectory = ReturnType<typeof memberDirectory>;

/*
 * Lock order. Membership writes lock rows in one order, so that no two of them ever wait on each other in a cycle (a
 * deadlock): business units first, then clusters, each set in id order, then the membership rows. The import locks
 * every unit and cluster its file names up front in that order (`lockTargets`); a single add or change locks the
 * parent business unit it names before the cluster or the membership row.
 */

function buLicenceMessage(count: number, max: number): string {
  return `Cannot add user: business unit has reached its license limit (${count}/${max})`;
}

export function membershipService({ knex, audit, clusters, businessUnits }: MembershipDeps) {
  const repo = membershipRepository();

  /** Reading a cluster's members needs `cluster.read` on it, and the cluster must exist. */
  async function assertClusterReadable(auth: AuthContext, clusterId: string): Promise<void> {
    assertCan(auth, 'cluster.read', clusterId);
    if (!(await clusters.findRecord(knex, clusterId))) throw new NotFoundError('Cluster not found');
  }

  /** A business unit the caller may not see is as missing as one that does not exist. */
  async function assertBusinessUnitVisible(auth: AuthContext, businessUnitId: string): Promise<void> {
    const bu = await businessUnits.findRecord(knex, businessUnitId);
    if (!bu) throw new NotFoundError('Business unit not found');
    assertVisible(auth, bu.cluster_id, 'Business unit not found');
  }

  async function assertUserExists(db: Knex | Knex.Transaction, userId: string): Promise<void> {
    const account = await repo.findAccount(db, userId);
    if (!account) throw new NotFoundError('User not found');
    assertMayBeMember(account);
  }

  /** Under a lock on the business unit row: concurrent joins never exceed its max_license_users. */
  async function assertBuHasRoom(trx: Knex.Transaction, bu: BusinessUnitRow): Promise<void> {
    if (bu.max_license_users === null) return;
    const count = await repo.countBuMembers(trx, bu.id);
    if (count >= bu.max_license_users) throw new ConflictError(buLicenceMessage(count, bu.max_license_users));
  }

  /**
   * Makes `businessUnitId` the user's parent BU in the cluster: it must be a live BU of that cluster, and the user
   * becomes its member (a licence) unless already one.
   */
  async function ensureParentMembership(
    trx: Knex.Transaction,
    userId: string,
    clusterId: string,
    businessUnitId: string,
    actorId: string,
  ): Promise<void> {
    const bu = await businessUnits.lockRecord(trx, businessUnitId);
    if (!bu || bu.deleted_at !== null || bu.cluster_id !== clusterId) {
      throw new ConflictError('The parent business unit must be a live business unit of this cluster');
    }
    if (await repo.isBuMember(trx, userId, bu.id)) return;
    await assertBuHasRoom(trx, bu);
    await repo.insertBuMember(
      trx,
      { user_id: userId, business_unit_id: bu.id, role: 'user', is_default: true },
      actorId,
    );
  }

  async function loadClusterMember(db: Knex | Knex.Transaction, id: string): Promise<ClusterUser> {
    const row = await repo.findClusterMember(db, id);
    if (!row) throw new NotFoundError('Cluster membership not found');
    return presentClusterMember(row);
  }

  async function loadBuMember(db: Knex | Knex.Transaction, id: string): Promise<BusinessUnitUser> {
    const row = await repo.findBuMemberView(db, id);
    if (!row) throw new NotFoundError('Business unit membership not found');
    return presentBuMember(row);
  }

  return {
    async listClusterUsers(auth: AuthContext, clusterId: string): Promise<{ data: ClusterUser[] }> {
      await assertClusterReadable(auth, clusterId);
      return { data: (await repo.listClusterMembers(knex, clusterId)).map(presentClusterMember) };
    },

    /** The cluster's member list as CSV, with the list's access. */
    async exportClusterUsers(
      auth: AuthContext,
      query: QueryParams<'exportClusterMembers'>,
    ): Promise<CsvExport<ClusterMemberRow>> {
      await assertClusterReadable(auth, query.cluster_id);
      const rows = repo.exportClusterMembers(knex, query.cluster_id, parsePageQuery(query));
      return { name: 'cluster-members', columns: CLUSTER_MEMBER_COLUMNS, batches: cursorBatches(knex, rows) };
    },

    async addClusterUser(auth: AuthContext, input: ClusterUserCreate): Promise<ClusterUser> {
      assertCan(auth, 'cluster.update', input.cluster_id);
      return knex.transaction(async (trx) => {
        // Business units before clusters, as every write that locks both takes them (see "Lock order" above).
        if (input.parent_bu_id) await businessUnits.lockRecord(trx, input.parent_bu_id);
        const cluster = await clusters.lockRecord(trx, input.cluster_id);
        if (!cluster || cluster.deleted_at !== null) throw new NotFoundError('Cluster not found');
        await assertUserExists(trx, input.user_id);
        if (await repo.isClusterMember(trx, input.user_id, input.cluster_id))
          throw new ConflictError('The user is already a member of this cluster');
        if (input.parent_bu_id)
          await ensureParentMembership(trx, input.user_id, input.cluster_id, input.parent_bu_id, auth.userId);
        let id: string;
        try {
          id = await repo.insertClusterMember(
            trx,
            {
              user_id: input.user_id,
              cluster_id: input.cluster_id,
              role: input.role ?? 'user',
              is_active: true,
              parent_bu_id: input.parent_bu_id ?? null,
            },
            auth.userId,
          );
        } catch (err) {
          if (isUniqueViolation(err)) throw new ConflictError('The user is already a member of this cluster');
          throw err;
        }
        const added = await loadClusterMember(trx, id);
        await audit.record(trx, auth, {
          action: 'addClusterUser',
          target: { type: 'cluster_user', id },
          clusterId: added.cluster_id,
          after: pick(added, CLUSTER_MEMBER_FIELDS),
        });
        return added;
      });
    },

    async updateClusterUser(
      auth: AuthContext,
      id: string,
      input: ClusterUserUpdate,
      assertFresh: FreshnessCheck,
    ): Promise<ClusterUser> {
      return knex.transaction(async (trx) => {
        // The new parent business unit before the membership row, as an import takes them (see "Lock order" above).
        if (input.parent_bu_id) await businessUnits.lockRecord(trx, input.parent_bu_id);
        const member = await repo.lockClusterMember(trx, id);
        if (!member) throw new NotFoundError('Cluster membership not found');
        assertVisible(auth, member.cluster_id, 'Cluster membership not found');
        assertCan(auth, 'cluster.update', member.cluster_id);
        assertFresh(member);
        const changes: { role?: 'admin' | 'user'; parent_bu_id?: string | null } = {};
        if (input.role !== undefined) changes.role = input.role;
        if (input.parent_bu_id !== undefined) {
          // The current parent BU is always allowed, even when it is at its licence limit.
          if (input.parent_bu_id !== null && input.parent_bu_id !== member.parent_bu_id) {
            await ensureParentMembership(trx, member.user_id, member.cluster_id, input.parent_bu_id, auth.userId);
          }
          changes.parent_bu_id = input.parent_bu_id;
        }
        await repo.updateClusterMember(trx, id, changes, auth.userId);
        const updated = await loadClusterMember(trx, id);
        await audit.record(trx, auth, {
          action: 'updateClusterUser',
          target: { type: 'cluster_user', id },
          clusterId: member.cluster_id,
          before: pick(member, CLUSTER_MEMBER_FIELDS),
          after: pick(updated, CLUSTER_MEMBER_FIELDS),
        });
        return updated;
      });
    },

    async removeClusterUser(auth: AuthContext, id: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const member = await repo.lockClusterMember(trx, id);
        if (!member) throw new NotFoundError('Cluster membership not found');
        assertVisible(auth, member.cluster_id, 'Cluster membership not found');
        assertCan(auth, 'cluster.update', member.cluster_id);
        await repo.deleteClusterMember(trx, member);
        await audit.record(trx, auth, {
          action: 'removeClusterUser',
          target: { type: 'cluster_user', id },
          clusterId: member.cluster_id,
          before: pick(member, CLUSTER_MEMBER_FIELDS),
        });
      });
    },

    async listBusinessUnitUsers(auth: AuthContext, businessUnitId: string): Promise<{ data: BusinessUnitUser[] }> {
      await assertBusinessUnitVisible(auth, businessUnitId);
      return { data: (await repo.listBuMembers(knex, businessUnitId)).map(presentBuMember) };
    },

    /** The business unit's member list as CSV, with the list's access. */
    async exportBusinessUnitUsers(
      auth: AuthContext,
      query: QueryParams<'exportBusinessUnitMembers'>,
    ): Promise<CsvExport<BuMemberRow>> {
      await assertBusinessUnitVisible(auth, query.business_unit_id);
      const rows = repo.exportBuMembers(knex, query.business_unit_id, parsePageQuery(query));
      return { name: 'business-unit-members', columns: BU_MEMBER_COLUMNS, batches: cursorBatches(knex, rows) };
    },

    async addBusinessUnitUser(auth: AuthContext, input: BusinessUnitUserCreate): Promise<BusinessUnitUser> {
      return knex.transaction(async (trx) => {
        const bu = await businessUnits.lockRecord(trx, input.business_unit_id);
        if (!bu || bu.deleted_at !== null) throw new NotFoundError('Business unit not found');
        assertVisible(auth, bu.cluster_id, 'Business unit not found');
        assertCan(auth, 'cluster.update', bu.cluster_id);
        await assertUserExists(trx, input.user_id);
        if (await repo.isBuMember(trx, input.user_id, bu.id))
          throw new ConflictError('The user is already a member of this business unit');
        await assertBuHasRoom(trx, bu);
        let id: string;
        try {
          id = await repo.insertBuMember(
            trx,
            { user_id: input.user_id, business_unit_id: bu.id, role: input.role ?? 'user' },
            auth.userId,
          );
        } catch (err) {
          if (isUniqueViolation(err)) throw new ConflictError('The user is already a member of this business unit');
          throw err;
        }
        const added = await loadBuMember(trx, id);
        await audit.record(trx, auth, {
          action: 'addBusinessUnitUser',
          target: { type: 'business_unit_user', id },
          clusterId: bu.cluster_id,
          after: pick(added, BU_MEMBER_FIELDS),
        });
        return added;
      });
    },

    async updateBusinessUnitUser(
      auth: AuthContext,
      id: string,
      input: BusinessUnitUserUpdate,
      assertFresh: FreshnessCheck,
    ): Promise<BusinessUnitUser> {
      return knex.transaction(async (trx) => {
        const member = await repo.lockBuMember(trx, id);
        if (!member) throw new NotFoundError('Business unit membership not found');
        assertVisible(auth, member.cluster_id, 'Business unit membership not found');
        assertCan(auth, 'cluster.update', member.cluster_id);
        assertFresh(member);
        const changes: { role?: 'admin' | 'user'; is_active?: boolean } = {};
        if (input.role !== undefined) changes.role = input.role;
        if (input.is_active !== undefined) changes.is_active = input.is_active;
        await repo.updateBuMember(trx, id, changes, auth.userId);
        const updated = await loadBuMember(trx, id);
        await audit.record(trx, auth, {
          action: 'updateBusinessUnitUser',
          target: { type: 'business_unit_user', id },
          clusterId: member.cluster_id,
          before: pick(member, BU_MEMBER_FIELDS),
          after: pick(updated, BU_MEMBER_FIELDS),
        });
        return updated;
      });
    },

    async removeBusinessUnitUser(auth: AuthContext, id: string): Promise<void> {
      const member = await repo.findBuMember(knex, id);
      if (!member) throw new NotFoundError('Business unit membership not found');
      assertVisible(auth, member.cluster_id, 'Business unit membership not found');
      assertCan(auth, 'cluster.update', member.cluster_id);
      await knex.transaction(async (trx) => {
        await repo.deleteBuMember(trx, member);
        await audit.record(trx, auth, {
          action: 'removeBusinessUnitUser',
          target: { type: 'business_unit_user', id },
          clusterId: member.cluster_id,
          before: pick(member, BU_MEMBER_FIELDS),
        });
      });
    },
  };
}

export type MembershipService = ReturnType<typeof membershipService>;
