import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../../core/contract.js';
import { BadRequestError } from '../../../core/errors.js';
import type { UploadedFile } from '../../../core/image-check.js';
import { can, canSeeCluster, type AuthContext } from '../../../core/permissions.js';
import type { AuditTrail, Change } from '../../audit/service.js';
import { readImportFile, type ImportLine } from './file.js';
import { planImport, summarize, type ImportAccess, type ImportWrite, type PlannedRow } from './plan.js';
import { membershipImportRepository, type WrittenMembership } from './repository.js';

type ImportResult = Schemas['MembershipImportResult'];
type ImportOptions = QueryParams<'importMemberships'>;

/** What the caller may do, cluster by cluster: see it (any grant on it) and change its members (`cluster.update`). */
function accessOf(auth: AuthContext): ImportAccess {
  return {
    canSee: (clusterId) => canSeeCluster(auth.permissions, clusterId),
    canChange: (clusterId) => can(auth.permissions, 'cluster.update', clusterId),
  };
}

/** One audit event per change, as the single-row operation records it, carrying the import's id. */
function auditChange(written: WrittenMembership, importId: string): Change {
  const { write } = written;
  const onBusinessUnit = write.target.type === 'business_unit';
  const target = { type: onBusinessUnit ? ('business_unit_user' as const) : ('cluster_user' as const), id: written.id };
  if (write.kind === 'add') {
    return {
      action: onBusinessUnit ? 'addBusinessUnitUser' : 'addClusterUser',
      target,
      clusterId: write.target.clusterId,
      after: written.fields,
      importId,
    };
  }
  return {
    action: onBusinessUnit ? 'updateBusinessUnitUser' : 'updateClusterUser',
    target,
    clusterId: write.target.clusterId,
    before: { role: write.member.role, is_active: write.member.is_active },
    after: { role: write.role, is_active: write.isActive },
    importId,
  };
}

/**
 * Membership import: a CSV file of memberships becomes a plan, row by row; a dry run answers it, an apply makes it
 * again under the licence-cap locks and writes it in one transaction, all or nothing unless asked for the valid rows.
 */
export function membershipImportService({ knex, audit }: { knex: Knex; audit: AuditTrail }) {
  const repo = membershipImportRepository();

  async function planOf(db: Knex | Knex.Transaction, auth: AuthContext, lines: ImportLine[]): Promise<PlannedRow[]> {
    return planImport(lines, await repo.directory(db, lines), accessOf(auth));
  }

  const resultOf = (
    importId: string,
    options: Required<ImportOptions>,
    planned: PlannedRow[],
    applied: boolean,
  ): ImportResult => {
    const rows = planned.map((p) => p.row);
    return {
      import_id: importId,
      dry_run: options.dry_run,
      mode: options.mode,
      applied,
      summary: summarize(rows),
      rows,
    };
  };

  return {
    async importMemberships(
      auth: AuthContext,
      file: UploadedFile | undefined,
      asked: ImportOptions,
    ): Promise<ImportResult> {
      const options = {
        dry_run: asked.dry_run ?? false,
        mode: asked.mode ?? 'all_or_nothing',
      } as const satisfies Required<ImportOptions>;
      if (!file)
        throw new BadRequestError('Attach the CSV file in the form field "file"', [
          { path: '/body/file', message: 'required' },
        ]);
      const lines = readImportFile(file.buffer);
      const importId = randomUUID();
      if (options.dry_run) return resultOf(importId, options, await planOf(knex, auth, lines), false);

      return knex.transaction(async (trx) => {
        await repo.lockTargets(trx, lines);
        const planned = await planOf(trx, auth, lines);
        const refused = planned.some((p) => p.row.outcome === 'refused');
        if (refused && options.mode === 'all_or_nothing') return resultOf(importId, options, planned, false);
        const writes = planned.map((p) => p.write).filter((w): w is ImportWrite => w !== undefined);
        const written = new Map((await repo.write(trx, writes, auth.userId)).map((w) => [w.write, w]));
        // The trail reads in the file's order.
        await audit.recordAll(
          trx,
          auth,
          writes.map((w) => auditChange(written.get(w)!, importId)),
        );
        return resultOf(importId, options, planned, true);
      });
    },
  };
}

export type MembershipImportService = ReturnType<typeof membershipImportService>;
