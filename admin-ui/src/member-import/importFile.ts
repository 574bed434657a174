import type {
  MembershipImportOutcome,
  MembershipImportReason,
  MembershipImportResult,
  MembershipImportRow,
} from '../types';
import { everyMember } from '../lib/exhaustive';
import { toCsv } from '../lib/csv';

/** Every outcome of a row, in the order the summary shows them; the compiler holds the list to the contract. */
export const IMPORT_OUTCOMES = everyMember<MembershipImportOutcome>()(['added', 'updated', 'unchanged', 'refused']);

/** Every reason a row is refused for; each has its own words in both languages. */
export const IMPORT_REASONS = everyMember<MembershipImportReason>()([
  'malformed_row',
  'unknown_user',
  'unknown_business_unit',
  'unknown_cluster',
  'ambiguous_cluster',
  'no_permission',
  'licence_cap_reached',
  'not_cluster_member',
  'duplicate_row',
]);

/** The columns of the file, as the server reads them (any order, any case). */
const IMPORT_COLUMNS = ['user', 'business_unit', 'cluster', 'role', 'active'] as const;

/** The server's limit on the file; checked here too, so a file that is far too big is not sent at all. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** Rows of the preview table per page: a plan of 10,000 rows renders one page at a time. */
export const PLAN_ROWS_PER_PAGE = 50;

type ExampleRow = Record<(typeof IMPORT_COLUMNS)[number], string>;

/**
 * Example rows naming the demo's codes: a role change, a row that keeps role and state (blank), and a user who joins
 * a cluster and then one of its business units (a unit takes its members from its cluster's users).
 */
const TEMPLATE_EXAMPLE: readonly ExampleRow[] = [
  { user: 'somchai@example.com', business_unit: 'A-PKT', cluster: '', role: 'admin', active: 'true' },
  { user: 'anan@example.com', business_unit: 'A-KBI', cluster: '', role: '', active: '' },
  { user: 'pim@example.com', business_unit: '', cluster: 'CL-B', role: 'user', active: 'true' },
  { user: 'pim@example.com', business_unit: 'B-SKV', cluster: '', role: 'user', active: 'true' },
];

/** The header and the example rows, for the "Download a template" link and the example on the screen. */
export function templateCsv(): string {
  return toCsv(
    TEMPLATE_EXAMPLE,
    IMPORT_COLUMNS.map((c) => ({ header: c, value: (r: ExampleRow) => r[c] })),
  );
}

/**
 * A spreadsheet runs a cell that starts with one of these as a formula; the file names users and codes someone else
 * typed, so such a cell is written as text (a leading apostrophe).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const asText = (v: string | null): string | null => (v !== null && FORMULA_START.test(v) ? `'${v}` : v);

/** The rows of an import with what happened to each, for "Download result (CSV)". */
export function resultCsv(result: MembershipImportResult): string {
  return toCsv<MembershipImportRow>(result.rows, [
    { header: 'line', value: (r) => r.line },
    { header: 'user', value: (r) => asText(r.user) },
    { header: 'business_unit', value: (r) => asText(r.business_unit) },
    { header: 'cluster', value: (r) => asText(r.cluster) },
    { header: 'role', value: (r) => r.role },
    { header: 'active', value: (r) => r.active },
    { header: 'outcome', value: (r) => r.outcome },
    { header: 'reason', value: (r) => r.reason },
    { header: 'detail', value: (r) => asText(r.detail) },
  ]);
}

/** The file name of the result: the import's id keeps two downloads of one day apart. */
export const resultFileName = (result: MembershipImportResult) => `member-import-${result.import_id}.csv`;

/** Rough count of the data rows (non-blank lines after the header), for "Checking N rows…"; 0 when unknown. */
export function countDataRows(text: string): number {
  let lines = 0;
  for (const line of text.split(/\r\n|\n|\r/)) if (line.trim() !== '') lines += 1;
  return Math.max(0, lines - 1);
}

/** The rows an import would change (or changed): the ones it adds or updates. */
export const changingRows = (result: MembershipImportResult) => result.summary.added + result.summary.updated;
