import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageModules, messages } from './thai';
import type { Messages } from '../lib/messages';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
// Folders whose messages this console shell owns; the others bring their own modules and tests.
const OWNED = [
  'App.tsx',
  'authProvider.ts',
  'components',
  'layout',
  'pages',
  'resources/clusters',
  'resources/business-units',
  'i18n',
  'lib',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

function lookup(tree: Messages, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Messages)[part] : undefined), tree);
}

function leaves(tree: Messages, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`),
  );
}

const sources = OWNED.flatMap((p) => {
  const full = join(SRC, p);
  return statSync(full).isDirectory() ? files(full) : [full];
});

const literalKeys = new Set(
  sources.flatMap((f) =>
    [
      ...readFileSync(f, 'utf8').matchAll(
        /['"`]((?:app|resources\.(?:clusters|business-units))\.[A-Za-z0-9_.-]+)['"`]/g,
      ),
    ].map((m) => m[1]!),
  ),
);

// Keys built at run time from a known set of values.
const dynamicKeys = [
  ...['active', 'inactive'].map((s) => `app.status.${s}`),
  ...['logo', 'avatar'].map((k) => `app.branding.${k}`),
  ...['user', 'admin'].map((r) => `app.members.roles.${r}`),
  ...['main', 'pr', 'po', 'grn', 'inventory', 'sr'].map((d) => `app.menu.domains.${d}`),
  ...['average', 'fifo'].map((m) => `resources.business-units.calculation_methods.${m}`),
  ...['general', 'hotel', 'company', 'tax', 'datetime', 'number_formats', 'calculation', 'config', 'db_connection'].map(
    (s) => `resources.business-units.sections.${s}`,
  ),
];

describe('messages', () => {
  it('finds the keys used in the source', () => {
    expect(literalKeys.size).toBeGreaterThan(50);
  });

  for (const locale of ['en', 'th'] as const) {
    it(`has every used key in ${locale}`, () => {
      const missing = [...literalKeys, ...dynamicKeys].filter((k) => typeof lookup(messages[locale]!, k) !== 'string');
      expect(missing).toEqual([]);
    });
  }

  it('translates every English message of the console into Thai', () => {
    for (const mod of messageModules.filter((m) => ['app', 'clusters', 'businessUnits'].includes(m.name))) {
      expect(leaves(mod.th).sort(), mod.name).toEqual(leaves(mod.en).sort());
    }
  });

  it('labels every BU form field in both languages', () => {
    for (const locale of ['en', 'th'] as const) {
      const fields = lookup(messages[locale]!, 'resources.business-units.fields') as Messages;
      expect(Object.keys(fields).length).toBeGreaterThanOrEqual(34);
    }
  });
});
