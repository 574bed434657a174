import { describe, expect, it } from 'vitest';
import type { Messages } from '../lib/messages';
import * as dashboard from './i18n';
import * as domainDashboards from '../domain-dashboards/i18n';
import * as mappings from '../resources/print-template-mappings/i18n';
import * as mappingsThai from '../resources/print-template-mappings/i18n.th';

const leaves = (tree: Messages, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`)));

const values = (tree: Messages): string[] =>
  Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : values(v)));

describe.each([
  ['dashboard', dashboard],
  ['domain-dashboards', domainDashboards],
  ['print-template-mappings', { ...mappings, ...mappingsThai }],
])('%s messages', (_name, module) => {
  it('Thai has exactly the English keys, none blank', () => {
    expect(leaves(module.th).sort()).toEqual(leaves(module.en).sort());
    for (const tree of [module.en, module.th]) {
      expect(leaves(tree).length).toBeGreaterThan(5);
      expect(values(tree).filter((v) => v.trim() === '')).toEqual([]);
    }
  });
});
