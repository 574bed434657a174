import type { ConfigDatatype, ConfigEntry, Loose } from '../types';
import { everyMember } from './exhaustive';

/** The datatypes in the order the editor offers them; a datatype added to the contract must be placed here. */
export const CONFIG_DATATYPES = everyMember<ConfigDatatype>()(['string', 'number', 'boolean', 'date', 'json']);

/** A row of the inline editor, which may be half filled in. */
type EditorEntry = Loose<ConfigEntry>;

const filled = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

/** On save, entries lacking a key or a label are dropped. */
export function cleanConfigEntries(entries: readonly EditorEntry[] | null | undefined): ConfigEntry[] {
  return (entries ?? [])
    .filter((e) => filled(e.key) && filled(e.label))
    .map((e) => ({
      key: String(e.key),
      label: String(e.label),
      datatype: e.datatype ?? 'string',
      value: e.value ?? null,
    }));
}

export function emptyConfigEntry(): ConfigEntry {
  return { key: '', label: '', datatype: 'string', value: '' };
}

/** Shows a config value in the read-only table. */
export function configValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // An object or an array: the JSON it is stored as.
  return JSON.stringify(value);
}

/** The inline editor holds text; on save each value is stored in the type its datatype names. */
export function coerceConfigValue(datatype: ConfigDatatype, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (datatype) {
    case 'number': {
      const n = Number(value);
      return value.trim() !== '' && Number.isFinite(n) ? n : value;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'json':
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    default:
      return value;
  }
}

/** Entries ready to send: incomplete ones dropped, values typed by their datatype. */
export function configForSave(entries: readonly EditorEntry[] | null | undefined): ConfigEntry[] {
  return cleanConfigEntries(entries).map((e) => ({ ...e, value: coerceConfigValue(e.datatype, e.value) }));
}

/** Entries as the editor shows them: every value as text. */
export function configForEditor(entries: readonly EditorEntry[] | null | undefined): ConfigEntry[] {
  return (entries ?? []).map((e) => ({
    key: e.key ?? '',
    label: e.label ?? '',
    datatype: e.datatype ?? 'string',
    value: configValueText(e.value),
  }));
}
