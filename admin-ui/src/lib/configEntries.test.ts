import { describe, expect, it } from 'vitest';
import type { ConfigEntry } from '../types';
import { coerceConfigValue, configForEditor, configForSave } from './configEntries';

describe('config values by datatype', () => {
  it('types values on save', () => {
    expect(coerceConfigValue('number', '12.5')).toBe(12.5);
    expect(coerceConfigValue('number', 'abc')).toBe('abc');
    expect(coerceConfigValue('boolean', 'true')).toBe(true);
    expect(coerceConfigValue('boolean', 'false')).toBe(false);
    expect(coerceConfigValue('json', '{"a":[1]}')).toEqual({ a: [1] });
    expect(coerceConfigValue('json', '{oops')).toBe('{oops');
    expect(coerceConfigValue('date', '2024-01-01')).toBe('2024-01-01');
  });
  it('round-trips through the editor and drops incomplete rows', () => {
    const stored: ConfigEntry[] = [
      { key: 'neg', label: 'Allow negative', datatype: 'boolean', value: false },
      { key: 'x', label: '', datatype: 'string', value: 'y' },
    ];
    const editor = configForEditor(stored);
    expect(editor[0]!.value).toBe('false');
    expect(configForSave(editor)).toEqual([{ key: 'neg', label: 'Allow negative', datatype: 'boolean', value: false }]);
  });
});
