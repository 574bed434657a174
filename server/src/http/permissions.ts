import type { Knex } from 'knex';
import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from './errors.js';

/** Keys from the seed plus ours (DESIGN §5). */
export const PERMISSION_KEYS = ['cluster.read', 'cluster.create', 'cluster.update', 'cluster.delete', 'print_template_mapping.manage'] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

export interface Permissions {
  /** platform-wide keys (grants with cluster_id null) */
  platform: string[];
  /** keys granted per cluster id */
  clusters: Record<string, string[]>;
  is_super_admin: boolean;
}

export interface AuthContext {
  userId: string;
  permissions: Permissions;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

export async function loadPermissions(knex: Knex, userId: string): Promise<Permissions | null> {
  // One round trip on every authenticated request: the user's flags with one row per grant (or one row of nulls).
  const rows: Array<{ is_super_admin: boolean; is_active: boolean; permission_key: string | null; cluster_id: string | null }> =
    await knex('users')
      .leftJoin('permission_grants', 'permission_grants.user_id', 'users.id')
      .select('users.is_super_admin', 'users.is_active', 'permission_grants.permission_key', 'permission_grants.cluster_id')
      .where('users.id', userId)
      .orderBy('permission_grants.permission_key');
  const user = rows[0];
  if (!user || !user.is_active) return null;
  const platform: string[] = [];
  const clusters: Record<string, string[]> = {};
  for (const g of rows) {
    if (g.permission_key === null) continue;
    if (g.cluster_id === null) platform.push(g.permission_key);
    else (clusters[g.cluster_id] ??= []).push(g.permission_key);
  }
  return { platform, clusters, is_super_admin: !!user.is_super_admin };
}

/**
 * Check order: super admin → platform-wide key → the key on the given cluster. Without a cluster id only
 * super admin and platform-wide grants count. For a BU pass its parent cluster; for a move check both.
 */
export function can(perms: Permissions, key: string, clusterId?: string | null): boolean {
  if (perms.is_super_admin) return true;
  if (perms.platform.includes(key)) return true;
  if (clusterId) return perms.clusters[clusterId]?.includes(key) ?? false;
  return false;
}

/** True when the key is held platform-wide or on at least one cluster (e.g. the global user search). */
export function canAnywhere(perms: Permissions, key: string): boolean {
  return can(perms, key) || Object.values(perms.clusters).some((keys) => keys.includes(key));
}

/** Cluster ids on which the key holds, or 'all' (super admin / platform-wide) — for filtering lists. */
export function clustersWith(perms: Permissions, key: string): 'all' | string[] {
  if (can(perms, key)) return 'all';
  return Object.entries(perms.clusters)
    .filter(([, keys]) => keys.includes(key))
    .map(([id]) => id);
}

/** The signed-in caller; throws 401 when the route was reached without authentication. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new UnauthorizedError();
  return req.auth;
}

export function assertCan(req: Request, key: string, clusterId?: string | null): void {
  if (!can(authOf(req).permissions, key, clusterId)) throw new ForbiddenError(`Missing permission ${key}${clusterId ? ' on this cluster' : ''}`);
}

/** Route guard for keys that do not depend on a record (platform-wide, or `anywhere` = on some cluster). */
export function requirePermission(key: string, opts: { anywhere?: boolean } = {}): RequestHandler {
  return (req, _res, next) => {
    const perms = authOf(req).permissions;
    if (opts.anywhere ? canAnywhere(perms, key) : can(perms, key)) return next();
    next(new ForbiddenError(`Missing permission ${key}`));
  };
}
