import { CsvError, parse } from 'csv-parse/sync';
import { BadRequestError } from '../../../core/errors.js';

/** The most data rows one import takes: bigger onboardings are split into files, each one its own transaction. */
const MAX_IMPORT_ROWS = 10_000;
/** A cell longer than this is no code, name or email of the product's. */
const MAX_CELL = 1000;

/** One data row of the file, as written: the cells it names, by column. */
export interface ImportLine {
  /** Where the row starts in the file (the header is line 1). */
  line: number;
  user: string;
  businessUnit: string | null;
  cluster: string | null;
  role: string | null;
  active: string | null;
  /** Why the row cannot be read (the wrong number of fields, an over-long cell); such a row is refused. */
  unreadable?: string;
}

type Column = 'user' | 'businessUnit' | 'cluster' | 'role' | 'active';

/** Header names (lower case; spaces and hyphens read as underscores) and the column each names. */
const COLUMN_NAMES: Record<string, Column> = {
  user: 'user',
  username: 'user',
  email: 'user',
  login: 'user',
  business_unit: 'businessUnit',
  business_unit_code: 'businessUnit',
  bu: 'businessUnit',
  bu_code: 'businessUnit',
  cluster: 'cluster',
  cluster_code: 'cluster',
  role: 'role',
  active: 'active',
  is_active: 'active',
};

const EXPECTED_HEADER =
  'user, business_unit and/or cluster, role, active (for example "user,business_unit,role,active")';

const fail = (detail: string) => new BadRequestError(detail, [{ path: '/body/file', message: detail }]);

const headerMissing = (found: string) =>
  fail(`Line 1 must be the header naming the columns ${EXPECTED_HEADER}; it reads "${found.slice(0, 200)}".`);

/** The 1-based line of a byte offset. */
function lineAt(buffer: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buffer[i] === 0x0a) line++;
  return line;
}

/** The file as text: UTF-8 (a byte-order mark is dropped); anything else is refused naming the first bad line. */
function decode(buffer: Buffer): string {
  const nul = buffer.indexOf(0);
  if (nul !== -1) {
    throw fail(
      `The file is not a CSV text file: line ${lineAt(buffer, nul)} holds binary data. Upload a .csv file saved as "CSV UTF-8".`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer);
  } catch {
    let start = 0;
    for (let line = 1; start <= buffer.length; line++) {
      const end = buffer.indexOf(0x0a, start);
      const slice = buffer.subarray(start, end === -1 ? buffer.length : end);
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(slice);
      } catch {
        throw fail(
          `Line ${line} is not UTF-8 text. Save the file as "CSV UTF-8" (Excel: File › Save As › CSV UTF-8) and upload it again.`,
        );
      }
      if (end === -1) break;
      start = end + 1;
    }
    throw fail('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.');
  }
}

/** The separator the header uses: a semicolon (as spreadsheets write CSV in many locales) or a comma. */
function separatorOf(header: string): ',' | ';' {
  return header.includes(';') && !header.includes(',') ? ';' : ',';
}

/** Which cell of a row holds each column, from line 1; a header that names no user or no target is no header. */
function columnsOf(header: string[]): Map<Column, number> {
  const columns = new Map<Column, number>();
  const names = new Map<Column, string>();
  header.forEach((raw, index) => {
    const name = raw
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const column = COLUMN_NAMES[name];
    if (!column) return;
    if (columns.has(column))
      throw fail(`Line 1 names the same column twice ("${names.get(column)}" and "${raw.trim()}"): keep one of them.`);
    columns.set(column, index);
    names.set(column, raw.trim());
  });
  if (!columns.has('user') || (!columns.has('businessUnit') && !columns.has('cluster')))
    throw headerMissing(header.join(', '));
  return columns;
}

function parseRows(text: string, delimiter: string): Array<{ record: string[]; line: number }> {
  const rows: Array<{ record: string[]; line: number }> = [];
  const lastLine = () => rows.at(-1)?.line ?? 0;
  try {
    parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      on_record: (record: string[], { lines }) => {
        // The parser counts the line a record ends on; a quoted cell may span lines.
        const spanned = record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
        rows.push({ record, line: lines - spanned });
        return null;
      },
    });
    return rows;
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
      throw fail(
        `A quoted field is never closed: a " opens a field after line ${lastLine()} that does not end before the end of the file.`,
      );
    }
    const line = (err as CsvError & { lines?: number }).lines ?? lastLine() + 1;
    if (line <= 1) throw headerMissing(text.slice(0, text.search(/\r?\n|$/)));
    throw fail(
      `Line ${line} is not valid CSV: ${err.message.replace(/^[^:]*:\s*/, '')}. Quote a field that holds the separator, and double a " inside one.`,
    );
  }
}

/**
 * Reads an uploaded membership file into its rows, or refuses the file as a whole (400 naming the problem and its
 * line) when it cannot be read as CSV: empty, binary, not UTF-8, no header, an unclosed quote, too many rows.
 */
export function readImportFile(buffer: Buffer): ImportLine[] {
  const text = decode(buffer);
  if (text.trim() === '')
    throw fail(
      `The file is empty. Line 1 must be the header naming the columns ${EXPECTED_HEADER}, and each line after it one membership.`,
    );
  const delimiter = separatorOf(text.slice(0, text.search(/\r?\n|$/)));
  const [header, ...rows] = parseRows(text, delimiter);
  const columns = columnsOf(header!.record);
  const data = rows.filter(({ record }) => record.some((cell) => cell !== ''));
  if (data.length === 0) throw fail('The file has a header but no rows: add one membership per line after line 1.');
  if (data.length > MAX_IMPORT_ROWS) {
    throw fail(
      `The file has ${data.length.toLocaleString('en')} rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')} (line ${data[MAX_IMPORT_ROWS]!.line} is row ${(MAX_IMPORT_ROWS + 1).toLocaleString('en')}). Split it into files of at most ${MAX_IMPORT_ROWS.toLocaleString('en')} rows.`,
    );
  }
  const width = header!.record.length;
  return data.map(({ record, line }) => {
    const cell = (column: Column): string | null => {
      const index = columns.get(column);
      const value = index === undefined ? '' : (record[index] ?? '');
      return value === '' ? null : value.slice(0, MAX_CELL);
    };
    const row: ImportLine = {
      line,
      user: cell('user') ?? '',
      businessUnit: cell('businessUnit'),
      cluster: cell('cluster'),
      role: cell('role'),
      active: cell('active'),
    };
    if (record.length !== width)
      row.unreadable = `Line ${line} has ${record.length} fields; the header has ${width}. Quote a field that holds the separator.`;
    else if (record.some((value) => value.length > MAX_CELL))
      row.unreadable = `Line ${line} has a field longer than ${MAX_CELL} characters.`;
    return row;
  });
}
