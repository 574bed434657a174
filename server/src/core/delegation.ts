import { ForbiddenError } from './errors.js';
import { can, type AuthContext, type PermissionKey, type Permissions } from './permissions.js';

/** One key an account holds, and where: `cluster_id` null means on all clusters. */
export interface HeldKey {
  permission_key: PermissionKey;
  cluster_id: string | null;
}

/** What the delegation rule needs to know of the account acted on. */
export interface TargetStanding {
  is_super_admin: boolean;
  keys: readonly HeldKey[];
}

/**
 * The delegation rule, the one answer to "may this caller act on that account?" for every operation that targets an
 * account (profile, email, username, password, deactivation, unlock, sessions, SSO settings, grants):
 * - only a super admin acts on a super admin;
 * - anyone else may act on an account only when every key that account holds, on every scope, is also the caller's
 *   on that scope (a key the caller holds on all clusters covers every cluster).
 *
 * So a help-desk account can reset the password of the people it could have granted, never of someone who holds more
 * than it does: acting on an account is never a way to become it. Returns the first key the caller lacks, or null.
 */
export function keyBeyondCaller(caller: Permissions, target: TargetStanding): HeldKey | 'super_admin' | null {
  if (caller.is_super_admin) return null;
  if (target.is_super_admin) return 'super_admin';
  return target.keys.find((k) => !can(caller, k.permission_key, k.cluster_id)) ?? null;
}

/**
 * Throws `ForbiddenError` unless the delegation rule lets the caller act on the account. `action` is the verb phrase
 * of what was refused, as it reads before "this account" (e.g. "reset the password of"). The answer names the first
 * key the caller lacks, so whoever asks for help knows whom to ask.
 */
export function assertMayActOn(auth: AuthContext | Permissions, target: TargetStanding, action: string): void {
  const caller = 'permissions' in auth ? auth.permissions : auth;
  const beyond = keyBeyondCaller(caller, target);
  if (beyond === null) return;
  if (beyond === 'super_admin') {
    throw new ForbiddenError(`Only a super admin may ${action} a super admin`);
  }
  const where = beyond.cluster_id ? `on cluster ${beyond.cluster_id}` : 'on all clusters';
  throw new ForbiddenError(
    `You may not ${action} this account: it holds ${beyond.permission_key} ${where}, which you do not hold there. ` +
      'Ask an administrator who holds every key this account holds.',
  );
}
