import type { Knex } from 'knex';
import type { components } from '../../../../openapi/generated/schema.js';
import { countFrom } from '../../db/count.js';
import { displayNameSql } from '../../db/sql.js';
import { applyListQuery, likeContains } from '../../db/sql.js';
import { type ListQuery } from '../../core/list-query.js';

/** A mapping as the API shows it: the stored row plus the joined, read-only names. */
export type MappingRecord = Omit<components['schemas']['PrintTemplateMapping'], 'explanation'>;

/** The writable columns. Lists are stored as JSON arrays of strings. */
export interface MappingColumns {
  document_type: string;
  report_template_id: string;
  is_default: boolean;
  display_label: string | null;
  display_order: number;
  allow_business_unit: string[] | null;
  deny_business_unit: string[] | null;
  is_active: boolean;
}

export interface MappingFilters {
  documentType?: string;
  activeOnly?: boolean;
}

export const MAPPING_SORTABLE: Record<string, string> = {
  document_type: 'm.document_type',
  display_order: 'm.display_order',
  display_label: 'm.display_label',
  is_default: 'm.is_default',
  is_active: 'm.is_active',
  created_at: 'm.created_at',
  updated_at: 'm.updated_at',
};
export const MAPPING_DEFAULT_SORT = 'document_type:asc,is_default:desc,display_order:asc';

/** The rank resolve uses; the partial index print_template_mappings_resolve_idx serves its first two keys. */
const RANK = 'm.is_default desc, m.display_order asc, m.created_at asc, m.id asc';

/** The driver answers a timestamp as a Date, or as its text. */
const timestampText = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const toIso = (v: unknown): string | null => (v === null || v === undefined ? null : timestampText(v));

function codeList(v: unknown): string[] | null {
  if (v === null || v === undefined) return null;
  const parsed = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : null;
}

function toRecord(row: Record<string, unknown>): MappingRecord {
  return {
    id: row.id as string,
    document_type: row.document_type as MappingRecord['document_type'],
    report_template_id: row.report_template_id as string,
    is_default: !!row.is_default,
    display_label: (row.display_label as string | null) ?? null,
    display_order: Number(row.display_order),
    allow_business_unit: codeList(row.allow_business_unit),
    deny_business_unit: codeList(row.deny_business_unit),
    is_active: !!row.is_active,
    created_at: toIso(row.created_at)!,
    updated_at: toIso(row.updated_at)!,
    created_by_id: (row.created_by_id as string | null) ?? null,
    updated_by_id: (row.updated_by_id as string | null) ?? null,
    deleted_by_id: (row.deleted_by_id as string | null) ?? null,
    deleted_at: toIso(row.deleted_at),
    template_name: (row.template_name as string | null) ?? null,
    template_group: (row.template_group as string | null) ?? null,
    created_by_name: (row.created_by_name as string | null) ?? null,
    updated_by_name: (row.updated_by_name as string | null) ?? null,
    unknown_business_unit_codes: codeList(row.unknown_business_unit_codes) ?? [],
  };
}

/** The codes of a mapping's allow and deny lists that name no live business unit (sorted, each once). */
const UNKNOWN_CODES_SQL = `coalesce((
  select jsonb_agg(distinct c order by c)
  from jsonb_array_elements_text(coalesce(m.allow_business_unit, '[]'::jsonb) || coalesce(m.deny_business_unit, '[]'::jsonb)) as c
  where not exists (select 1 from business_units b where lower(b.code) = lower(c) and b.deleted_at is null)
), '[]'::jsonb) as unknown_business_unit_codes`;

function toColumns(c: Partial<MappingColumns>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c };
  // jsonb: hand over JSON text, never a JS array (pg would send it as a PostgreSQL array literal).
  if ('allow_business_unit' in c)
    out.allow_business_unit = c.allow_business_unit === null ? null : JSON.stringify(c.allow_business_unit);
  if ('deny_business_unit' in c)
    out.deny_business_unit = c.deny_business_unit === null ? null : JSON.stringify(c.deny_business_unit);
  return out;
}

/** Live templates only: a soft-deleted template leaves template_name/template_group null. */
function joinTemplate(this: Knex.JoinClause): void {
  this.on('rt.id', '=', 'm.report_template_id').andOnNull('rt.deleted_at');
}

function selectMappings(db: Knex) {
  return db('print_template_mappings as m')
    .leftJoin('report_templates as rt', joinTemplate)
    .leftJoin('users as cu', 'cu.id', 'm.created_by_id')
    .leftJoin('users as uu', 'uu.id', 'm.updated_by_id')
    .select<Array<Record<string, unknown>>>(
      'm.*',
      'rt.name as template_name',
      'rt.report_group as template_group',
      db.raw(`${displayNameSql('cu')} as created_by_name`),
      db.raw(`${displayNameSql('uu')} as updated_by_name`),
      db.raw(UNKNOWN_CODES_SQL),
    )
    .whereNull('m.deleted_at');
}

function applyFilters<B extends Knex.QueryBuilder>(b: B, f: MappingFilters, search: string | undefined): B {
  if (f.documentType !== undefined) b.where('m.document_type', f.documentType);
  if (f.activeOnly) b.where('m.is_active', true);
  if (search) {
    const like = likeContains(search);
    b.where((w) => {
      w.where('m.display_label', 'ilike', like)
        .orWhere('rt.name', 'ilike', like)
        .orWhere('m.document_type', 'ilike', like);
    });
  }
  return b;
}

