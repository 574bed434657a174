import type { Knex } from 'knex';
import { auditOf, iso } from '../../core/audit.js';
import { statusText, type CsvColumn, type CsvExport } from '../../core/csv.js';
import { cursorBatches } from '../../db/cursor.js';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import type { FreshnessCheck } from '../../core/etag.js';
import type { CursorContext, ListCursors } from '../../core/list-cursor.js';
import { capAllRows, cursorPaginate, parseListQuery, withCursor } from '../../core/list-query.js';
import {
  assertCan,
  assertMayChangeLicence,
  assertVisible,
  can,
  clustersWith,
  type AuthContext,
} from '../../core/permissions.js';
import { toCount } from '../../db/count.js';
import { isUniqueViolation } from '../../db/sql.js';
import type { StoragePort } from '../../storage/port.js';
import { DELETED, LIVE, pick, type AuditTrail } from '../audit/service.js';
import { imageUrlsOf } from '../branding/images.js';
import type { ClusterRecord, ClusterService } from '../clusters/service.js';
import type { CurrencyService } from '../currencies/service.js';
import type { MemberDirectory } from '../memberships/service.js';
import { cleanConfig, formatFromJson, toWrite } from './form.js';
import {
  BU_FORMAT_FIELDS,
  BU_NOT_NULL,
  BU_SORTABLE,
  BU_TEXT_FIELDS,
  businessUnitRepository,
  type BusinessUnitExportRow,
  type BusinessUnitListFilter,
  type BusinessUnitRecord,
  type BusinessUnitRow,
  type BusinessUnitWrite,
} from './repository.js';

type BusinessUnit = Schemas['BusinessUnit'];
type BusinessUnitInput = Schemas['BusinessUnitInput'];
type BusinessUnitPage = Schemas['BusinessUnitPage'];
type BusinessUnitUser = Schemas['BusinessUnitUser'];
type Currency = Schemas['Currency'];

/** The export's columns (the product's business-unit CSV). */
const CSV_COLUMNS: CsvColumn<BusinessUnitExportRow>[] = [
  { header: 'Code', value: (r) => r.code },
  { header: 'Name', value: (r) => r.name },
  { header: 'Alias Name', value: (r) => r.alias_name },
  { header: 'Cluster', value: (r) => r.cluster_name },
  { header: 'Status', value: (r) => statusText(r.is_active) },
  { header: 'Max Licensed Users', value: (r) => r.max_license_users },
  { header: 'Created', value: (r) => iso(r.created_at) },
];

/** The list's filter, for the list and its export alike; naming a cluster the caller may not read is a 403. */
function listFilter(auth: AuthContext, query: QueryParams<'listBusinessUnits'>): BusinessUnitListFilter {
  const scope = clustersWith(auth.permissions, 'cluster.read');
  const clusterId = query.cluster_id;
  if (clusterId && scope !== 'all' && !scope.includes(clusterId))
    throw new ForbiddenError('Missing permission cluster.read on this cluster');
  const list = parseListQuery(query, { sortable: BU_SORTABLE, notNull: BU_NOT_NULL });
  return { list, isActive: query.is_active, deleted: query.deleted ?? 'exclude', clusterId, scope };
}

/** What a cursor of the list is bound to: the list, the query's filters and search, the sort and the caller. */
function cursorContext(auth: AuthContext, f: BusinessUnitListFilter): CursorContext {
  const filters = { is_active: f.isActive, deleted: f.deleted, cluster_id: f.clusterId, search: f.list.search };
  return { list: 'listBusinessUnits', filters, sort: f.list.sort, subject: auth.userId };
}

/** The cluster's licence-cap message, word for word as specified, for create, move and restore alike. */
function clusterLicenceMessage(count: number, max: number): string {
  return `Cannot create business unit: cluster has reached its license limit (${count}/${max})`;
}

