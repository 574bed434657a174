import type { BusinessUnit, BusinessUnitInput } from '../../types';
import { NUMBER_FORMAT_FIELDS, jsonFormatToText, parseJsonFormat } from '../../lib/jsonFormat';
import { configForEditor, configForSave } from '../../lib/configEntries';
import { everyMember } from '../../lib/exhaustive';
import { WRITABLE } from '../../dataProvider/writable';

export const CALCULATION_METHODS = everyMember<NonNullable<BusinessUnitInput['calculation_method']>>()([
  'average',
  'fifo',
]);

/** The nine always-open sections and their fields (wire names), in screen order: 34 fields in all. */
export const BU_SECTIONS = {
  general: ['cluster_id', 'code', 'name', 'alias_name', 'description', 'max_license_users', 'is_hq', 'is_active'],
  hotel: ['hotel_name', 'hotel_tel', 'hotel_email', 'hotel_address', 'hotel_zip_code'],
  company: ['company_name', 'company_tel', 'company_email', 'company_address', 'company_zip_code'],
  tax: ['tax_no', 'branch_no'],
  datetime: ['date_format', 'date_time_format', 'time_format', 'long_time_format', 'short_time_format', 'timezone'],
  number_formats: [...NUMBER_FORMAT_FIELDS],
  calculation: ['calculation_method', 'default_currency_id'],
  config: ['config'],
  db_connection: ['db_connection'],
} as const satisfies Record<string, readonly (keyof BusinessUnitInput)[]>;

type PlacedField = (typeof BU_SECTIONS)[keyof typeof BU_SECTIONS][number];
// Every field the console sends has a place on the form: one missing from the sections fails to compile.
const _everyWritableFieldPlaced: readonly PlacedField[] = WRITABLE.BusinessUnitInput;

/** Nullable fields where an empty input means "not set". */
const NULL_WHEN_BLANK = [
  'alias_name',
  'description',
  'max_license_users',
  ...BU_SECTIONS.hotel,
  ...BU_SECTIONS.company,
  ...BU_SECTIONS.tax,
  ...BU_SECTIONS.datetime,
  'calculation_method',
  'default_currency_id',
] as const satisfies readonly (keyof BusinessUnitInput)[];

type Values = Record<string, unknown>;

/** Record → form values: number formats as JSON text (the default number formats when empty), config values as text. */
export function toFormValues<R extends Partial<BusinessUnit>>(record: R) {
  return {
    ...record,
    perpage_format: jsonFormatToText(record.perpage_format, 'perpage_format'),
    amount_format: jsonFormatToText(record.amount_format, 'amount_format'),
    quantity_format: jsonFormatToText(record.quantity_format, 'quantity_format'),
    recipe_format: jsonFormatToText(record.recipe_format, 'recipe_format'),
    config: configForEditor(record.config),
  };
}

/** Defaults of a new BU; `cluster_id` comes from the `?cluster_id=` query when given. */
export function newBusinessUnitValues(clusterId?: string | null) {
  return toFormValues({
    cluster_id: clusterId ?? '',
    is_active: true,
    is_hq: false,
    max_license_users: null,
    calculation_method: 'average',
    config: [],
  });
}

/**
 * Form values → request body: number formats parsed (the raw string when parsing fails), config
 * entries lacking key or label dropped, db_connection sent back exactly as received.
 */
export function fromFormValues(values: Values, original?: Pick<Partial<BusinessUnit>, 'db_connection'> | null): Values {
  const out: Values = { ...values };
  for (const f of NUMBER_FORMAT_FIELDS) {
    const v = values[f];
    out[f] = typeof v === 'string' ? (v.trim() === '' ? null : parseJsonFormat(v)) : (v ?? null);
  }
  for (const f of NULL_WHEN_BLANK) if (out[f] === '' || out[f] === undefined) out[f] = null;
  out.config = configForSave(Array.isArray(values.config) ? values.config : null);
  out.db_connection = original ? (original.db_connection ?? null) : null;
  out.is_hq = Boolean(values.is_hq);
  out.is_active = values.is_active === undefined ? true : Boolean(values.is_active);
  return out;
}
