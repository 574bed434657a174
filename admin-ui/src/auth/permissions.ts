/** The caller's grants as returned by GET /api/user/permission/platform. */
export interface PlatformPermissions {
  user?: { id: string; username: string; email?: string | null; display_name?: string | null } | null;
  platform: string[];
  clusters: Record<string, string[]>;
  is_super_admin: boolean;
}

export const PERMISSION_KEYS = {
  read: 'cluster.read',
  create: 'cluster.create',
  update: 'cluster.update',
  delete: 'cluster.delete',
  printMappingManage: 'print_template_mapping.manage',
} as const;

export const EMPTY_PERMISSIONS: PlatformPermissions = { platform: [], clusters: {}, is_super_admin: false };

/**
 * Check order: super admin → platform-wide key → the key on the given cluster.
 * Without a cluster id, a key held on any cluster counts (the screen re-checks once the record is known).
 */
export function hasPermission(
  perms: PlatformPermissions | null | undefined,
  key: string,
  clusterId?: string | null,
  opts: { anyCluster?: boolean } = {},
): boolean {
  if (!perms) return false;
  if (perms.is_super_admin) return true;
  if (perms.platform.includes(key)) return true;
  if (clusterId) return (perms.clusters[clusterId] ?? []).includes(key);
  if (opts.anyCluster) return Object.values(perms.clusters).some((keys) => keys.includes(key));
  return false;
}

const CLUSTER_SCOPED_RESOURCES = new Set(['clusters', 'business-units']);

/** react-admin action → permission key for the cluster and BU screens (BU screens reuse the cluster keys). */
export function keyForAction(action: string): string | null {
  switch (action) {
    case 'list':
    case 'show':
    case 'export':
    case 'read':
      return PERMISSION_KEYS.read;
    case 'create':
    case 'clone':
      return PERMISSION_KEYS.create;
    case 'edit':
    case 'update':
    case 'upload':
    case 'manage_users':
    case 'restore':
      return PERMISSION_KEYS.update;
    case 'delete':
      return PERMISSION_KEYS.delete;
    default:
      return null;
  }
}

interface AccessRecord {
  id?: unknown;
  cluster_id?: unknown;
}

/** The cluster a record is checked against: itself for a cluster, its parent for a BU. */
export function clusterIdOf(resource: string, record: AccessRecord | null | undefined): string | null {
  if (!record) return null;
  const raw = resource === 'clusters' ? record.id : record.cluster_id;
  return typeof raw === 'string' && raw ? raw : null;
}

export function canAccessWith(
  perms: PlatformPermissions | null | undefined,
  params: { action: string; resource: string; record?: AccessRecord | null },
): boolean {
  const { action, resource, record } = params;
  if (!perms) return false;
  if (CLUSTER_SCOPED_RESOURCES.has(resource)) {
    const key = keyForAction(action);
    if (!key) return false;
    const clusterId = clusterIdOf(resource, record);
    if (clusterId) return hasPermission(perms, key, clusterId);
    // A new cluster belongs to no cluster yet: only a platform-wide grant can create one.
    if (resource === 'clusters' && key === PERMISSION_KEYS.create) return hasPermission(perms, key);
    return hasPermission(perms, key, null, { anyCluster: true });
  }
  if (resource === 'print-template-mappings') {
    if (action === 'list' || action === 'show' || action === 'read' || action === 'resolve') return true;
    return hasPermission(perms, PERMISSION_KEYS.printMappingManage);
  }
  // Dashboards, widgets and the domain pages need only a signed-in session.
  return true;
}