/** The written columns as the database holds them (JSON columns as values), so the audit diff compares like with like. */
function asStored(values: BusinessUnitWrite): Record<string, unknown> {
  const json = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));
  return {
    ...values,
    config: json(values.config),
    ...Object.fromEntries(BU_FORMAT_FIELDS.map((f) => [f, json(values[f])])),
  };
}

/** Codes are unique across clusters because print mappings and resolve select business units by code alone. */
function codeTakenMessage(code: string): string {
  return `A live business unit with code "${code}" already exists (codes are unique across all clusters, as print mappings select units by code)`;
}

export interface BusinessUnitDeps {
  knex: Knex;
  storage: StoragePort;
  audit: AuditTrail;
  clusters: ClusterService;
  currencies: CurrencyService;
  members: MemberDirectory;
  cursors: ListCursors;
}

export function businessUnitService(deps: BusinessUnitDeps) {
  const { knex, storage, audit, clusters, currencies, members, cursors } = deps;
  const repo = businessUnitRepository({ knex });

  /**
   * The record as `auth` may see it. `db_connection` may carry credentials (the audit trail redacts it too): only a
   * caller who may update the unit (`cluster.update` on its cluster, platform-wide, or super admin) reads its value;
   * for anyone else it is null.
   */
  async function present(
    auth: AuthContext,
    row: BusinessUnitRow,
    usersCount: number,
    detail?: { currency?: Currency; users: BusinessUnitUser[] },
  ): Promise<BusinessUnit> {
    const text = Object.fromEntries(BU_TEXT_FIELDS.map((f) => [f, row[f]])) as Pick<
      BusinessUnit,
      (typeof BU_TEXT_FIELDS)[number]
    >;
    const formats = Object.fromEntries(BU_FORMAT_FIELDS.map((f) => [f, formatFromJson(row[f])])) as Pick<
      BusinessUnit,
      (typeof BU_FORMAT_FIELDS)[number]
    >;
    return {
      id: row.id,
      cluster_id: row.cluster_id,
      cluster_name: row.cluster_name,
      code: row.code,
      name: row.name,
      alias_name: row.alias_name,
      description: row.description,
      max_license_users: row.max_license_users,
      is_hq: row.is_hq,
      is_active: row.is_active,
      ...text,
      ...formats,
      calculation_method: row.calculation_method,
      default_currency_id: row.default_currency_id,
      config: cleanConfig(row.config),
      db_connection: can(auth.permissions, 'cluster.update', row.cluster_id) ? row.db_connection : null,
      users_count: usersCount,
      ...(await imageUrlsOf(storage, row)),
      ...(detail?.currency ? { defaultCurrency: detail.currency } : {}),
      ...(detail ? { users: detail.users } : {}),
      ...auditOf(row),
    };
  }

  /** The detail view: the record, its default currency and its members. */
  async function find(db: Knex | Knex.Transaction, id: string): Promise<BusinessUnitRow> {
    const row = await repo.findById(db, id);
    if (!row) throw new NotFoundError('Business unit not found');
    return row;
  }

  async function load(
    auth: AuthContext,
    db: Knex | Knex.Transaction,
    id: string,
    found?: BusinessUnitRow,
  ): Promise<BusinessUnit> {
    const row = found ?? (await find(db, id));
    const users = await members.ofBusinessUnit(db, id);
    const currency = row.default_currency_id ? await currencies.find(db, row.default_currency_id) : undefined;
    return present(auth, row, users.length, { currency, users });
  }

  async function lockBusinessUnit(
    trx: Knex.Transaction,
    id: string,
    opts: { allowDeleted?: boolean } = {},
  ): Promise<BusinessUnitRecord> {
    const row = await repo.lockById(trx, id);
    if (!row || (row.deleted_at !== null && !opts.allowDeleted)) throw new NotFoundError('Business unit not found');
    return row;
  }

  /** Locks the parent cluster a business unit goes into; it must exist and be live. */
  async function lockTargetCluster(trx: Knex.Transaction, clusterId: string): Promise<ClusterRecord> {
    const cluster = await clusters.lockRecord(trx, clusterId);
    if (!cluster || cluster.deleted_at !== null) {
      throw new BadRequestError('cluster_id is not a live cluster', [
        { path: '/body/cluster_id', message: 'is not a live cluster' },
      ]);
    }
    return cluster;
  }

  /** Called with the cluster row locked, so concurrent creates and moves see each other's inserts. */
  async function assertClusterHasRoom(trx: Knex.Transaction, cluster: ClusterRecord): Promise<void> {
    if (cluster.max_license_bu === null) return;
    const count = await clusters.liveBusinessUnitCount(trx, cluster.id);
    if (count >= cluster.max_license_bu) throw new ConflictError(clusterLicenceMessage(count, cluster.max_license_bu));
  }

  async function assertCurrencyExists(db: Knex | Knex.Transaction, id: string | null): Promise<void> {
    if (id && !(await currencies.find(db, id))) {
      throw new BadRequestError('default_currency_id is not a known currency', [
        { path: '/body/default_currency_id', message: 'is not a known currency' },
      ]);
    }
  }

  async function guardUnique<T>(code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(codeTakenMessage(code));
      throw err;
    }
  }

  return {
    async list(auth: AuthContext, query: QueryParams<'listBusinessUnits'>): Promise<BusinessUnitPage> {
      const filter = listFilter(auth, query);
      const ctx = cursorContext(auth, filter);
      const list = withCursor(capAllRows(filter.list), query.cursor, cursors, ctx);
      const page = await repo.listPage(knex, { ...filter, list });
      const data = await Promise.all(page.rows.map((r) => present(auth, r, toCount(r.users_count))));
      return { data, paginate: cursorPaginate({ ...page, count: page.rows.length }, list, cursors, ctx) };
    },

    /**
     * The list as CSV: the same filter, search, sort and access, every matching row streamed from a cursor. Access is
     * checked at once; the rows are read as the file is sent.
     */
    export(auth: AuthContext, query: QueryParams<'exportBusinessUnits'>): CsvExport<BusinessUnitExportRow> {
      return {
        name: 'business-units',
        columns: CSV_COLUMNS,
        batches: cursorBatches(knex, repo.exportRows(knex, listFilter(auth, query))),
      };
    },

    /** For memberships: the row, or undefined. */
    findRecord: (db: Knex | Knex.Transaction, id: string) => repo.findById(db, id),
    /** The row locked for the rest of the transaction, so a user-licence count taken under it cannot race. */
    lockRecord: (trx: Knex.Transaction, id: string) => repo.lockById(trx, id),

    async get(auth: AuthContext, id: string): Promise<BusinessUnit> {
      const row = await find(knex, id);
      assertVisible(auth, row.cluster_id, 'Business unit not found');
      return load(auth, knex, id, row);
    },

    async create(auth: AuthContext, input: BusinessUnitInput): Promise<BusinessUnit> {
      assertCan(auth, 'cluster.create', input.cluster_id);
      const values = toWrite(input);
      assertMayChangeLicence(auth, 'max_license_users', null, values.max_license_users);
      await assertCurrencyExists(knex, values.default_currency_id);
      return knex.transaction(async (trx) => {
        const cluster = await lockTargetCluster(trx, values.cluster_id);
        await assertClusterHasRoom(trx, cluster);
        const id = await guardUnique(values.code, () => repo.insert(trx, values, auth.userId));
        await audit.record(trx, auth, {
          action: 'createBusinessUnit',
          target: { type: 'business_unit', id },
          clusterId: values.cluster_id,
          after: asStored(values),
        });
        return load(auth, trx, id);
      });
    },

    async update(
      auth: AuthContext,
      id: string,
      input: BusinessUnitInput,
      assertFresh: FreshnessCheck,
    ): Promise<BusinessUnit> {
      const values = toWrite(input);
      await assertCurrencyExists(knex, values.default_currency_id);
      return knex.transaction(async (trx) => {
        const current = await lockBusinessUnit(trx, id);
        assertVisible(auth, current.cluster_id, 'Business unit not found');
        assertCan(auth, 'cluster.update', current.cluster_id);
        assertMayChangeLicence(auth, 'max_license_users', current.max_license_users, values.max_license_users);
        if (values.cluster_id !== current.cluster_id) {
          // A move changes two tenants: the caller needs the update grant on the destination too.
          assertCan(auth, 'cluster.update', values.cluster_id);
          const target = await lockTargetCluster(trx, values.cluster_id);
          await assertClusterHasRoom(trx, target);
        }
        assertFresh(current);
        await guardUnique(values.code, () => repo.update(trx, id, values, auth.userId));
        if (values.cluster_id !== current.cluster_id) await repo.clearParentIn(trx, id, current.cluster_id);
        const before = pick(current, Object.keys(values));
        await audit.record(trx, auth, {
          action: 'updateBusinessUnit',
          target: { type: 'business_unit', id },
          clusterId: values.cluster_id,
          before,
          after: asStored(values),
        });
        return load(auth, trx, id);
      });
    },

    /**
     * Switches the unit on or off: the update of `is_active` alone, with the update's access and audit event. The
     * cluster's licence cap counts live units, active or not, so switching one on needs no room. A unit already in
     * that state is left as it is (nothing written, nothing recorded).
     */
    async setActive(auth: AuthContext, id: string, isActive: boolean): Promise<BusinessUnit> {
      return knex.transaction(async (trx) => {
        const current = await lockBusinessUnit(trx, id);
        assertVisible(auth, current.cluster_id, 'Business unit not found');
        assertCan(auth, 'cluster.update', current.cluster_id);
        if (current.is_active !== isActive) {
          const values = { is_active: isActive };
          await repo.update(trx, id, values, auth.userId);
          await audit.record(trx, auth, {
            action: 'updateBusinessUnit',
            target: { type: 'business_unit', id },
            clusterId: current.cluster_id,
            before: pick(current, ['is_active']),
            after: values,
          });
        }
        return load(auth, trx, id);
      });
    },

    async remove(auth: AuthContext, id: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const current = await lockBusinessUnit(trx, id);
        assertVisible(auth, current.cluster_id, 'Business unit not found');
        assertCan(auth, 'cluster.delete', current.cluster_id);
        await repo.softDelete(trx, id, auth.userId);
        await audit.record(trx, auth, {
          action: 'deleteBusinessUnit',
          target: { type: 'business_unit', id },
          clusterId: current.cluster_id,
          before: LIVE,
          after: DELETED,
        });
      });
    },

    async restore(auth: AuthContext, id: string): Promise<BusinessUnit> {
      return knex.transaction(async (trx) => {
        const current = await lockBusinessUnit(trx, id, { allowDeleted: true });
        assertVisible(auth, current.cluster_id, 'Business unit not found');
        assertCan(auth, 'cluster.delete', current.cluster_id);
        if (current.deleted_at !== null) {
          const cluster = await clusters.lockRecord(trx, current.cluster_id);
          if (!cluster || cluster.deleted_at !== null)
            throw new ConflictError('The cluster of this business unit is deleted; restore the cluster first');
          if (await repo.liveWithCode(trx, current.code, id)) {
            throw new ConflictError(
              `${codeTakenMessage(current.code)}; change that unit's code before restoring this one`,
            );
          }
          await assertClusterHasRoom(trx, cluster);
          await guardUnique(current.code, () => repo.restore(trx, id, auth.userId));
        }
        await audit.record(trx, auth, {
          action: 'restoreBusinessUnit',
          target: { type: 'business_unit', id },
          clusterId: current.cluster_id,
          before: current.deleted_at ? DELETED : LIVE,
          after: LIVE,
        });
        return load(auth, trx, id);
      });
    },
  };
}

export type BusinessUnitService = ReturnType<typeof businessUnitService>;
export type { BusinessUnitRecord };
