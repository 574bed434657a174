/** Writable fields per resource: reads carry read-only fields the contract rejects on write. */
export const CLUSTER_WRITABLE = ['code', 'alias_name', 'name', 'max_license_bu', 'is_active'] as const;

export const BUSINESS_UNIT_WRITABLE = [
  'cluster_id',
  'code',
  'name',
  'alias_name',
  'description',
  'max_license_users',
  'is_hq',
  'is_active',
  'hotel_name',
  'hotel_tel',
  'hotel_email',
  'hotel_address',
  'hotel_zip_code',
  'company_name',
  'company_tel',
  'company_email',
  'company_address',
  'company_zip_code',
  'tax_no',
  'branch_no',
  'date_format',
  'date_time_format',
  'time_format',
  'long_time_format',
  'short_time_format',
  'timezone',
  'perpage_format',
  'amount_format',
  'quantity_format',
  'recipe_format',
  'calculation_method',
  'default_currency_id',
  'config',
  'db_connection',
] as const;

export const PRINT_TEMPLATE_MAPPING_WRITABLE = [
  'document_type',
  'report_template_id',
  'is_default',
  'display_label',
  'display_order',
  'allow_business_unit',
  'deny_business_unit',
  'is_active',
] as const;

/** Keeps only the listed keys that are present (undefined values are left out). */
export function pickWritable(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (data[k] !== undefined) out[k] = data[k];
  return out;
}
