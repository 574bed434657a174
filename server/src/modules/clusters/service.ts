import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import type { FreshnessCheck } from '../../core/etag.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import type { CursorContext, ListCursors } from '../../core/list-cursor.js';
import { capAllRows, cursorPaginate, parseListQuery, withCursor } from '../../core/list-query.js';
import { assertCan, assertMayChangeLicence, clustersWith, type AuthContext } from '../../core/permissions.js';
import type { StoragePort } from '../../storage/port.js';
import { DELETED, LIVE, pick, type AuditTrail, type Change } from '../audit/service.js';
import { imageUrlsOf } from '../branding/images.js';
import { auditOf, iso } from '../../core/audit.js';
import { toCount, toNullableCount } from '../../db/count.js';
import { isUniqueViolation } from '../../db/sql.js';
import { cursorBatches } from '../../db/cursor.js';
import { statusText, type CsvColumn, type CsvExport } from '../../core/csv.js';
import {
  CLUSTER_NOT_NULL,
  CLUSTER_SORTABLE,
  clusterRepository,
  type ClusterListFilter,
  type ClusterListRow,
  type ClusterRecord,
  type ClusterWrite,
  type VersionedClusterRecord,
} from './repository.js';

type Cluster = Schemas['Cluster'];
type ClusterInput = Schemas['ClusterInput'];
type ClusterPage = Schemas['ClusterPage'];

function conflictMessage(code: string, name: string): string {
  return `A live cluster with code "${code}" and name "${name}" already exists`;
}

function toWrite(input: ClusterInput): ClusterWrite {
  return {
    code: input.code.trim(),
    name: input.name.trim(),
    alias_name: input.alias_name ?? null,
    max_license_bu: input.max_license_bu ?? null,
    is_active: input.is_active ?? true,
  };
}

/** The export's columns (the product's cluster CSV). */
const CSV_COLUMNS: CsvColumn<ClusterListRow>[] = [
  { header: 'Code', value: (r) => r.code },
  { header: 'Name', value: (r) => r.name },
  { header: 'Alias', value: (r) => r.alias_name },
  { header: 'Status', value: (r) => statusText(r.is_active) },
  { header: 'Max Licensed BUs', value: (r) => r.max_license_bu },
  { header: 'Users', value: (r) => toCount(r.users_count) },
  { header: 'Max Licensed Users', value: (r) => toNullableCount(r.total_max_license_users) },
  { header: 'Created', value: (r) => iso(r.created_at) },
];

/** The list's filter, for the list and its export alike: what the caller may read, narrowed by the query. */
function listFilter(auth: AuthContext, query: QueryParams<'listClusters'>): ClusterListFilter {
  const scope = clustersWith(auth.permissions, 'cluster.read');
  const list = parseListQuery(query, { sortable: CLUSTER_SORTABLE, notNull: CLUSTER_NOT_NULL });
  return { list, isActive: query.is_active, deleted: query.deleted ?? 'exclude', scope };
}

/** What a cursor of the list is bound to: the list, the query's filters and search, the sort and the caller. */
function cursorContext(auth: AuthContext, query: QueryParams<'listClusters'>, f: ClusterListFilter): CursorContext {
  const filters = { is_active: query.is_active, deleted: f.deleted, search: f.list.search };
  return { list: 'listClusters', filters, sort: f.list.sort, subject: auth.userId };
}

