import type { Knex } from 'knex';
import { can, canSeeCluster, type PermissionKey, type Permissions } from '../../core/permissions.js';
import type { AuditEvent } from './repository.js';

/** What an event shows in place of a cluster its reader may not see (documented in the contract's AuditEvent). */
export const ANOTHER_CLUSTER = '[another cluster]';

/** Any of these held on all clusters (or super admin) means the reader sees every cluster: nothing to hide. */
const CLUSTER_KEYS: PermissionKey[] = ['cluster.read', 'cluster.create', 'cluster.update', 'cluster.delete'];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The clusters one reader may not see: id (lower case) → code. */
export type HiddenClusters = ReadonlyMap<string, string>;

/**
 * The clusters `perms` holds no grant on, or null when it sees them all. Read once per list page or export, before
 * an export's cursor opens: on the embedded database the cursor holds the only connection until the export ends.
 */
export async function hiddenClusters(knex: Knex, perms: Permissions): Promise<HiddenClusters | null> {
  if (CLUSTER_KEYS.some((key) => can(perms, key))) return null;
  const visible = Object.keys(perms.clusters).filter((id) => canSeeCluster(perms, id));
  const query = knex('clusters').select('id', 'code');
  if (visible.length > 0) query.whereNotIn('id', visible);
  const rows = (await query) as Array<{ id: string; code: string }>;
  return new Map(rows.map((r) => [r.id.toLowerCase(), r.code]));
}

/**
 * The event as a reader who may not see the `hidden` clusters is shown it: each hidden cluster it names, by id
 * anywhere in its changes (a moved unit's former cluster, a grant's scope, an id inside a text) and, within an event
 * that names it by id, by its code, reads ANOTHER_CLUSTER; the event's own cluster and target ids, which the contract
 * bounds to ids, become null. The list shows only events of clusters the reader may read, so those two rarely change.
 */
export function asSeenBy(event: AuditEvent, hidden: HiddenClusters | null): AuditEvent {
  if (!hidden || hidden.size === 0) return event;
  const named = new Set<string>();
  const collect = (text: string) => {
    for (const [id] of text.matchAll(UUID)) if (hidden.has(id.toLowerCase())) named.add(id.toLowerCase());
  };
  for (const text of [event.cluster_id, event.target_id]) if (text) collect(text);
  walkStrings(event.changes, collect);
  walkStrings(event.labels, collect);
  if (named.size === 0) return event;

  const codes = new Set([...named].map((id) => hidden.get(id)!));
  const hide = (text: string): string => {
    if (codes.has(text)) return ANOTHER_CLUSTER;
    return text.replace(UUID, (id) => (named.has(id.toLowerCase()) ? ANOTHER_CLUSTER : id));
  };
  const isHidden = (id: string | null) => id !== null && named.has(id.toLowerCase());
  return {
    ...event,
    cluster_id: isHidden(event.cluster_id) ? null : event.cluster_id,
    target_id: isHidden(event.target_id) ? null : event.target_id,
    changes: mapStrings(event.changes, hide) as AuditEvent['changes'],
    ...(event.labels ? { labels: labelsAsSeen(event.labels, hide, isHidden) } : {}),
  };
}

/**
 * An event's labels with a hidden cluster's code read ANOTHER_CLUSTER; a hidden grant scope's id, which the contract
 * bounds to ids, is null.
 */
function labelsAsSeen(
  labels: NonNullable<AuditEvent['labels']>,
  hide: (text: string) => string,
  isHidden: (id: string | null) => boolean,
): NonNullable<AuditEvent['labels']> {
  const seen = mapStrings(labels, hide) as NonNullable<AuditEvent['labels']>;
  if (labels.scope_id !== undefined && isHidden(labels.scope_id)) seen.scope_id = null;
  // A cluster hidden by its code is hidden by its name too.
  if (seen.cluster === ANOTHER_CLUSTER && seen.cluster_name !== undefined) seen.cluster_name = ANOTHER_CLUSTER;
  return seen;
}

/** The events of one page or export batch as their reader is shown them. */
export function allAsSeenBy(events: AuditEvent[], hidden: HiddenClusters | null): AuditEvent[] {
  return hidden ? events.map((e) => asSeenBy(e, hidden)) : events;
}

/**
 * Visits every string value in a JSON value. Iterative, not recursive: a recorded change may hold a free-form value
 * nested as deep as a request allowed.
 */
function walkStrings(value: unknown, visit: (text: string) => void): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') visit(node);
    else if (typeof node === 'object' && node !== null)
      for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
}

/** A copy of a JSON value with every string value passed through `map` (iteratively, as `walkStrings`). */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  const copy = (node: unknown): unknown =>
    typeof node === 'string'
      ? map(node)
      : Array.isArray(node)
        ? [...(node as unknown[])]
        : typeof node === 'object' && node !== null
          ? { ...node }
          : node;
  const root = copy(value);
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | unknown[] | null;
    if (typeof node !== 'object' || node === null) continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(node)
      ? node.map((v, i) => [i, v])
      : Object.entries(node);
    for (const [key, child] of entries) {
      const copied = copy(child);
      (node as Record<string | number, unknown>)[key] = copied;
      if (typeof copied === 'object' && copied !== null) stack.push(copied);
    }
  }
  return root;
}
