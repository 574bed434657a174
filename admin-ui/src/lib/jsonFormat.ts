import type { BusinessUnitInput } from '../types';
import { everyMember } from './exhaustive';

/** The default number formats of a business unit. */
export const NUMBER_FORMAT_DEFAULTS = {
  perpage_format: { default: 10 },
  amount_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
  quantity_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
  recipe_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
} as const satisfies Partial<Record<keyof BusinessUnitInput, BusinessUnitInput['amount_format']>>;

type NumberFormatField = keyof typeof NUMBER_FORMAT_DEFAULTS;
export const NUMBER_FORMAT_FIELDS = everyMember<NumberFormatField>()([
  'perpage_format',
  'amount_format',
  'quantity_format',
  'recipe_format',
]);

/** Text shown in the JSON editor: objects pretty-printed, strings as received, empty → the field's default format. */
export function jsonFormatToText(value: unknown, field?: NumberFormatField): string {
  if (value === null || value === undefined || value === '') {
    return field ? JSON.stringify(NUMBER_FORMAT_DEFAULTS[field], null, 2) : '';
  }
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/** Parsed on save; when parsing fails the raw string is sent. */
export function parseJsonFormat(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** True when the text is valid JSON (used only for a hint, never to block a save). */
export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** db_connection is shown pretty-printed when it is JSON, else as received. */
export function prettyJsonString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

/** The number every format preview shows. */
export const PREVIEW_NUMBER = 1234567.891;

/** The parsed JSON text when it is a plain object (the shape the structured editor edits), else null. */
export function formatObjectOf(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A number written with a stored amount/quantity/recipe format: `locales` picks the locale, every other key is an
 * Intl.NumberFormat option. Null when Intl refuses the options (an unknown locale, digits out of range).
 */
export function previewNumberFormat(format: Record<string, unknown>, sample: number = PREVIEW_NUMBER): string | null {
  const { locales, ...options } = format;
  try {
    const locale = typeof locales === 'string' || Array.isArray(locales) ? (locales as string | string[]) : undefined;
    return new Intl.NumberFormat(locale, options).format(sample);
  } catch {
    return null;
  }
}
