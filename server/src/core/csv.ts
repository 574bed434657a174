import { stringify } from 'csv-stringify/sync';

/** A CSV value as the columns produce it; dates are ISO text by then (the columns format them). */
type CsvCell = string | number | null | undefined;

export interface CsvColumn<R> {
  header: string;
  value: (row: R) => CsvCell;
}

/** A list's export: the file's base name, its columns, and the matching rows a batch at a time. */
export interface CsvExport<R> {
  /** `clusters` → `clusters-YYYY-MM-DD.csv` */
  name: string;
  columns: readonly CsvColumn<R>[];
  batches: AsyncIterable<R[]>;
}

/**
 * The characters a spreadsheet reads as the start of a formula (tab and carriage return too: some strip them), at
 * the start of the cell or after a `,` or `;` (spaces between allowed): a spreadsheet whose list separator is `;`
 * splits `Hotel;=1+1;x` into three cells, the second a live formula, unless the cell is quoted.
 */
const FORMULA_TRIGGER = /(?:^|[,;] *)[=+\-@\t\r]/;

/**
 * A text cell that a spreadsheet would evaluate (`=HYPERLINK(…)`, `+1+1`, `@SUM(…)`, or `…;=1+1` where `;` separates
 * cells) is written quoted AND prefixed with a single quote, as OWASP advises for CSV injection: the quotes keep the
 * cell whole whatever the separator, the single quote makes it text. Numbers never pass through here (a negative
 * number is a number).
 */
export function guardFormula(text: string): string | { value: string; quoted: true } {
  return FORMULA_TRIGGER.test(text) ? { value: `'${text}`, quoted: true } : text;
}

/** Booleans and dates are formatted by the columns; only text is guarded. */
const OPTIONS = { record_delimiter: 'windows', cast: { string: guardFormula } } as const;

/** The byte order mark first: spreadsheets use it to read the file as UTF-8 (Thai names stay Thai). */
export const CSV_BOM = '\uFEFF';

/** The header line, CRLF-terminated. */
export function csvHeader(columns: readonly CsvColumn<never>[]): string {
  return stringify([columns.map((c) => c.header)], OPTIONS);
}

/** The rows as CSV lines (CRLF), one per row, the columns in order. */
export function csvLines<R>(rows: readonly R[], columns: readonly CsvColumn<R>[]): string {
  return stringify(
    rows.map((row) => columns.map((c) => c.value(row) ?? null)),
    OPTIONS,
  );
}

/** `clusters` → `clusters-2026-11-24.csv` (the date in UTC). */
export function csvFileName(base: string, today: Date): string {
  return `${base}-${today.toISOString().slice(0, 10)}.csv`;
}

/** The Active/Inactive status of every export. */
export const statusText = (active: boolean): string => (active ? 'Active' : 'Inactive');
export const yesNo = (value: boolean): string => (value ? 'Yes' : 'No');
