import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatPercent, formatRelative, toDate } from './format';

const moment = new Date(2026, 10, 27, 16, 33, 5);

describe('one date and number format per language', () => {
  it('when a moment is shown in English, then it reads as the English day and time', () => {
    expect(formatDateTime(moment, 'en')).toMatch(/^Nov 27, 2026, 4:33\s?PM$/);
    expect(formatDate(moment, 'en')).toBe('Nov 27, 2026');
  });

  it('when a moment is shown in Thai, then it reads in the Thai calendar with a 24-hour time', () => {
    expect(formatDateTime(moment, 'th')).toBe('27 พ.ย. 2569 16:33');
    expect(formatDate(moment, 'th')).toBe('27 พ.ย. 2569');
  });

  it('when the wire sends an ISO timestamp, then it is shown in local time like a Date', () => {
    expect(formatDateTime(moment.toISOString(), 'en')).toBe(formatDateTime(moment, 'en'));
  });

  it('when a calendar day has no time, then it is that day wherever the browser is', () => {
    expect(toDate('2026-11-27')?.getDate()).toBe(27);
    expect(formatDate('2026-11-27', 'en')).toBe('Nov 27, 2026');
  });

  it('when the value is empty or unparsable, then nothing is shown', () => {
    expect(formatDateTime(null, 'en')).toBe('');
    expect(formatDateTime('', 'th')).toBe('');
    expect(formatDate('not a date', 'en')).toBe('');
  });

  it('when a moment is minutes away, then it reads relative to now in the language', () => {
    const now = moment.getTime();
    expect(formatRelative(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(formatRelative(now + 2 * 3600_000, 'en', now)).toBe('in 2 hours');
    expect(formatRelative(now - 5 * 60_000, 'th', now)).toContain('5');
  });

  it('when a number is shown, then it has the language separators and at most two decimals', () => {
    expect(formatNumber(12345.678, 'en')).toBe('12,345.68');
    expect(formatNumber(12345.678, 'th')).toBe('12,345.68');
    expect(formatPercent(42.5, 'en')).toBe('42.5%');
  });
});
