import { ForbiddenError } from './errors.js';
import { can, type PermissionKey, type Permissions } from './permissions.js';

/** "on this cluster" or "on all clusters": where a key holds, as the granting rule's messages say it. */
export const scopePhrase = (clusterId: string | null): string => (clusterId ? 'on this cluster' : 'on all clusters');

/**
 * The granting rule: a caller grants only keys it holds on that scope (a key held on all clusters covers each one),
 * never super admin, which is no key and so can never be granted this way. Everything that hands out keys, directly
 * or later on the caller's behalf (a group mapping at each new account), asks this.
 * Returns null when the caller may grant the key there, else what it lacks ("cluster.update on this cluster").
 */
export function keyNotGrantable(caller: Permissions, key: PermissionKey, clusterId: string | null): string | null {
  return can(caller, key, clusterId) ? null : `${key} ${scopePhrase(clusterId)}`;
}

/**
 * Throws `ForbiddenError` unless the caller may grant the key there; `doing` says what was refused ("map a group to").
 */
export function assertMayGrant(
  caller: Permissions,
  key: PermissionKey,
  clusterId: string | null,
  doing = 'grant',
): void {
  if (keyNotGrantable(caller, key, clusterId) === null) return;
  throw new ForbiddenError(
    `You can ${doing} ${key} ${scopePhrase(clusterId)} only if you hold it ${clusterId ? 'there' : 'on all clusters'}; ask someone who holds it to do it`,
  );
}
