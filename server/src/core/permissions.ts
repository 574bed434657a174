import type { Schemas } from './contract.js';
import { BadRequestError, ForbiddenError, NotFoundError } from './errors.js';

export type PermissionKey = Schemas['PermissionKey'];
/** What a caller may do: the contract's permissions without the profile. */
export type Permissions = Omit<Schemas['PlatformPermissions'], 'user'>;

/** Where a request came from, for the audit trail. */
export interface RequestOrigin {
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuthContext {
  userId: string;
  permissions: Permissions;
  /** The signed-in device (the refresh-token family) the access token belongs to. */
  sessionId?: string;
  /**
   * The API token the request came with (a service account's); absent for a person's access token. Its permissions
   * are already narrowed to the token's keys. What a token's calls are counted under: `token:<tokenId>`.
   */
  tokenId?: string;
  origin?: RequestOrigin;
  /**
   * The second factors the caller's account can prove itself with (empty: none, so it is never asked to step up),
   * and when its session last used one (ms since the epoch; null: never). A person's access token only.
   */
  secondFactors?: { methods: Array<'totp' | 'recovery_code' | 'passkey'>; usedAt: number | null };
}

/**
 * Check order: super admin → platform-wide key → the key on the given cluster. Without a cluster id only
 * super admin and platform-wide grants count. For a BU pass its parent cluster; for a move check both.
 */
export function can(perms: Permissions, key: PermissionKey, clusterId?: string | null): boolean {
  if (perms.is_super_admin) return true;
  if (perms.platform.includes(key)) return true;
  if (clusterId) return perms.clusters[clusterId]?.includes(key) ?? false;
  return false;
}

/** True when the key is held platform-wide or on at least one cluster (e.g. the global user search). */
export function canAnywhere(perms: Permissions, key: PermissionKey): boolean {
  return can(perms, key) || Object.values(perms.clusters).some((keys) => keys.includes(key));
}

/** Cluster ids on which the key holds, or 'all' (super admin / platform-wide) — for filtering lists. */
export function clustersWith(perms: Permissions, key: PermissionKey): 'all' | string[] {
  if (can(perms, key)) return 'all';
  return Object.entries(perms.clusters)
    .filter(([, keys]) => keys.includes(key))
    .map(([id]) => id);
}

/** Throws `ForbiddenError` unless the caller holds the key on the cluster (null: platform-wide). */
export function assertCan(auth: AuthContext, key: PermissionKey, clusterId: string | null): void {
  if (!can(auth.permissions, key, clusterId)) {
    throw new ForbiddenError(`Missing permission ${key}${clusterId ? ' on this cluster' : ' (platform-wide)'}`);
  }
}

/**
 * How an operation declares its access in the contract (`x-permission`, `x-permission-scope`):
 * `public` needs no token, `signed-in` any caller; a key with scope `platform` must be held platform-wide, and with
 * scope `cluster` on the record's cluster — the service checks that once the record is loaded; before, a caller
 * who holds the key on no cluster at all is refused.
 */
export type AccessRule =
  { kind: 'public' } | { kind: 'signed-in' } | { kind: 'key'; key: PermissionKey; scope: 'platform' | 'cluster' };

/** Whether the caller passes the operation's rule before any record is loaded. */
export function passesAccessRule(perms: Permissions, rule: AccessRule): boolean {
  if (rule.kind !== 'key') return true;
  return rule.scope === 'platform' ? can(perms, rule.key) : canAnywhere(perms, rule.key);
}

/**
 * A record in a cluster the caller holds no grant on is, to that caller, not there: the same `NotFoundError` as a
 * missing id, so answers never tell which ids exist. Callers who may read it get a `ForbiddenError` from `assertCan`
 * for what they may not do.
 */
export function assertVisible(auth: AuthContext, clusterId: string, notFound: string): void {
  if (!canSeeCluster(auth.permissions, clusterId)) throw new NotFoundError(notFound);
}

/** Whether the caller holds any grant on the cluster, and so may know its records exist. */
export function canSeeCluster(perms: Permissions, clusterId: string): boolean {
  return CLUSTER_KEYS.some((key) => can(perms, key, clusterId));
}

/**
 * Licence caps are commercial: only a caller holding `cluster.update` on all clusters (or a super admin) sets or
 * changes one. Anyone else may save the rest of the form as long as the cap stays as it was.
 */
export function assertMayChangeLicence(
  auth: AuthContext,
  field: 'max_license_bu' | 'max_license_users',
  before: number | null,
  after: number | null,
): void {
  if (before === after || can(auth.permissions, 'cluster.update')) return;
  throw new ForbiddenError(
    `Changing ${field} needs cluster.update on all clusters (licence caps are commercial); keep it at ${before ?? 'unlimited'} to save the other fields`,
  );
}

/** Any of these on a cluster means the caller knows the cluster's records exist. */
const CLUSTER_KEYS: PermissionKey[] = ['cluster.read', 'cluster.create', 'cluster.update', 'cluster.delete'];

/** Keys about accounts, which hold on all clusters only. */
const PLATFORM_ONLY_KEYS: ReadonlySet<string> = new Set(['user.read', 'user.manage', 'grant.manage']);

/**
 * A grant (or a group mapping to one) of a platform-only key names no cluster: a `BadRequestError` on
 * `/body/cluster_id` otherwise.
 */
export function assertScopeFitsKey(key: string, clusterId: string | null): void {
  if (clusterId === null || !PLATFORM_ONLY_KEYS.has(key)) return;
  const detail = `${key} is a platform key: it holds on all clusters only (send cluster_id: null)`;
  throw new BadRequestError(detail, [{ path: '/body/cluster_id', message: detail }]);
}
