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
    expect(
      canAccessWith(scoped, { action: 'edit', resource: 'business-units', record: { id: 'b', cluster_id: 'c1' } }),
    ).toBe(true);
    expect(
      canAccessWith(scoped, { action: 'delete', resource: 'business-units', record: { id: 'b', cluster_id: 'c1' } }),
    ).toBe(false);
    expect(canAccessWith(scoped, { action: 'create', resource: 'business-units', record: { cluster_id: 'c2' } })).toBe(
      true,
    );
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

describe('accounts and the audit log', () => {
  const none: Grants = { platform: [], clusters: {}, is_super_admin: false };
  it('lists and shows accounts with user.read, changes them with user.manage, and never deletes one', () => {
    const reader: Grants = { ...none, platform: ['user.read'] };
    const manager: Grants = { ...none, platform: ['user.read', 'user.manage'] };
    expect(canAccessWith(reader, { action: 'list', resource: 'users' })).toBe(true);
    expect(canAccessWith(reader, { action: 'show', resource: 'users', record: { id: 'u1' } })).toBe(true);
    expect(canAccessWith(reader, { action: 'edit', resource: 'users', record: { id: 'u1' } })).toBe(false);
    expect(canAccessWith(manager, { action: 'create', resource: 'users' })).toBe(true);
    expect(canAccessWith(manager, { action: 'edit', resource: 'users', record: { id: 'u1' } })).toBe(true);
    expect(
      canAccessWith({ ...none, is_super_admin: true }, { action: 'delete', resource: 'users', record: { id: 'u1' } }),
    ).toBe(false);
    expect(canAccessWith(scoped, { action: 'list', resource: 'users' })).toBe(false);
  });
  it('opens the audit log with cluster.read on any cluster or with user.read', () => {
    expect(
      canAccessWith({ ...none, clusters: { c1: ['cluster.read'] } }, { action: 'list', resource: 'audit-log' }),
    ).toBe(true);
    expect(canAccessWith({ ...none, platform: ['user.read'] }, { action: 'list', resource: 'audit-log' })).toBe(true);
    expect(
      canAccessWith({ ...none, clusters: { c1: ['cluster.update'] } }, { action: 'list', resource: 'audit-log' }),
    ).toBe(false);
    expect(canAccessWith({ ...none, is_super_admin: true }, { action: 'edit', resource: 'audit-log' })).toBe(false);
  });
  it('changes an account’s grants with grant.manage only', () => {
    expect(canAccessWith({ ...none, platform: ['grant.manage'] }, { action: 'edit', resource: 'user-grants' })).toBe(
      true,
    );
    expect(canAccessWith({ ...none, platform: ['user.manage'] }, { action: 'edit', resource: 'user-grants' })).toBe(
      false,
    );
    expect(
      canAccessWith({ ...none, clusters: { c1: ['grant.manage'] } }, { action: 'edit', resource: 'user-grants' }),
    ).toBe(false);
  });
});