export function mappingRepository({ knex }: { knex: Knex }) {
  return {
    async list(filters: MappingFilters, q: ListQuery): Promise<{ rows: MappingRecord[]; total: number }> {
      const countQuery = applyFilters(
        knex('print_template_mappings as m').leftJoin('report_templates as rt', joinTemplate).whereNull('m.deleted_at'),
        filters,
        q.search,
      ).count<Array<Record<string, unknown>>>({ count: '*' });
      const pageQuery = applyListQuery(applyFilters(selectMappings(knex), filters, q.search), q, 'm.id');
      const [counted, rows] = await Promise.all([countQuery, pageQuery]);
      return {
        rows: rows.map(toRecord),
        total: countFrom(counted),
      };
    },

    async findLive(id: string, db: Knex = knex): Promise<MappingRecord | undefined> {
      const row = await selectMappings(db).where('m.id', id).first<Record<string, unknown> | undefined>();
      return row ? toRecord(row) : undefined;
    },

    /** Locks the live row for the rest of the transaction (a concurrent update waits). */
    async lockLive(trx: Knex.Transaction, id: string): Promise<boolean> {
      const row = await trx('print_template_mappings')
        .select('id')
        .where({ id })
        .whereNull('deleted_at')
        .forUpdate()
        .first<{ id: string } | undefined>();
      return !!row;
    },

    /**
     * Serialises saves per document type until the transaction ends, so two concurrent saves never leave two defaults.
     * Types are locked in sorted order (no lock-order deadlock between two types).
     */
    async lockDocumentTypes(trx: Knex.Transaction, documentTypes: string[]): Promise<void> {
      for (const type of [...new Set(documentTypes)].sort()) {
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`print_template_mappings:${type}`]);
      }
    },

    async insert(trx: Knex.Transaction, columns: MappingColumns, actorId: string): Promise<string> {
      const [row] = await trx('print_template_mappings')
        .insert({ ...toColumns(columns), created_by_id: actorId, updated_by_id: actorId })
        .returning<Array<{ id: string }>>('id');
      return (row as { id: string }).id;
    },

    async update(trx: Knex.Transaction, id: string, columns: Partial<MappingColumns>, actorId: string): Promise<void> {
      await trx('print_template_mappings')
        .update({ ...toColumns(columns), updated_by_id: actorId, updated_at: trx.fn.now() })
        .where({ id })
        .whereNull('deleted_at');
    },

    /** Every other live default of the type stops being the default. */
    async demoteOtherDefaults(
      trx: Knex.Transaction,
      documentType: string,
      keepId: string,
      actorId: string,
    ): Promise<number> {
      return trx('print_template_mappings')
        .update({ is_default: false, updated_by_id: actorId, updated_at: trx.fn.now() })
        .where({ document_type: documentType, is_default: true })
        .whereNull('deleted_at')
        .whereNot({ id: keepId });
    },

    async softDelete(db: Knex | Knex.Transaction, id: string, actorId: string): Promise<boolean> {
      const n = await db('print_template_mappings')
        .update({ deleted_at: db.fn.now(), deleted_by_id: actorId })
        .where({ id })
        .whereNull('deleted_at');
      return n > 0;
    },

    /**
     * The mapping that prints `documentType` for `buCode`, in ONE statement on the resolve index: live, active rows of
     * the type whose deny list lacks the BU and whose allow list is empty or holds it, in any case (without a BU only
     * rows with no allow list qualify), best rank first.
     */
    resolveQuery(documentType: string, buCode: string | null): Knex.QueryBuilder {
      const b = selectMappings(knex).where('m.document_type', documentType).where('m.is_active', true);
      if (buCode === null) {
        b.whereRaw("(m.allow_business_unit is null or m.allow_business_unit = '[]'::jsonb)");
      } else {
        // Business-unit codes compare regardless of case, as operators type them.
        b.whereRaw(
          "not exists (select 1 from jsonb_array_elements_text(coalesce(m.deny_business_unit, '[]'::jsonb)) d where lower(d) = lower(?))",
          [buCode],
        );
        b.whereRaw(
          "(m.allow_business_unit is null or m.allow_business_unit = '[]'::jsonb or exists (select 1 from jsonb_array_elements_text(m.allow_business_unit) a where lower(a) = lower(?)))",
          [buCode],
        );
      }
      return b.orderByRaw(RANK).limit(1);
    },

    async resolve(documentType: string, buCode: string | null): Promise<MappingRecord | undefined> {
      const [row] = (await this.resolveQuery(documentType, buCode)) as Array<Record<string, unknown>>;
      return row ? toRecord(row) : undefined;
    },

    /**
     * Every live mapping of the type in resolve's rank order: active or not (for explain), or only the active ones
     * (what the resolve cache keeps for the type).
     */
    async candidates(documentType: string, { activeOnly = false } = {}): Promise<MappingRecord[]> {
      const rows = await applyFilters(selectMappings(knex), { documentType, activeOnly }, undefined).orderByRaw(RANK);
      return rows.map(toRecord);
    },
  };
}

export type MappingRepository = ReturnType<typeof mappingRepository>;
