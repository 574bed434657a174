import type { components } from '../../../../openapi/generated/schema.js';
import { BadRequestError } from '../../core/errors.js';
import { componentSchema, contractSchemaCheck } from '../../http/spec.js';
import { BU_FORMAT_FIELDS, BU_TEXT_FIELDS, type BusinessUnitWrite } from './repository.js';

type BusinessUnitInput = components['schemas']['BusinessUnitInput'];
type ConfigEntry = components['schemas']['ConfigEntry'];
type NumberFormat = components['schemas']['NumberFormat'];

const DATATYPES = new Set<ConfigEntry['datatype']>(['string', 'number', 'boolean', 'date', 'json']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The object form of a number format, as the contract bounds it (options, their types and sizes). */
const isNumberFormatObject = contractSchemaCheck((componentSchema('NumberFormat').anyOf as object[])[0]!);

/**
 * A number format as jsonb text: an object is stored as JSON; a string whose JSON is a number-format object the
 * contract accepts is stored as that object; any other string is stored exactly as sent (as a JSON string).
 */
function formatToJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isPlainObject(parsed) && isNumberFormatObject(parsed)) return JSON.stringify(parsed);
    } catch {
      // not JSON: kept as the operator typed it
    }
    return JSON.stringify(value);
  }
  return JSON.stringify(value);
}

/** A stored number format as the contract shows it (object, string or null). */
export function formatFromJson(value: unknown): NumberFormat {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || isPlainObject(value)) return value;
  return JSON.stringify(value);
}

/** Config entries lacking a key or a label (absent or blank) are dropped; the rest get every field. */
export function cleanConfig(entries: unknown): ConfigEntry[] {
  if (!Array.isArray(entries)) return [];
  const out: ConfigEntry[] = [];
  for (const e of entries) {
    if (!isPlainObject(e) || !present(e.key) || !present(e.label)) continue;
    const datatype = DATATYPES.has(e.datatype as ConfigEntry['datatype'])
      ? (e.datatype as ConfigEntry['datatype'])
      : 'string';
    out.push({ key: e.key, label: e.label, datatype, value: e.value === undefined ? null : e.value });
  }
  return out;
}

/** Serialised caps of the free-form JSON fields, so no business unit makes every list that shows it heavy. */
export const MAX_CONFIG_BYTES = 32 * 1024;
export const MAX_FORMAT_BYTES = 2 * 1024;

function assertFits(field: string, json: string | null, max: number): void {
  const bytes = json === null ? 0 : Buffer.byteLength(json);
  if (bytes > max) {
    throw new BadRequestError(`${field} is ${bytes} bytes as JSON; at most ${max} bytes are stored`, [
      { path: `/body/${field}`, message: `must be at most ${max} bytes as JSON` },
    ]);
  }
}

/** The full form → columns. Absent optional fields become null (a PUT replaces the whole form). */
export function toWrite(input: BusinessUnitInput): BusinessUnitWrite {
  const text = Object.fromEntries(BU_TEXT_FIELDS.map((f) => [f, input[f] ?? null])) as Record<
    (typeof BU_TEXT_FIELDS)[number],
    string | null
  >;
  const formats = Object.fromEntries(BU_FORMAT_FIELDS.map((f) => [f, formatToJson(input[f])])) as Record<
    (typeof BU_FORMAT_FIELDS)[number],
    string | null
  >;
  for (const f of BU_FORMAT_FIELDS) assertFits(f, formats[f], MAX_FORMAT_BYTES);
  const config = JSON.stringify(cleanConfig(input.config));
  assertFits('config', config, MAX_CONFIG_BYTES);
  return {
    cluster_id: input.cluster_id,
    code: input.code.trim(),
    name: input.name.trim(),
    alias_name: input.alias_name ?? null,
    description: input.description ?? null,
    max_license_users: input.max_license_users ?? null,
    is_hq: input.is_hq ?? false,
    is_active: input.is_active ?? true,
    ...text,
    ...formats,
    calculation_method: input.calculation_method ?? null,
    default_currency_id: input.default_currency_id ?? null,
    config,
    db_connection: input.db_connection ?? null,
  };
}
