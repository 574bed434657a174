// A write load whose every acknowledged write is remembered, and the check that each one is in the database.
import type { Knex } from 'knex';

export interface Acks {
  clusters: Map<string, { code: string; name: string }>;
  /** Names sent to a cluster after its create, in order, and the index of the last acknowledged one. */
  renames: Map<string, { sent: string[]; acked: number }>;
  businessUnits: Map<string, { cluster_id: string; code: string }>;
  /** Cluster memberships made with a parent BU: two rows (cluster_users + bu_users) in one transaction. */
  memberships: Map<string, { user_id: string; cluster_id: string; parent_bu_id: string }>;
  mappings: Map<string, { display_label: string }>;
}

export function emptyAcks(): Acks {
  return {
    clusters: new Map(),
    renames: new Map(),
    businessUnits: new Map(),
    memberships: new Map(),
    mappings: new Map(),
  };
}

export function ackCount(a: Acks): number {
  return (
    a.clusters.size +
    a.businessUnits.size +
    a.memberships.size +
    a.mappings.size +
    [...a.renames.values()].filter((r) => r.acked >= 0).length
  );
}

export interface WriteLoadOptions {
  /** Base URLs to spread the load over; a target that stops answering is dropped (failover). */
  targets: string[];
  token: string;
  workers: number;
  /** A prefix unique to this load (codes stay unique across rounds). */
  tag: string;
  userIds: string[];
  reportTemplateId: string;
  acks: Acks;
}

export interface WriteLoad {
  stop(): Promise<void>;
  stats: { sent: number; acked: number; failedConnections: number; refused: Record<number, number> };
}

