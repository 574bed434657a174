import type { Knex } from 'knex';
import { toCount } from '../../db/count.js';
import type { ListQuery } from '../../core/list-query.js';
import { applyListQuery, displayNameSql, nextUpdatedAt } from '../../db/sql.js';
import type { AccountKind } from '../users/people.js';

type Db = Knex | Knex.Transaction;

export interface ClusterMemberRecord {
  id: string;
  user_id: string;
  cluster_id: string;
  role: 'admin' | 'user';
  is_active: boolean;
  parent_bu_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ClusterMemberRow extends ClusterMemberRecord {
  parent_bu_name: string | null;
  username: string;
  email: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
}

export interface BuMemberRow {
  id: string;
  user_id: string;
  business_unit_id: string;
  role: 'admin' | 'user';
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  username: string;
  email: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
}

export interface BuMemberRecord {
  id: string;
  user_id: string;
  business_unit_id: string;
  role: 'admin' | 'user';
  is_active: boolean;
  updated_at: Date;
  /** the business unit's parent cluster */
  cluster_id: string;
}

const CLUSTER_MEMBER_COLUMNS = [
  'id',
  'user_id',
  'cluster_id',
  'role',
  'is_active',
  'parent_bu_id',
  'created_at',
  'updated_at',
].map((c) => `cluster_users.${c}`);
const USER_COLUMNS = ['users.username', 'users.email', 'users.firstname', 'users.middlename', 'users.lastname'];

/** Members by display name, then email: the order of both member lists and their exports. */
const byName = <Row>(qb: Knex.QueryBuilder, idColumn: string) =>
  qb.orderByRaw<Row[]>(`lower(${displayNameSql('users')}) asc, lower(users.email) asc, ${idColumn} asc`);

export function membershipRepository() {
  const clusterMembers = (db: Db) =>
    db('cluster_users')
      .join('users', 'users.id', 'cluster_users.user_id')
      .leftJoin('business_units as parent_bu', 'parent_bu.id', 'cluster_users.parent_bu_id')
      .select(CLUSTER_MEMBER_COLUMNS)
      .select(USER_COLUMNS)
      .select('parent_bu.name as parent_bu_name');

  const buMembers = (db: Db) =>
    db('bu_users')
      .join('users', 'users.id', 'bu_users.user_id')
      .select(
        'bu_users.id',
        'bu_users.user_id',
        'bu_users.business_unit_id',
        'bu_users.role',
        'bu_users.is_active',
        'bu_users.created_at',
        'bu_users.updated_at',
      )
      .select(USER_COLUMNS);

  const clusterMembersOf = (db: Db, clusterId: string) =>
    byName<ClusterMemberRow>(clusterMembers(db).where('cluster_users.cluster_id', clusterId), 'cluster_users.id');
  const buMembersOf = (db: Db, businessUnitId: string) =>
    byName<BuMemberRow>(buMembers(db).where('bu_users.business_unit_id', businessUnitId), 'bu_users.id');

  return {
    /** The account of the id, with its kind (a service account is never a member); undefined when there is none. */
    async findAccount(
      db: Db,
      userId: string,
    ): Promise<{ id: string; username: string; kind: AccountKind } | undefined> {
      return db('users')
        .select('id', 'username', 'kind')
        .where({ id: userId })
        .first<{ id: string; username: string; kind: AccountKind } | undefined>();
    },

    async listClusterMembers(db: Db, clusterId: string): Promise<ClusterMemberRow[]> {
      return clusterMembersOf(db, clusterId);
    },

    /** The cluster's member list (or the page of `q`): an export's query. */
    // The member lists have one order (by name) and no sort of their own: the list query adds only the page.
    exportClusterMembers: (db: Db, clusterId: string, q: ListQuery): Knex.QueryBuilder =>
      applyListQuery(clusterMembersOf(db, clusterId), q, ''),

    async findClusterMember(db: Db, id: string): Promise<ClusterMemberRow | undefined> {
      return clusterMembers(db).where('cluster_users.id', id).first<ClusterMemberRow | undefined>();
    },

    async lockClusterMember(trx: Knex.Transaction, id: string): Promise<ClusterMemberRecord | undefined> {
      return trx('cluster_users')
        .select(CLUSTER_MEMBER_COLUMNS)
        .where('cluster_users.id', id)
        .forUpdate()
        .first<ClusterMemberRecord | undefined>();
    },

    async isClusterMember(db: Db, userId: string, clusterId: string): Promise<boolean> {
      return !!(await db('cluster_users').select('id').where({ user_id: userId, cluster_id: clusterId }).first());
    },

    async insertClusterMember(
      db: Db,
      row: {
        user_id: string;
        cluster_id: string;
        role: 'admin' | 'user';
        is_active: boolean;
        parent_bu_id: string | null;
      },
      actorId: string,
    ): Promise<string> {
      const [inserted] = await db('cluster_users')
        .insert({ ...row, created_by_id: actorId, updated_by_id: actorId })
        .returning<Array<{ id: string }>>('id');
      return (inserted as { id: string }).id;
    },

    async updateClusterMember(
      db: Db,
      id: string,
      changes: { role?: 'admin' | 'user'; parent_bu_id?: string | null },
      actorId: string,
    ): Promise<void> {
      await db('cluster_users')
        .where({ id })
        .update({ ...changes, updated_by_id: actorId, updated_at: nextUpdatedAt(db, 'cluster_users') });
    },

    /** Removes the cluster membership and the user's memberships of that cluster's business units. */
    async deleteClusterMember(db: Db, member: { id: string; user_id: string; cluster_id: string }): Promise<void> {
      await db('bu_users')
        .where('user_id', member.user_id)
        .whereIn('business_unit_id', db('business_units').select('id').where('cluster_id', member.cluster_id))
        .delete();
      await db('cluster_users').where({ id: member.id }).delete();
    },

    async listBuMembers(db: Db, businessUnitId: string): Promise<BuMemberRow[]> {
      return buMembersOf(db, businessUnitId);
    },

    /** The business unit's member list (or the page of `q`): an export's query. */
    exportBuMembers: (db: Db, businessUnitId: string, q: ListQuery): Knex.QueryBuilder =>
      applyListQuery(buMembersOf(db, businessUnitId), q, ''),

    async findBuMemberView(db: Db, id: string): Promise<BuMemberRow | undefined> {
      return buMembers(db).where('bu_users.id', id).first<BuMemberRow | undefined>();
    },

    async findBuMember(db: Db, id: string): Promise<BuMemberRecord | undefined> {
      return db('bu_users')
        .join('business_units', 'business_units.id', 'bu_users.business_unit_id')
        .select(
          'bu_users.id',
          'bu_users.user_id',
          'bu_users.business_unit_id',
          'bu_users.role',
          'bu_users.is_active',
          'bu_users.updated_at',
          'business_units.cluster_id',
        )
        .where('bu_users.id', id)
        .first<BuMemberRecord | undefined>();
    },

    /** The BU membership locked for the rest of the transaction (its version, for If-Match). */
    async lockBuMember(trx: Knex.Transaction, id: string): Promise<BuMemberRecord | undefined> {
      return trx('bu_users')
        .join('business_units', 'business_units.id', 'bu_users.business_unit_id')
        .select(
          'bu_users.id',
          'bu_users.user_id',
          'bu_users.business_unit_id',
          'bu_users.role',
          'bu_users.is_active',
          'bu_users.updated_at',
          'business_units.cluster_id',
        )
        .where('bu_users.id', id)
        .forUpdate('bu_users')
        .first<BuMemberRecord | undefined>();
    },

    async isBuMember(db: Db, userId: string, businessUnitId: string): Promise<boolean> {
      return !!(await db('bu_users').select('id').where({ user_id: userId, business_unit_id: businessUnitId }).first());
    },

    /** Licensed users of a business unit: every membership row counts. */
    async countBuMembers(db: Db, businessUnitId: string): Promise<number> {
      const [row] = await db('bu_users').count({ count: '*' }).where({ business_unit_id: businessUnitId });
      return toCount(row?.count);
    },

    async insertBuMember(
      db: Db,
      row: { user_id: string; business_unit_id: string; role: 'admin' | 'user'; is_default?: boolean },
      actorId: string,
    ): Promise<string> {
      const [inserted] = await db('bu_users')
        .insert({
          ...row,
          is_active: true,
          is_default: row.is_default ?? false,
          created_by_id: actorId,
          updated_by_id: actorId,
        })
        .returning<Array<{ id: string }>>('id');
      return (inserted as { id: string }).id;
    },

    async updateBuMember(
      db: Db,
      id: string,
      changes: { role?: 'admin' | 'user'; is_active?: boolean },
      actorId: string,
    ): Promise<void> {
      await db('bu_users')
        .where({ id })
        .update({ ...changes, updated_by_id: actorId, updated_at: nextUpdatedAt(db, 'bu_users') });
    },

    /** Removes a BU membership; a cluster membership that named this BU as parent no longer does. */
    async deleteBuMember(db: Db, member: { id: string; user_id: string; business_unit_id: string }): Promise<void> {
      await db('bu_users').where({ id: member.id }).delete();
      await db('cluster_users')
        .where({ user_id: member.user_id, parent_bu_id: member.business_unit_id })
        .update({ parent_bu_id: null });
    },
  };
}
