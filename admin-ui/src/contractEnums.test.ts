import { describe, expect, it } from 'vitest';
import { schemaNamed } from './test/bundledSpec';
import { PERMISSION_KEYS } from './auth/grants';
import { MEMBERSHIP_ROLES } from './lib/membership';
import { CONFIG_DATATYPES } from './lib/configEntries';
import { CALCULATION_METHODS } from './resources/business-units/businessUnitForm';
import { BULK_ACTIONS } from './dataProvider/methods/bulk';
import { IMPORT_OUTCOMES, IMPORT_REASONS } from './member-import/importFile';
import { memberImportScreenMessages } from './member-import/messages';
import type { Messages } from './lib/messages';
import { AUDIT_TARGET_TYPES } from './components/history/auditWords';
import { auditScreenMessages } from './audit-log/messages';
import { SSO_ERRORS, ssoLoginScreenMessages } from './sso/loginMessages';

const enumOf = (schema: string) => [...(schemaNamed(schema).enum ?? [])].sort();
const propertyEnumOf = (schema: string, property: string) => {
  const found = schemaNamed(schema).properties?.[property] as { enum?: unknown[] } | undefined;
  return [...(found?.enum ?? [])].filter((v) => v !== null).sort();
};

// The compiler already holds these lists to the generated types; this holds the generated types to the spec.
describe('the console lists every value of the contract’s enums', () => {
  it('membership roles', () => expect([...MEMBERSHIP_ROLES].sort()).toEqual(enumOf('MembershipRole')));
  it('config datatypes', () => expect([...CONFIG_DATATYPES].sort()).toEqual(enumOf('ConfigDatatype')));
  it('permission keys', () => expect(Object.values(PERMISSION_KEYS).sort()).toEqual(enumOf('PermissionKey')));
  it('calculation methods', () =>
    expect([...CALCULATION_METHODS].sort()).toEqual(propertyEnumOf('BusinessUnitInput', 'calculation_method')));
  it('bulk actions of each list', () => {
    expect([...BULK_ACTIONS.clusters].sort()).toEqual(propertyEnumOf('LifecycleBulkRequest', 'action'));
    expect([...BULK_ACTIONS['business-units']].sort()).toEqual(propertyEnumOf('LifecycleBulkRequest', 'action'));
    expect([...BULK_ACTIONS.users].sort()).toEqual(propertyEnumOf('UserBulkRequest', 'action'));
    expect([...BULK_ACTIONS['print-template-mappings']].sort()).toEqual(
      propertyEnumOf('PrintTemplateMappingBulkRequest', 'action'),
    );
  });
  it('kinds of audited records', () =>
    expect([...AUDIT_TARGET_TYPES].sort()).toEqual(propertyEnumOf('AuditEvent', 'target_type')));
  it('outcomes and refusal reasons of the membership import', () => {
    expect([...IMPORT_OUTCOMES].sort()).toEqual(propertyEnumOf('MembershipImportRow', 'outcome'));
    expect([...IMPORT_REASONS].sort()).toEqual(propertyEnumOf('MembershipImportRow', 'reason'));
  });
});

// A value the console lists but has no words for would show its raw code.
describe('the console has words for every value of the import’s enums', () => {
  const tree = (locale: 'en' | 'th', branch: string) =>
    (memberImportScreenMessages[locale]['member_import'] as Messages)[branch] as Messages;
  for (const locale of ['en', 'th'] as const) {
    it(`in ${locale}`, () => {
      expect(Object.keys(tree(locale, 'outcomes')).sort()).toEqual([...IMPORT_OUTCOMES].sort());
      expect(Object.keys(tree(locale, 'outcome_counts')).sort()).toEqual([...IMPORT_OUTCOMES].sort());
      expect(Object.keys(tree(locale, 'reasons')).sort()).toEqual([...IMPORT_REASONS].sort());
    });
  }
});

// A kind of record without a screen of its own is named by the audit words; a single sign-on failure by the login page.
describe('the console has words for every audited kind of record and every single sign-on failure', () => {
  const NAMED_BY_THEIR_SCREEN = ['cluster', 'business_unit', 'print_template_mapping', 'user'];
  for (const locale of ['en', 'th'] as const) {
    it(`in ${locale}`, () => {
      const targets = (auditScreenMessages[locale]['audit'] as Messages)['targets'] as Messages;
      expect(Object.keys(targets).sort()).toEqual(
        AUDIT_TARGET_TYPES.filter((t) => !NAMED_BY_THEIR_SCREEN.includes(t)).sort(),
      );
      const errors = ((ssoLoginScreenMessages[locale]['sso'] as Messages)['login'] as Messages)['errors'] as Messages;
      expect(Object.keys(errors).sort()).toEqual([...SSO_ERRORS, 'unknown'].sort());
    });
  }
});
