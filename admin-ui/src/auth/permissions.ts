import type { Grants, PermissionKey } from '../types';
import { PERMISSION_KEYS, hasPermission } from './grants';

/** The react-admin actions the console's screens and react-admin itself ask about. */
const ACCESS_ACTIONS = ['list', 'show', 'create', 'edit', 'delete'] as const;
type AccessAction = (typeof ACCESS_ACTIONS)[number];

interface AccessRecord {
  id?: unknown;
  cluster_id?: unknown;
}

/** Decides one action, given the cluster the record belongs to (null before a record is known). */
type Rule = (grants: Grants, clusterId: string | null) => boolean;

const signedIn: Rule = () => true;
const platformWide =
  (key: PermissionKey): Rule =>
  (grants) =>
    hasPermission(grants, key);
/** Before the record is known, a grant on any cluster lets the page open; the page re-checks with the record. */
const onCluster =
  (key: PermissionKey): Rule =>
  (grants, clusterId) =>
    clusterId ? hasPermission(grants, key, clusterId) : hasPermission(grants, key, null, { anyCluster: true });
/** A new cluster belongs to no cluster yet, so only a platform-wide grant can create one. */
const onClusterElsePlatform =
  (key: PermissionKey): Rule =>
  (grants, clusterId) =>
    clusterId ? hasPermission(grants, key, clusterId) : hasPermission(grants, key);

const refused: Rule = () => false;
/** Either rule lets the caller through. */
const either =
  (a: Rule, b: Rule): Rule =>
  (grants, clusterId) =>
    a(grants, clusterId) || b(grants, clusterId);

const { read, create, update, delete: remove, printMappingManage, userRead, userManage, grantManage } = PERMISSION_KEYS;

/**
 * One rule per resource and action. A resource or action missing here is refused, so a new screen stays
 * hidden until someone writes its rule. Business units are checked against their parent cluster's grants.
 */
export const ACCESS_RULES = {
  clusters: {
    list: onCluster(read),
    show: onCluster(read),
    create: onClusterElsePlatform(create),
    edit: onCluster(update),
    delete: onCluster(remove),
  },
  'business-units': {
    list: onCluster(read),
    show: onCluster(read),
    create: onCluster(create),
    edit: onCluster(update),
    delete: onCluster(remove),
  },
  'print-template-mappings': {
    list: signedIn,
    show: signedIn,
    create: platformWide(printMappingManage),
    edit: platformWide(printMappingManage),
    delete: platformWide(printMappingManage),
  },
  // Accounts are platform-wide; they are deactivated, never deleted.
  users: {
    list: platformWide(userRead),
    show: platformWide(userRead),
    create: platformWide(userManage),
    edit: platformWide(userManage),
    delete: refused,
  },
} as const satisfies Record<string, Record<AccessAction, Rule>>;

export type ResourceName = keyof typeof ACCESS_RULES;

/**
 * Pages and parts of pages that are no resource of their own. The audit log shows the events of the clusters the caller
 * may read, and the account events with `user.read`, so either grant opens it. An account's grants are changed with
 * `grant.manage` (the server also checks that the caller holds each key it gives or takes).
 */
export const PAGE_RULES = {
  'audit-log': { list: either(onCluster(read), platformWide(userRead)) },
  'user-grants': { edit: platformWide(grantManage) },
  // Mappings give grants to accounts that single sign-on creates, so they are a grant manager's matter.
  'sso-group-mappings': { list: platformWide(grantManage) },
  // Accounts of partners' systems, and their tokens: like any account (the server adds the delegation rule).
  'service-accounts': {
    list: platformWide(userRead),
    create: platformWide(userManage),
    edit: platformWide(userManage),
  },
  // A webhook delivers what its owner may read in the audit trail, so it needs what the trail's clusters need.
  webhooks: { list: onCluster(read) },
  // Who must use a second factor is the whole platform's matter: a super admin's alone.
  security: { list: (grants) => grants.is_super_admin, edit: (grants) => grants.is_super_admin },
} as const satisfies Record<string, Partial<Record<AccessAction, Rule>>>;

type PageName = keyof typeof PAGE_RULES;
const isPageName = (name: string): name is PageName => Object.hasOwn(PAGE_RULES, name);

const isResourceName = (name: string): name is ResourceName => Object.hasOwn(ACCESS_RULES, name);
const isAccessAction = (action: string): action is AccessAction =>
  (ACCESS_ACTIONS as readonly string[]).includes(action);

/** The cluster a record is checked against: itself for a cluster, its parent for a BU. */
function clusterIdOf(resource: string, record: AccessRecord | null | undefined): string | null {
  if (!record) return null;
  const raw = resource === 'clusters' ? record.id : record.cluster_id;
  return typeof raw === 'string' && raw ? raw : null;
}

export function canAccessWith(
  grants: Grants | null | undefined,
  params: { action: string; resource: string; record?: AccessRecord | null },
): boolean {
  const { action, resource, record } = params;
  if (!grants || !isAccessAction(action)) return false;
  if (isPageName(resource)) {
    const rule: Rule | undefined = (PAGE_RULES[resource] as Partial<Record<AccessAction, Rule>>)[action];
    return rule ? rule(grants, null) : false;
  }
  if (!isResourceName(resource)) return false;
  return ACCESS_RULES[resource][action](grants, clusterIdOf(resource, record));
}
