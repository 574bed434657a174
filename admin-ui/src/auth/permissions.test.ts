import { describe, expect, it } from 'vitest';
import type { Grants } from '../types';
import { hasPermission } from './grants';
import { ACCESS_RULES, canAccessWith } from './permissions';

const scoped: Grants = {
  platform: ['cluster.read'],
  clusters: { c1: ['cluster.update'], c2: ['cluster.delete', 'cluster.create'] },
  is_super_admin: false,
};

describe('permission checks', () => {
  it('super admin passes everything', () => {
    const su: Grants = { platform: [], clusters: {}, is_super_admin: true };
    expect(canAccessWith(su, { action: 'delete', resource: 'clusters', record: { id: 'x' } })).toBe(true);
    expect(canAccessWith(su, { action: 'create', resource: 'print-template-mappings' })).toBe(true);
  });
  it('a platform-wide key applies to every cluster', () => {
    expect(hasPermission(scoped, 'cluster.read', 'anything')).toBe(true);
    expect(canAccessWith(scoped, { action: 'list', resource: 'business-units' })).toBe(true);
  });
  it('a cluster-scoped key applies only to that cluster', () => {
    expect(canAccessWith(scoped, { action: 'edit', resource: 'clusters', record: { id: 'c1' } })).toBe(true);
    expect(canAccessWith(scoped, { action: 'edit', resource: 'clusters', record: { id: 'c2' } })).toBe(false);
    expect(canAccessWith(scoped, { action: 'delete', resource: 'clusters', record: { id: 'c1' } })).toBe(false);
  });
  it('a BU resolves against its parent cluster', () => {
    expect(canAccessWith(scoped, { action: 'edit', resource: 'business-units', record: { id: 'b', cluster_id: 'c1' } })).toBe(true);
    expect(canAccessWith(scoped, { action: 'delete', resource: 'business-units', record: { id: 'b', cluster_id: 'c1' } })).toBe(false);
    expect(canAccessWith(scoped, { action: 'create', resource: 'business-units', record: { cluster_id: 'c2' } })).toBe(true);
  });
  it('creating a cluster needs a platform-wide grant', () => {
    expect(canAccessWith(scoped, { action: 'create', resource: 'clusters' })).toBe(false);
    expect(canAccessWith(scoped, { action: 'create', resource: 'business-units' })).toBe(true);
  });
  it('print mapping writes need print_template_mapping.manage; reads need a session', () => {
    expect(canAccessWith(scoped, { action: 'list', resource: 'print-template-mappings' })).toBe(true);
    expect(canAccessWith(scoped, { action: 'create', resource: 'print-template-mappings' })).toBe(false);
    const mgr: Grants = { ...scoped, platform: ['print_template_mapping.manage'] };
    expect(canAccessWith(mgr, { action: 'edit', resource: 'print-template-mappings' })).toBe(true);
  });
  it('no permissions means no access to guarded screens', () => {
    expect(canAccessWith(null, { action: 'list', resource: 'clusters' })).toBe(false);
    const readOnly: Grants = { platform: ['cluster.read'], clusters: {}, is_super_admin: false };
    expect(canAccessWith(readOnly, { action: 'create', resource: 'clusters' })).toBe(false);
    expect(canAccessWith(readOnly, { action: 'edit', resource: 'business-units' })).toBe(false);
  });
  it('refuses a resource without rules, even to a super admin', () => {
    const su: Grants = { platform: [], clusters: {}, is_super_admin: true };
    expect(canAccessWith(su, { action: 'list', resource: 'invoices' })).toBe(false);
    expect(canAccessWith(su, { action: 'list', resource: 'toString' })).toBe(false);
  });
  it('refuses an action without a rule, even to a super admin', () => {
    const su: Grants = { platform: [], clusters: {}, is_super_admin: true };
    for (const resource of Object.keys(ACCESS_RULES)) {
      expect(canAccessWith(su, { action: 'export', resource })).toBe(false);
      expect(canAccessWith(su, { action: 'archive', resource, record: { id: 'c1' } })).toBe(false);
    }
  });
});