export function clusterService(deps: { knex: Knex; storage: StoragePort; audit: AuditTrail; cursors: ListCursors }) {
  const { knex, storage, audit, cursors } = deps;
  const repo = clusterRepository({ knex });

  async function present(row: ClusterListRow): Promise<Cluster> {
    return {
      id: row.id,
      code: row.code,
      name: row.name,
      alias_name: row.alias_name,
      max_license_bu: row.max_license_bu,
      is_active: row.is_active,
      ...(await imageUrlsOf(storage, row)),
      bu_count: toCount(row.bu_count),
      users_count: toCount(row.users_count),
      total_max_license_users: toNullableCount(row.total_max_license_users),
      ...auditOf(row),
    };
  }

  async function load(db: Knex | Knex.Transaction, id: string): Promise<Cluster> {
    const row = await repo.findWithCounts(db, id);
    if (!row) throw new NotFoundError('Cluster not found');
    return present(row);
  }

  /** Loads the row and its version for a write, under lock if asked; a missing (or, unless allowed, soft-deleted) cluster is 404. */
  async function readLive(
    db: Knex | Knex.Transaction,
    id: string,
    opts: { lock: boolean; allowDeleted?: boolean },
  ): Promise<VersionedClusterRecord> {
    const row = await repo.findForWrite(db, id, { lock: opts.lock });
    if (!row || (row.deleted_at !== null && !opts.allowDeleted)) throw new NotFoundError('Cluster not found');
    return row;
  }

  const lockLive = (trx: Knex.Transaction, id: string, opts: { allowDeleted?: boolean } = {}) =>
    readLive(trx, id, { ...opts, lock: true });

  /** Runs a write and turns the live code+name unique violation into a 409. */
  async function guardUnique<T>(values: { code: string; name: string }, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(conflictMessage(values.code, values.name));
      throw err;
    }
  }

  return {
    /** For the modules that act inside a cluster (business units, memberships): the row, or undefined. */
    findRecord: (db: Knex | Knex.Transaction, id: string) => repo.findById(db, id),
    /** The row locked for the rest of the transaction, so licence counts taken under it cannot race. */
    lockRecord: (trx: Knex.Transaction, id: string): Promise<ClusterRecord | undefined> =>
      repo.findForWrite(trx, id, { lock: true }),
    liveBusinessUnitCount: (trx: Knex.Transaction, id: string) => repo.liveBusinessUnitCount(trx, id),

    async list(auth: AuthContext, query: QueryParams<'listClusters'>): Promise<ClusterPage> {
      const filter = listFilter(auth, query);
      const ctx = cursorContext(auth, query, filter);
      const list = withCursor(capAllRows(filter.list), query.cursor, cursors, ctx);
      const page = await repo.listPage(knex, { ...filter, list });
      const data = await Promise.all(page.rows.map(present));
      return { data, paginate: cursorPaginate({ ...page, count: page.rows.length }, list, cursors, ctx) };
    },

    /**
     * The list as CSV: the same filter, search, sort and access, every matching row streamed from a cursor. Access is
     * checked at once; the rows are read as the file is sent.
     */
    export(auth: AuthContext, query: QueryParams<'exportClusters'>): CsvExport<ClusterListRow> {
      return {
        name: 'clusters',
        columns: CSV_COLUMNS,
        batches: cursorBatches(knex, repo.exportRows(knex, listFilter(auth, query))),
      };
    },

    async get(auth: AuthContext, id: string): Promise<Cluster> {
      assertCan(auth, 'cluster.read', id);
      return load(knex, id);
    },

    async create(auth: AuthContext, input: ClusterInput): Promise<Cluster> {
      assertCan(auth, 'cluster.create', null);
      const values = toWrite(input);
      return knex.transaction(async (trx) => {
        const id = await guardUnique(values, () => repo.insert(trx, values, auth.userId));
        await audit.record(trx, auth, {
          action: 'createCluster',
          target: { type: 'cluster', id },
          clusterId: id,
          after: values,
        });
        return load(trx, id);
      });
    },

    async update(auth: AuthContext, id: string, input: ClusterInput, assertFresh: FreshnessCheck): Promise<Cluster> {
      assertCan(auth, 'cluster.update', id);
      const values = toWrite(input);
      /** Checks the request against the row as read, then writes it in one statement if the row is still as read. */
      const writeOver = (db: Knex | Knex.Transaction, current: VersionedClusterRecord) => {
        assertFresh(current);
        assertMayChangeLicence(auth, 'max_license_bu', current.max_license_bu, values.max_license_bu);
        const change: Change = {
          action: 'updateCluster',
          target: { type: 'cluster', id },
          clusterId: id,
          before: pick(current, Object.keys(values)),
          after: values,
        };
        return guardUnique(values, () =>
          repo.updateIfUnchanged(db, id, current.row_version, values, auth.userId, (rowOf) =>
            audit.recordPerRow(db, auth, change, rowOf),
          ),
        );
      };
      // A read and one write, no lock held between them (an edit is two round trips, not six).
      const written = await writeOver(knex, await readLive(knex, id, { lock: false }));
      if (written) return present(written);
      // Someone wrote in between: read and write again under the row lock, where the row cannot change.
      return knex.transaction(async (trx) => {
        const row = await writeOver(trx, await lockLive(trx, id));
        if (!row) throw new Error(`cluster ${id} changed under its row lock`);
        return present(row);
      });
    },

    /**
     * Switches the cluster on or off: the update of `is_active` alone, with the update's access and audit event. A
     * cluster already in that state is left as it is (nothing written, nothing recorded).
     */
    async setActive(auth: AuthContext, id: string, isActive: boolean): Promise<Cluster> {
      assertCan(auth, 'cluster.update', id);
      return knex.transaction(async (trx) => {
        const current = await lockLive(trx, id);
        if (current.is_active !== isActive) {
          const values = { is_active: isActive };
          await repo.update(trx, id, values, auth.userId);
          await audit.record(trx, auth, {
            action: 'updateCluster',
            target: { type: 'cluster', id },
            clusterId: id,
            before: pick(current, ['is_active']),
            after: values,
          });
        }
        return load(trx, id);
      });
    },

    async remove(auth: AuthContext, id: string): Promise<void> {
      assertCan(auth, 'cluster.delete', id);
      await knex.transaction(async (trx) => {
        await lockLive(trx, id);
        await repo.softDelete(trx, id, auth.userId);
        await audit.record(trx, auth, {
          action: 'deleteCluster',
          target: { type: 'cluster', id },
          clusterId: id,
          before: LIVE,
          after: DELETED,
        });
      });
    },

    async restore(auth: AuthContext, id: string): Promise<Cluster> {
      assertCan(auth, 'cluster.delete', id);
      return knex.transaction(async (trx) => {
        const current = await lockLive(trx, id, { allowDeleted: true });
        if (current.deleted_at !== null) {
          if (await repo.liveWithCodeAndName(trx, current.code, current.name, id)) {
            throw new ConflictError(
              `${conflictMessage(current.code, current.name)}; change that cluster before restoring this one`,
            );
          }
          await guardUnique(current, () => repo.restore(trx, id, auth.userId));
        }
        await audit.record(trx, auth, {
          action: 'restoreCluster',
          target: { type: 'cluster', id },
          clusterId: id,
          before: current.deleted_at ? DELETED : LIVE,
          after: LIVE,
        });
        return load(trx, id);
      });
    },
  };
}

export type ClusterService = ReturnType<typeof clusterService>;
export type { ClusterRecord };