/** Starts `workers` loops of creates, renames, BU creates, memberships and mapping saves; returns at once. */
export function startWriteLoad(o: WriteLoadOptions): WriteLoad {
  let running = true;
  const live = new Set(o.targets);
  const stats = { sent: 0, acked: 0, failedConnections: 0, refused: {} as Record<number, number> };
  let seq = 0;
  const mine: string[] = [];
  const busOf = new Map<string, string[]>();

  async function send(
    method: string,
    p: string,
    json: unknown,
  ): Promise<{ status: number; body: { id?: string } } | null> {
    const targets = [...live];
    if (targets.length === 0) return null;
    const base = targets[seq % targets.length]!;
    stats.sent++;
    try {
      const res = await fetch(base + p, {
        method,
        headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (res.status >= 300) stats.refused[res.status] = (stats.refused[res.status] ?? 0) + 1;
      return { status: res.status, body: text ? (JSON.parse(text) as { id?: string }) : {} };
    } catch {
      stats.failedConnections++;
      // Connection refused / reset: the process is gone; keep going on the others.
      try {
        await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
      } catch {
        if (live.size > 1) live.delete(base);
      }
      return null;
    }
  }

  async function worker(w: number) {
    while (running) {
      const n = ++seq;
      const kind = n % 5;
      if (kind === 0 || mine.length === 0) {
        const code = `${o.tag}-${w}-${n}`;
        const name = `Crash cluster ${n}`;
        const r = await send('POST', '/api-system/clusters', { code, name });
        if (r?.status === 201 && r.body.id) {
          o.acks.clusters.set(r.body.id, { code, name });
          mine.push(r.body.id);
          stats.acked++;
        }
      } else if (kind === 1) {
        const id = mine[n % mine.length]!;
        const rename = o.acks.renames.get(id) ?? { sent: [], acked: -1 };
        o.acks.renames.set(id, rename);
        const name = `Renamed ${n}`;
        const index = rename.sent.push(name) - 1;
        const r = await send('PUT', `/api-system/clusters/${id}`, { code: o.acks.clusters.get(id)!.code, name });
        if (r?.status === 200) {
          rename.acked = Math.max(rename.acked, index);
          stats.acked++;
        }
      } else if (kind === 2) {
        const cluster = mine[n % mine.length]!;
        const code = `B${n}`;
        const r = await send('POST', '/api-system/business-units', {
          cluster_id: cluster,
          code,
          name: `Crash BU ${n}`,
        });
        if (r?.status === 201 && r.body.id) {
          o.acks.businessUnits.set(r.body.id, { cluster_id: cluster, code });
          busOf.set(cluster, [...(busOf.get(cluster) ?? []), r.body.id]);
          stats.acked++;
        }
      } else if (kind === 3) {
        const cluster = mine[n % mine.length]!;
        const bu = busOf.get(cluster)?.[0];
        const user = o.userIds[n % o.userIds.length]!;
        if (!bu) continue;
        const r = await send('POST', '/api-system/user/clusters', {
          user_id: user,
          cluster_id: cluster,
          parent_bu_id: bu,
        });
        if (r?.status === 201 && r.body.id) {
          o.acks.memberships.set(r.body.id, { user_id: user, cluster_id: cluster, parent_bu_id: bu });
          stats.acked++;
        }
      } else {
        const label = `${o.tag} mapping ${n}`;
        const r = await send('POST', '/api-system/print-template-mappings', {
          document_type: 'GRN',
          report_template_id: o.reportTemplateId,
          is_default: n % 2 === 0,
          display_label: label,
        });
        if (r?.status === 201 && r.body.id) {
          o.acks.mappings.set(r.body.id, { display_label: label });
          stats.acked++;
        }
      }
      if (live.size === 0) break;
    }
  }

  const loops = Array.from({ length: o.workers }, (_, w) => worker(w));
  return {
    stats,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Every acknowledged write is in the database with the acknowledged values; returns the problems found. */
export async function missingAcks(knex: Knex, a: Acks): Promise<string[]> {
  const out: string[] = [];
  const byId = async (table: string, ids: string[], cols: string[]) => {
    const rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < ids.length; i += 500)
      rows.push(
        ...((await knex(table)
          .select(['id', ...cols])
          .whereIn('id', ids.slice(i, i + 500))) as Array<Record<string, unknown>>),
      );
    return new Map(rows.map((r) => [r.id as string, r]));
  };
  const clusters = await byId('clusters', [...a.clusters.keys()], ['code', 'name', 'deleted_at']);
  for (const [id, c] of a.clusters) {
    const row = clusters.get(id);
    if (!row) out.push(`acknowledged cluster ${c.code} is missing`);
    else if (row.code !== c.code || row.deleted_at !== null)
      out.push(`cluster ${c.code} differs: ${JSON.stringify(row)}`);
    else {
      const r = a.renames.get(id);
      // The name is the last acknowledged one or a later one still in flight at the crash, never an older one.
      const allowed = r && r.acked >= 0 ? r.sent.slice(r.acked) : [c.name, ...(r?.sent ?? [])];
      if (!allowed.includes(row.name as string))
        out.push(
          `cluster ${c.code} has name "${String(row.name)}", acknowledged ${r && r.acked >= 0 ? r.sent[r.acked] : c.name}`,
        );
    }
  }
  const bus = await byId('business_units', [...a.businessUnits.keys()], ['cluster_id', 'code']);
  for (const [id, b] of a.businessUnits) {
    const row = bus.get(id);
    if (!row) out.push(`acknowledged business unit ${b.code} is missing`);
    else if (row.cluster_id !== b.cluster_id || row.code !== b.code) out.push(`business unit ${b.code} differs`);
  }
  const members = await byId('cluster_users', [...a.memberships.keys()], ['user_id', 'cluster_id', 'parent_bu_id']);
  for (const [id, m] of a.memberships) {
    const row = members.get(id);
    if (!row) out.push(`acknowledged membership ${id} is missing`);
    else if (row.user_id !== m.user_id || row.cluster_id !== m.cluster_id || row.parent_bu_id !== m.parent_bu_id)
      out.push(`membership ${id} differs`);
    else if (!(await knex('bu_users').where({ user_id: m.user_id, business_unit_id: m.parent_bu_id }).first()))
      out.push(`membership ${id} lost its BU membership`);
  }
  const mappings = await byId('print_template_mappings', [...a.mappings.keys()], ['display_label']);
  for (const [id, m] of a.mappings) {
    const row = mappings.get(id);
    if (!row) out.push(`acknowledged mapping ${m.display_label} is missing`);
  }
  return out;
}
