import type { Knex } from 'knex';
import { toCount } from '../../../db/count.js';
import { nextUpdatedAt } from '../../../db/sql.js';
import type { ImportLine } from './file.js';
import type { AccountKind } from '../../users/people.js';
import { membershipKey, type ImportDirectory, type ImportWrite, type KnownMembership } from './plan.js';

type Db = Knex | Knex.Transaction;

/** Values per `in (…)` list: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 5000;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

async function inChunks<T, R>(values: T[], read: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const chunk of chunks([...new Set(values)])) out.push(...(await read(chunk)));
  return out;
}

const placeholders = (values: unknown[]) => values.map(() => '?').join(', ');

const codesOf = (lines: ImportLine[], pick: (l: ImportLine) => string | null) =>
  lines.map(pick).filter((c): c is string => c !== null);

function group<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) (out.get(keyOf(row)) ?? out.set(keyOf(row), []).get(keyOf(row))!).push(row);
  return out;
}

/** A membership as it is stored, with the fields its audit events show. */
export interface WrittenMembership {
  write: ImportWrite;
  id: string;
  fields: Record<string, unknown>;
}

export function membershipImportRepository() {
  return {
    /**
     * Locks the live business units and clusters the file names, in id order (as every import does, so two never
     * deadlock): a single add waits for the import, and the import for it, so the licence caps hold.
     */
    async lockTargets(trx: Knex.Transaction, lines: ImportLine[]): Promise<void> {
      await inChunks(
        codesOf(lines, (l) => l.businessUnit),
        (codes) =>
          trx('business_units').select('id').whereIn('code', codes).whereNull('deleted_at').orderBy('id').forUpdate(),
      );
      await inChunks(
        codesOf(lines, (l) => l.cluster ?? null),
        (codes) =>
          trx('clusters').select('id').whereIn('code', codes).whereNull('deleted_at').orderBy('id').forUpdate(),
      );
    },

    /** Everything the plan looks up, in a few statements however long the file. */
    async directory(db: Db, lines: ImportLine[]): Promise<ImportDirectory> {
      const names = lines.map((l) => l.user.toLowerCase()).filter((n) => n !== '');
      const users = await inChunks(
        names,
        (chunk) =>
          db('users')
            .select('id', 'username', 'kind', db.raw('lower(email) as email'))
            .whereRaw(`lower(username) in (${placeholders(chunk)})`, chunk)
            .orWhereRaw(`lower(email) in (${placeholders(chunk)})`, chunk) as Promise<
            Array<{ id: string; username: string; kind: AccountKind; email: string }>
          >,
      );
      const byName: ImportDirectory['users'] = new Map();
      for (const u of new Map(users.map((u) => [u.id, u])).values()) {
        const account = { id: u.id, username: u.username, kind: u.kind };
        for (const name of new Set([u.username.toLowerCase(), u.email]))
          (byName.get(name) ?? byName.set(name, []).get(name)!).push(account);
      }

      const businessUnits = await inChunks(
        codesOf(lines, (l) => l.businessUnit),
        (codes) =>
          db('business_units as b')
            .join('clusters as c', 'c.id', 'b.cluster_id')
            .select('b.id', 'b.code', 'b.cluster_id', 'c.code as cluster_code', 'b.max_license_users')
            .select(db.raw('(select count(*) from bu_users m where m.business_unit_id = b.id) as members'))
            .whereIn('b.code', codes)
            .whereNull('b.deleted_at') as Promise<
            Array<{
              id: string;
              code: string;
              cluster_id: string;
              cluster_code: string;
              max_license_users: number | null;
              members: number;
            }>
          >,
      );
      const clusters = await inChunks(
        codesOf(lines, (l) => l.cluster),
        (codes) =>
          db('clusters').select('id', 'code').whereIn('code', codes).whereNull('deleted_at') as Promise<
            Array<{ id: string; code: string }>
          >,
      );

      const userIds = [...new Set(users.map((u) => u.id))];
      const memberships = new Map<string, KnownMembership>();
      // The memberships of these users in these business units, then in these clusters and the units' clusters.
      const clusterIds = [...new Set([...clusters.map((c) => c.id), ...businessUnits.map((b) => b.cluster_id)])];
      const targets = [
        { type: 'business_unit', table: 'bu_users', column: 'business_unit_id', ids: businessUnits.map((b) => b.id) },
        { type: 'cluster', table: 'cluster_users', column: 'cluster_id', ids: clusterIds },
      ] as const;
      for (const { type, table, column, ids: targetIds } of targets) {
        for (const ids of chunks(userIds)) {
          for (const part of chunks(targetIds)) {
            const rows = await db(table)
              .select<Array<KnownMembership & { user_id: string; target_id: string }>>(
                'id',
                'user_id',
                `${column} as target_id`,
                'role',
                'is_active',
              )
              .whereIn('user_id', ids)
              .whereIn(column, part);
            for (const m of rows)
              memberships.set(membershipKey(type, m.user_id, m.target_id), {
                id: m.id,
                role: m.role,
                is_active: m.is_active,
              });
          }
        }
      }

      return {
        users: byName,
        businessUnits: new Map(businessUnits.map((b) => [b.code, { ...b, members: toCount(b.members) }])),
        clusters: group(clusters, (c) => c.code),
        memberships,
      };
    },

    /** Writes the plan's changes (inserts in batches, updates grouped by what they set) and answers each stored row. */
    async write(trx: Knex.Transaction, writes: ImportWrite[], actorId: string): Promise<WrittenMembership[]> {
      const written: WrittenMembership[] = [];
      const table = (w: ImportWrite) => (w.target.type === 'business_unit' ? 'bu_users' : 'cluster_users');
      const targetColumn = (w: ImportWrite) => (w.target.type === 'business_unit' ? 'business_unit_id' : 'cluster_id');

      for (const [, adds] of group(
        writes.filter((w) => w.kind === 'add'),
        table,
      )) {
        for (const batch of chunks(adds)) {
          const rows = batch.map((w) => ({
            user_id: w.userId,
            [targetColumn(w)]: w.target.id,
            role: w.role,
            is_active: w.isActive,
            ...(w.target.type === 'business_unit' ? { is_default: false } : { parent_bu_id: null }),
            created_by_id: actorId,
            updated_by_id: actorId,
          }));
          const ids: Array<{ id: string }> = await trx(table(batch[0]!)).insert(rows).returning('id');
          batch.forEach((w, i) =>
            written.push({
              write: w,
              id: ids[i]!.id,
              fields: { user_id: w.userId, [targetColumn(w)]: w.target.id, role: w.role, is_active: w.isActive },
            }),
          );
        }
      }

      const updates = writes.filter((w): w is Extract<ImportWrite, { kind: 'update' }> => w.kind === 'update');
      for (const [, same] of group(updates, (w) => `${table(w)}:${w.role}:${w.isActive}`)) {
        const name = table(same[0]!);
        for (const batch of chunks(same)) {
          await trx(name)
            .whereIn(
              'id',
              batch.map((w) => w.member.id),
            )
            .update({
              role: batch[0]!.role,
              is_active: batch[0]!.isActive,
              updated_by_id: actorId,
              updated_at: nextUpdatedAt(trx, name),
            });
        }
        for (const w of same)
          written.push({
            write: w,
            id: w.member.id,
            fields: { user_id: w.userId, [targetColumn(w)]: w.target.id, role: w.role, is_active: w.isActive },
          });
      }
      return written;
    },
  };
}
