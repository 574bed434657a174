import { useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import { formatAmount, localeTag } from './amounts';

/**
 * Dates, times and numbers written one way per console language: every screen formats through here, so a time reads
 * the same on the list, the record and the audit log ("Nov 27, 2026, 4:33 PM" in English, "27 พ.ย. 2569 16:33" in
 * Thai). Timestamps are shown in the browser's local time. File names and CSV cells keep ISO dates: they are data,
 * not text to read.
 */

export { localeTag };

export type DateValue = string | number | Date | null | undefined;

const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

// Intl formatters are costly to build and a list formats hundreds of cells: one per language and style.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions, name: string) => {
  const key = `${locale}:${name}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(localeTag(locale), options);
    dateFormats.set(key, format);
  }
  return format;
};

/** A calendar day without a time (`2026-11-27`) is that day where the operator is, not midnight UTC. */
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant a value stands for; null for empty or unparsable input. */
export function toDate(value: DateValue): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const day = CALENDAR_DAY.exec(value);
    if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  }
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A day in the language's own way ("Nov 27, 2026", "27 พ.ย. 2569"); blank for empty or unparsable input. */
export function formatDate(value: DateValue, locale: string): string {
  const d = toDate(value);
  return d ? dateFormat(locale, DATE, 'date').format(d) : '';
}

/** A moment in local time ("Nov 27, 2026, 4:33 PM", "27 พ.ย. 2569 16:33"); blank for empty or unparsable input. */
export function formatDateTime(value: DateValue, locale: string): string {
  const d = toDate(value);
  return d ? dateFormat(locale, DATE_TIME, 'dateTime').format(d) : '';
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** How long ago or ahead a moment is ("5 minutes ago", "5 นาทีที่ผ่านมา"); blank for empty or unparsable input. */
export function formatRelative(value: DateValue, locale: string, now: number = Date.now()): string {
  const d = toDate(value);
  if (!d) return '';
  let amount = (d.getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(localeTag(locale), { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatDateTime(d, locale);
}

/** A count or measure in the language's digits and separators ("12,345.67"), at most two decimals. */
export function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(localeTag(locale), { maximumFractionDigits: 2 }).format(value);
}

/** A large number written short for a chart axis ("12K"). */
export function formatCompact(value: number, locale: string): string {
  return new Intl.NumberFormat(localeTag(locale), { notation: 'compact' }).format(value);
}

/** A share already in percent (42.5 → "42.5%"). */
export function formatPercent(value: number, locale: string): string {
  return `${formatNumber(value, locale)}%`;
}

/** The formatters of the console's current language, for screens. */
export function useFormat() {
  const [locale] = useLocaleState();
  return useMemo(
    () => ({
      locale,
      date: (value: DateValue) => formatDate(value, locale),
      dateTime: (value: DateValue) => formatDateTime(value, locale),
      relative: (value: DateValue) => formatRelative(value, locale),
      number: (value: number) => formatNumber(value, locale),
      compact: (value: number) => formatCompact(value, locale),
      percent: (value: number) => formatPercent(value, locale),
      /** An amount of money with its currency code, one way everywhere ("THB 1,500.00"). */
      amount: (value: number, currency: string) => formatAmount(value, currency, locale),
    }),
    [locale],
  );
}
