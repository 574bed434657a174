import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import type { FreshnessCheck } from '../../core/etag.js';
import type { AuthContext } from '../../core/permissions.js';
import type { ChangeFeed } from '../../db/changes.js';
import { DELETED, LIVE, pick, type AuditTrail } from '../audit/service.js';
import { parseListQuery, toPage, type Page } from '../../core/list-query.js';
import { DOCUMENT_TYPES, isDocumentType } from './document-types.js';
import { permission, type Candidate } from './permission.js';
import { resolveCache } from './resolve-cache.js';
import {
  MAPPING_DEFAULT_SORT,
  MAPPING_SORTABLE,
  mappingRepository,
  type MappingColumns,
  type MappingRecord,
} from './repository.js';

// The specified error messages, word for word: clients match on them.
const UNSUPPORTED_ON_CREATE = 'unsupported document_type — see GET /document-types';
const UNSUPPORTED_ON_UPDATE = 'unsupported document_type';
const NOT_FOUND = 'No such print template mapping (or it was deleted)';

/** Create and update share the merge rules below; update's fields are all optional. */
type MappingInput = Schemas['PrintTemplateMappingCreate'] | Schemas['PrintTemplateMappingUpdate'];

/** No permitted mapping; with explain it carries every candidate and why it lost. */
class NoPermittedMappingError extends NotFoundError {
  constructor(detail: string, candidates?: Candidate[]) {
    super(detail, candidates ? { candidates } : undefined);
    this.name = 'NoPermittedMappingError';
  }
}

