import type { QueryParams } from '../../core/contract.js';
import { statusText, yesNo, type CsvColumn, type CsvExport } from '../../core/csv.js';
import type { MappingRecord } from './repository.js';
import type { MappingService } from './service.js';

type ExportQuery = QueryParams<'exportPrintTemplateMappings'>;

/** Rows per read: mappings number in the hundreds at most, so a few pages carry every one. */
const BATCH = 100;

const codes = (list: readonly string[] | null) => (list ?? []).join(' ');

/** The export's columns: the list's, in its order, with the codes that name no live business unit. */
const CSV_COLUMNS: CsvColumn<MappingRecord>[] = [
  { header: 'Document Type', value: (r) => r.document_type },
  { header: 'Template', value: (r) => r.template_name },
  { header: 'Menu Label', value: (r) => r.display_label },
  { header: 'Default', value: (r) => yesNo(r.is_default) },
  { header: 'Display Order', value: (r) => r.display_order },
  { header: 'Allowed Business Units', value: (r) => codes(r.allow_business_unit) },
  { header: 'Denied Business Units', value: (r) => codes(r.deny_business_unit) },
  { header: 'Status', value: (r) => statusText(r.is_active) },
  { header: 'Unknown Business Unit Codes', value: (r) => codes(r.unknown_business_unit_codes) },
  { header: 'Created', value: (r) => r.created_at },
];

/**
 * The matching mappings through the list's own use case, so the file has the list's filters, search, sort and
 * joined names: one page when the caller named one, else page after page until the last.
 */
async function* batches(mappings: MappingService, query: ExportQuery): AsyncGenerator<MappingRecord[]> {
  if (query.perpage !== -1) {
    yield (await mappings.list(query)).data;
    return;
  }
  for (let page = 1; ; page += 1) {
    const { data, paginate } = await mappings.list({ ...query, page, perpage: BATCH });
    if (data.length > 0) yield data;
    if (page >= paginate.pages) return;
  }
}

/** The mapping list as CSV; reading it needs only sign-in, as the list does. */
export function mappingExport(mappings: MappingService, query: ExportQuery): CsvExport<MappingRecord> {
  return { name: 'print-template-mappings', columns: CSV_COLUMNS, batches: batches(mappings, query) };
}
