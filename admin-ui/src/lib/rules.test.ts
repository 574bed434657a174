import { describe, expect, it } from 'vitest';
import { statusFilterToQuery, deletedToggleToQuery } from './statusFilter';
import { buLicenceLimitMessage, checkBuLicence, formatCountOfMax, isAtLicenceLimit } from './licence';
import { checkImageFile, MAX_IMAGE_BYTES } from './imageCheck';
import { cleanConfigEntries, configValueText } from './configEntries';
import { jsonFormatToText, parseJsonFormat, prettyJsonString, NUMBER_FORMAT_DEFAULTS } from './jsonFormat';
import { compareByNameThenEmail, displayName, matchesUserSearch } from './displayName';

describe('status filter', () => {
  it('applies is_active only when exactly one status is chosen', () => {
    expect(statusFilterToQuery(['active'])).toEqual({ is_active: true });
    expect(statusFilterToQuery(['inactive'])).toEqual({ is_active: false });
    expect(statusFilterToQuery(['active', 'inactive'])).toEqual({});
    expect(statusFilterToQuery([])).toEqual({});
  });
  it('ignores duplicates and unknown values', () => {
    expect(statusFilterToQuery(['inactive', 'inactive', 'bogus'])).toEqual({ is_active: false });
  });
  it('maps the soft-deleted toggle onto the deleted filter', () => {
    expect(deletedToggleToQuery(false)).toEqual({ deleted: 'exclude' });
    expect(deletedToggleToQuery(true)).toEqual({ deleted: 'include' });
  });
});

describe('licence pre-check', () => {
  it('uses the exact specified message', () => {
    expect(buLicenceLimitMessage(3, 3)).toBe(
      'Cannot create business unit: cluster has reached its license limit (3/3)',
    );
  });
  it('blocks at and above the cap, never when unlimited', () => {
    expect(checkBuLicence(2, 3)).toBeNull();
    expect(checkBuLicence(3, 3)).toBe('Cannot create business unit: cluster has reached its license limit (3/3)');
    expect(checkBuLicence(5, 3)).toContain('(5/3)');
    expect(checkBuLicence(100, null)).toBeNull();
    expect(checkBuLicence(100, undefined)).toBeNull();
    expect(isAtLicenceLimit(0, 0)).toBe(true);
  });
  it('formats count/max only when a max is set', () => {
    expect(formatCountOfMax(2, 5)).toBe('2/5');
    expect(formatCountOfMax(2, null)).toBe('2');
    expect(formatCountOfMax(undefined, 4)).toBe('0/4');
  });
});

describe('image check', () => {
  it('accepts JPEG, PNG and WebP up to 5 MB', () => {
    expect(checkImageFile({ type: 'image/jpeg', size: 10 })).toBeNull();
    expect(checkImageFile({ type: 'image/png', size: MAX_IMAGE_BYTES })).toBeNull();
    expect(checkImageFile({ type: 'image/webp', size: 1 })).toBeNull();
  });
  it('rejects other types and larger files', () => {
    expect(checkImageFile({ type: 'image/gif', size: 10 })).toBe('type');
    expect(checkImageFile({ type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(checkImageFile({ type: 'image/png', size: MAX_IMAGE_BYTES + 1 })).toBe('size');
    expect(MAX_IMAGE_BYTES).toBe(5 * 1024 * 1024);
  });
});

describe('config entries', () => {
  it('drops entries lacking a key or a label', () => {
    const cleaned = cleanConfigEntries([
      { key: 'a', label: 'A', datatype: 'string', value: 'x' },
      { key: '', label: 'No key', datatype: 'string', value: 1 },
      { key: 'nolabel', label: '  ', datatype: 'number', value: 2 },
      { label: 'missing key' },
      { key: 'b', label: 'B', datatype: 'number', value: 3 },
    ]);
    expect(cleaned.map((e) => e.key)).toEqual(['a', 'b']);
    expect(cleaned[1]).toEqual({ key: 'b', label: 'B', datatype: 'number', value: 3 });
  });
  it('handles a missing list', () => {
    expect(cleanConfigEntries(null)).toEqual([]);
  });
  it('renders values as text', () => {
    expect(configValueText({ a: 1 })).toBe('{"a":1}');
    expect(configValueText(true)).toBe('true');
    expect(configValueText(null)).toBe('');
  });
});

describe('number formats as JSON text', () => {
  it('parses valid JSON to objects', () => {
    expect(parseJsonFormat('{"locales":"th-TH","minimumIntegerDigits":2}')).toEqual({
      locales: 'th-TH',
      minimumIntegerDigits: 2,
    });
  });
  it('falls back to the raw string when parsing fails', () => {
    expect(parseJsonFormat('{not json')).toBe('{not json');
  });
  it('shows the default number formats when empty', () => {
    expect(JSON.parse(jsonFormatToText(null, 'amount_format'))).toEqual({ locales: 'th-TH', minimumIntegerDigits: 2 });
    expect(JSON.parse(jsonFormatToText(undefined, 'perpage_format'))).toEqual({ default: 10 });
    expect(NUMBER_FORMAT_DEFAULTS.recipe_format.minimumIntegerDigits).toBe(2);
  });
  it('keeps a stored raw string as is', () => {
    expect(jsonFormatToText('#,##0.00', 'amount_format')).toBe('#,##0.00');
  });
  it('pretty-prints db_connection JSON strings', () => {
    expect(prettyJsonString('{"host":"db","port":5432}')).toBe('{\n  "host": "db",\n  "port": 5432\n}');
    expect(prettyJsonString('not json')).toBe('not json');
  });
});

describe('display name', () => {
  it('joins first, middle and last names', () => {
    expect(displayName({ username: 'u', userInfo: { firstname: 'Ann', middlename: 'B', lastname: 'Lee' } })).toBe(
      'Ann B Lee',
    );
  });
  it('falls back to username, then email', () => {
    expect(displayName({ username: 'ann', email: 'a@x', userInfo: { firstname: ' ' } })).toBe('ann');
    expect(displayName({ email: 'a@x' })).toBe('a@x');
  });
  it('sorts by name then email and filters by name, username and email', () => {
    const rows = [
      { email: 'z@x', userInfo: { firstname: 'Bob' } },
      { email: 'b@x', userInfo: { firstname: 'Amy' } },
      { email: 'a@x', userInfo: { firstname: 'bob' } },
    ];
    expect([...rows].sort(compareByNameThenEmail).map((r) => r.email)).toEqual(['b@x', 'a@x', 'z@x']);
    expect(matchesUserSearch({ username: 'jdoe', email: 'j@x', userInfo: { firstname: 'John' } }, 'joh')).toBe(true);
    expect(matchesUserSearch({ username: 'jdoe', email: 'j@x' }, 'zzz')).toBe(false);
  });
});
