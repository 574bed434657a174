import type { AuditedRecord, BusinessUnit, Cluster, Loose, PrintTemplateMapping } from '../types';
import { formatDate, formatDateTime, auditOf } from './audit';

interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

function escapeCell(v: string | number | boolean | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => escapeCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => escapeCell(c.value(row))).join(','));
  return lines.join('\r\n') + '\r\n';
}

const status = (r: { is_active?: boolean | null }) => (r.is_active ? 'Active' : 'Inactive');
const created = (r: AuditedRecord) => formatDateTime(auditOf(r).created.at);

type ClusterCsvRow = AuditedRecord &
  Loose<Pick<Cluster, 'code' | 'name' | 'alias_name' | 'is_active' | 'max_license_bu' | 'users_count' | 'total_max_license_users'>>;

type BusinessUnitCsvRow = AuditedRecord &
  Loose<Pick<BusinessUnit, 'code' | 'name' | 'alias_name' | 'cluster_name' | 'is_active' | 'max_license_users'>>;

const CLUSTER_CSV_COLUMNS: CsvColumn<ClusterCsvRow>[] = [
  { header: 'Code', value: (r) => r.code },
  { header: 'Name', value: (r) => r.name },
  { header: 'Alias', value: (r) => r.alias_name },
  { header: 'Status', value: status },
  { header: 'Max Licensed BUs', value: (r) => r.max_license_bu },
  { header: 'Users', value: (r) => r.users_count },
  { header: 'Max Licensed Users', value: (r) => r.total_max_license_users },
  { header: 'Created', value: created },
];

const BUSINESS_UNIT_CSV_COLUMNS: CsvColumn<BusinessUnitCsvRow>[] = [
  { header: 'Code', value: (r) => r.code },
  { header: 'Name', value: (r) => r.name },
  { header: 'Alias Name', value: (r) => r.alias_name },
  { header: 'Cluster', value: (r) => r.cluster_name },
  { header: 'Status', value: status },
  { header: 'Max Licensed Users', value: (r) => r.max_license_users },
  { header: 'Created', value: created },
];

export function clusterCsv(rows: readonly ClusterCsvRow[], today: Date = new Date()) {
  return { filename: `clusters-${formatDate(today)}.csv`, content: toCsv(rows, CLUSTER_CSV_COLUMNS) };
}

export function businessUnitCsv(rows: readonly BusinessUnitCsvRow[], today: Date = new Date()) {
  return { filename: `business-units-${formatDate(today)}.csv`, content: toCsv(rows, BUSINESS_UNIT_CSV_COLUMNS) };
}

/** Saves text as a file through a temporary object URL. */
export function downloadText(filename: string, content: string, type = 'text/csv;charset=utf-8'): void {
  const blob = new Blob(['\uFEFF', content], { type });
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

const codes = (list: readonly (string | null | undefined)[] | null | undefined) => (list ?? []).filter(Boolean).join(' ');

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
