import type { Grants, PermissionKey } from '../types';
import { everyValue } from '../lib/exhaustive';

/** The contract's permission keys under the names the rules use; a key added to the contract must be named here. */
export const PERMISSION_KEYS = everyValue<PermissionKey>()({
  read: 'cluster.read',
  create: 'cluster.create',
  update: 'cluster.update',
  delete: 'cluster.delete',
  printMappingManage: 'print_template_mapping.manage',
  userRead: 'user.read',
  userManage: 'user.manage',
  grantManage: 'grant.manage',
});

/**
 * Check order: super admin → platform-wide key → the key on the given cluster.
 * Without a cluster id, a key held on any cluster counts only when asked for (the screen re-checks once the record is known).
 */
export function hasPermission(
  grants: Grants | null | undefined,
  key: PermissionKey,
  clusterId?: string | null,
  opts: { anyCluster?: boolean } = {},
): boolean {
  if (!grants) return false;
  if (grants.is_super_admin) return true;
  if (grants.platform.includes(key)) return true;
  if (clusterId) return (grants.clusters[clusterId] ?? []).includes(key);
  if (opts.anyCluster) return Object.values(grants.clusters).some((keys) => keys.includes(key));
  return false;
}
