import type { AuditedRecord, Loose, PrintTemplateMapping } from '../types';
import { formatDate, formatDateTime, auditOf } from './audit';

interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

function escapeCell(v: string | number | boolean | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV built in the browser, for files the server does not produce (the print template mappings, the member import's template and result). */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => escapeCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => escapeCell(c.value(row))).join(','));
  return lines.join('\r\n') + '\r\n';
}

const status = (r: { is_active?: boolean | null }) => (r.is_active ? 'Active' : 'Inactive');
const created = (r: AuditedRecord) => formatDateTime(auditOf(r).created.at);

/** Saves text as a file, with a BOM so that spreadsheets read it as UTF-8. */
export function downloadText(filename: string, content: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(filename, new Blob(['\uFEFF', content], { type }));
}

/** Saves a file through a temporary object URL. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

type MappingCsvRow = AuditedRecord &
  Loose<
    Pick<
      PrintTemplateMapping,
      | 'document_type'
      | 'template_name'
      | 'display_label'
      | 'is_default'
      | 'display_order'
      | 'allow_business_unit'
      | 'deny_business_unit'
      | 'is_active'
      | 'unknown_business_unit_codes'
    >
  >;

const codes = (list: readonly (string | null | undefined)[] | null | undefined) =>
  (list ?? []).filter(Boolean).join(' ');

const MAPPING_CSV_COLUMNS: CsvColumn<MappingCsvRow>[] = [
  { header: 'Document Type', value: (r) => r.document_type },
  { header: 'Template', value: (r) => r.template_name },
  { header: 'Menu Label', value: (r) => r.display_label },
  { header: 'Default', value: (r) => (r.is_default ? 'Yes' : 'No') },
  { header: 'Display Order', value: (r) => r.display_order },
  { header: 'Allowed Business Units', value: (r) => codes(r.allow_business_unit) },
  { header: 'Denied Business Units', value: (r) => codes(r.deny_business_unit) },
  { header: 'Status', value: status },
  { header: 'Unknown Business Unit Codes', value: (r) => codes(r.unknown_business_unit_codes) },
  { header: 'Created', value: created },
];

/** The loaded page of print template mappings, one line per mapping, list columns joined by spaces. */
export function mappingCsv(rows: readonly MappingCsvRow[], today: Date = new Date()) {
  return { filename: `print-template-mappings-${formatDate(today)}.csv`, content: toCsv(rows, MAPPING_CSV_COLUMNS) };
}