/** Non-string elements are dropped silently, as specified; codes are trimmed and blanks dropped. */
function codeList(list: unknown[]): string[] {
  return list
    .filter((x): x is string => typeof x === 'string')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function blankToNull(label: string | null | undefined): string | null {
  return label === undefined || label === null || label.trim() === '' ? null : label;
}

function rankText(m: MappingRecord): string {
  return `${m.is_default ? 'default' : 'not default'}, display order ${m.display_order}`;
}

/** Create: the ten codes only (with the "see" hint), then the specified defaults (default, active, order 0). */
function createColumns(input: MappingInput): MappingColumns {
  const documentType = input.document_type ?? '';
  if (!isDocumentType(documentType))
    throw new BadRequestError(UNSUPPORTED_ON_CREATE, [{ path: '/body/document_type', message: UNSUPPORTED_ON_CREATE }]);
  return {
    document_type: documentType,
    report_template_id: input.report_template_id!,
    is_default: input.is_default ?? true,
    display_label: blankToNull(input.display_label),
    display_order: input.display_order ?? 0,
    allow_business_unit: input.allow_business_unit == null ? null : codeList(input.allow_business_unit),
    deny_business_unit: input.deny_business_unit == null ? null : codeList(input.deny_business_unit),
    is_active: input.is_active ?? true,
  };
}

/**
 * Update is a partial merge: null leaves a field unchanged, a blank document_type or
 * report_template_id is ignored, `[]` clears a list. Only what is left goes into the patch.
 */
function updatePatch(input: MappingInput): Partial<MappingColumns> {
  const patch: Partial<MappingColumns> = {};
  const documentType = input.document_type;
  if (typeof documentType === 'string' && documentType.trim() !== '') {
    if (!isDocumentType(documentType))
      throw new BadRequestError(UNSUPPORTED_ON_UPDATE, [
        { path: '/body/document_type', message: UNSUPPORTED_ON_UPDATE },
      ]);
    patch.document_type = documentType;
  }
  if (typeof input.report_template_id === 'string' && input.report_template_id.trim() !== '')
    patch.report_template_id = input.report_template_id.trim();
  if (typeof input.is_default === 'boolean') patch.is_default = input.is_default;
  if (typeof input.display_label === 'string') patch.display_label = blankToNull(input.display_label);
  if (typeof input.display_order === 'number') patch.display_order = input.display_order;
  if (Array.isArray(input.allow_business_unit)) patch.allow_business_unit = codeList(input.allow_business_unit);
  if (Array.isArray(input.deny_business_unit)) patch.deny_business_unit = codeList(input.deny_business_unit);
  if (typeof input.is_active === 'boolean') patch.is_active = input.is_active;
  return patch;
}

export function mappingService({ knex, audit, changes }: { knex: Knex; audit: AuditTrail; changes: ChangeFeed }) {
  const repo = mappingRepository({ knex });
  const resolved = resolveCache({ repo, changes });

  /**
   * Lock order for every write that can demote: the document types' locks first, then rows. A demotion updates other
   * rows of the type, so taking the type lock before any row lock keeps two concurrent saves from deadlocking.
   */
  async function demoteOthersIfDefault(
    trx: Knex.Transaction,
    saved: { id: string; document_type: string; is_default: boolean },
    actorId: string,
  ) {
    if (saved.is_default) await repo.demoteOtherDefaults(trx, saved.document_type, saved.id, actorId);
  }

  return {
    documentTypes() {
      return { document_types: DOCUMENT_TYPES.map((t) => ({ code: t.code, label: t.label })) };
    },

    async list(query: QueryParams<'listPrintTemplateMappings'>): Promise<Page<MappingRecord>> {
      const q = parseListQuery(query, { sortable: MAPPING_SORTABLE, defaultSort: MAPPING_DEFAULT_SORT });
      const { rows, total } = await repo.list({ documentType: query.document_type, activeOnly: query.active_only }, q);
      return toPage(rows, total, q);
    },

    async get(id: string): Promise<MappingRecord> {
      const found = await repo.findLive(id);
      if (!found) throw new NotFoundError(NOT_FOUND);
      return found;
    },

    /** Validate → lock the type when saving a default → insert → demote the other defaults. */
    async create(auth: AuthContext, input: MappingInput): Promise<MappingRecord> {
      const actorId = auth.userId;
      const columns = createColumns(input);
      const id = await knex.transaction(async (trx) => {
        if (columns.is_default) await repo.lockDocumentTypes(trx, [columns.document_type]);
        const newId = await repo.insert(trx, columns, actorId);
        await demoteOthersIfDefault(trx, { ...columns, id: newId }, actorId);
        await audit.record(trx, auth, {
          action: 'createPrintTemplateMapping',
          target: { type: 'print_template_mapping', id: newId },
          after: { ...columns },
        });
        return newId;
      });
      return (await repo.findLive(id))!;
    },

    /** Merge → lock (type, then row) → check If-Match on the locked row → save → demote the other defaults. */
    async update(
      auth: AuthContext,
      id: string,
      input: MappingInput,
      checkCurrent: FreshnessCheck,
    ): Promise<MappingRecord> {
      const actorId = auth.userId;
      const patch = updatePatch(input);
      await knex.transaction(async (trx) => {
        const before = await repo.findLive(id, trx);
        if (!before) throw new NotFoundError(NOT_FOUND);
        await repo.lockDocumentTypes(trx, [before.document_type, patch.document_type ?? before.document_type]);
        if (!(await repo.lockLive(trx, id))) throw new NotFoundError(NOT_FOUND);
        const current = (await repo.findLive(id, trx))!;
        checkCurrent(current);
        await repo.update(trx, id, patch, actorId);
        await demoteOthersIfDefault(trx, { ...current, ...patch }, actorId);
        await audit.record(trx, auth, {
          action: 'updatePrintTemplateMapping',
          target: { type: 'print_template_mapping', id },
          before: pick(current, Object.keys(patch)),
          after: { ...patch },
        });
      });
      return (await repo.findLive(id))!;
    },

    async remove(auth: AuthContext, id: string): Promise<void> {
      await knex.transaction(async (trx) => {
        if (!(await repo.softDelete(trx, id, auth.userId))) throw new NotFoundError(NOT_FOUND);
        await audit.record(trx, auth, {
          action: 'deletePrintTemplateMapping',
          target: { type: 'print_template_mapping', id },
          before: LIVE,
          after: DELETED,
        });
      });
    },

    /**
     * The active mapping of the type that permits the business unit and ranks first (defaults first, then by display
     * order), answered from memory (the resolve cache), or by one indexed statement while the cache cannot be trusted. With `explain`, which also shows inactive candidates, the statement answers, every live candidate of
     * the type is judged by the same rule and the winner of the statement is marked selected.
     */
    async resolve(
      documentTypeRaw: string | undefined,
      buCodeRaw: string | undefined,
      explain: boolean,
    ): Promise<MappingRecord & { explanation?: Candidate[] }> {
      const documentType = (documentTypeRaw ?? '').trim();
      if (documentType === '')
        throw new BadRequestError('document_type is required', [
          { path: '/query/document_type', message: 'must not be blank' },
        ]);
      const buCode = buCodeRaw !== undefined && buCodeRaw.trim() !== '' ? buCodeRaw.trim() : null;
      const winner = explain ? await repo.resolve(documentType, buCode) : await resolved.resolve(documentType, buCode);
      const notFound = `No active print template mapping of document type ${documentType} permits ${buCode === null ? 'a request without a business unit' : `business unit ${buCode}`}`;
      if (!explain) {
        if (!winner) throw new NoPermittedMappingError(notFound);
        return winner;
      }
      const explanation = (await repo.candidates(documentType)).map((m): Candidate => {
        const p = permission(m, buCode);
        const base = {
          id: m.id,
          report_template_id: m.report_template_id,
          template_name: m.template_name,
          display_label: m.display_label,
          is_default: m.is_default,
          display_order: m.display_order,
          is_active: m.is_active,
          unknown_business_unit_codes: m.unknown_business_unit_codes,
        };
        if (!p.ok) return { ...base, outcome: p.outcome, reason: p.reason };
        if (winner && m.id === winner.id)
          return { ...base, outcome: 'selected', reason: `Permitted, ${rankText(m)} — first in rank` };
        return {
          ...base,
          outcome: 'lower_rank',
          reason: `Permitted, but ranks below the selected mapping (${rankText(m)})`,
        };
      });
      if (!winner) throw new NoPermittedMappingError(notFound, explanation);
      return { ...winner, explanation };
    },
  };
}

export type MappingService = ReturnType<typeof mappingService>;
