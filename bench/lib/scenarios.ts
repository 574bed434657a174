import type { Knex } from 'knex';
import { ADMIN, BENCH_PASSWORD, BU_PREFIX, CLUSTER_PREFIX, DEMO_PASSWORD, benchUsername } from '../datagen/generate.js';
import type { LoadRequest } from './load.js';

/** What the scenarios need from the generated database, looked up once per run. */
export interface ScenarioData {
  clusterIds: string[];
  buCodes: string[];
  /** generated usernames (each matches exactly one user at every scale) */
  searchTerms: string[];
  loginUsers: string[];
  clusterPages: number;
  operatorWidgetId: string;
  /** clusters the write scenario updates: more than the load connections, so each request has one of its own */
  writeClusters: WritableCluster[];
  /**
   * The service's cursor to the deep page (`paginate.next_cursor` of the page before it, for the admin), filled in by
   * `deepPageCursor` once the server runs; without it the cursor scenario is left out.
   */
  deepCursor?: string;
}

export interface WritableCluster {
  id: string;
  code: string;
  name: string;
  max_license_bu: number | null;
  is_active: boolean;
}

export interface Tokens {
  admin: string;
  operator: string;
}

/**
 * 'ratio': throughput ≥ 0.8 and p99 ≤ 1.5 × the baseline's; 'ratio-resolve': the same with throughput ≥ 1.0;
 * 'ratio-write': throughput ≥ 0.8; 'none': measured only.
 */
export type GoalKind = 'ratio' | 'ratio-resolve' | 'ratio-write' | 'none';

export interface Scenario {
  id: string;
  title: string;
  goal: GoalKind;
  /** read scenarios carry the cost-growth goal (p50 at 100 % ≤ 1.3 × p50 at 1 %) */
  read: boolean;
  requests(t: Tokens): LoadRequest[];
  /** what the request does at this scale, for the report */
  note: string;
  /** measured on the service alone: a way of asking the peers do not offer (cursor paging) */
  serverOnly?: boolean;
}

/** The deep cluster page's cursor as the service hands it to the admin: the next cursor of the page before it. */
export async function deepPageCursor(baseUrl: string, tokens: Tokens, d: ScenarioData): Promise<string | undefined> {
  const deepPage = Math.min(500, d.clusterPages);
  if (deepPage < 2) return undefined;
  const res = await fetch(`${baseUrl}/api-system/clusters?page=${deepPage - 1}&perpage=10`, {
    headers: bearer(tokens.admin),
  });
  if (!res.ok) throw new Error(`the cluster page before the deep page answered ${res.status}`);
  return ((await res.json()) as { paginate: { next_cursor?: string | null } }).paginate.next_cursor ?? undefined;
}

const SAMPLE = 50;
/** Clusters the write scenario cycles through: well above any connection count in use. */
const WRITE_CLUSTERS = 200;

export async function loadScenarioData(knex: Knex): Promise<ScenarioData> {
  const clusters = await knex('clusters')
    .select<Array<{ id: string }>>('id')
    .whereLike('code', `${CLUSTER_PREFIX}%`)
    .whereNull('deleted_at')
    .orderByRaw('md5(id::text)')
    .limit(SAMPLE);
  const bus = await knex('business_units')
    .select<Array<{ code: string }>>('code')
    .whereLike('code', `${BU_PREFIX}%`)
    .whereNull('deleted_at')
    .orderByRaw('md5(id::text)')
    .limit(SAMPLE);
  const [live] = await knex('clusters').count<Array<{ n: string | number }>>({ n: '*' }).whereNull('deleted_at');
  const [generatedUsers] = await knex('users')
    .count<Array<{ n: string | number }>>({ n: '*' })
    .whereLike('username', 'bu0%');
  const nUsers = Number(generatedUsers?.n ?? 0);
  const operator = await knex('users')
    .select<Array<{ id: string }>>('id')
    .whereRaw('lower(username) = ?', ['operator'])
    .first();
  const widget = operator
    ? await knex('dashboard_widgets')
        .select<Array<{ id: string }>>('id')
        .where({ user_id: operator.id })
        .orderBy('order_index')
        .first()
    : undefined;
  if (clusters.length === 0 || bus.length === 0 || nUsers === 0)
    throw new Error('no generated data: run the data generator first');
  if (!widget) throw new Error('the operator account has no dashboard widget (demo data not loaded?)');
  const writeClusters = await knex('clusters')
    .select<WritableCluster[]>('id', 'code', 'name', 'max_license_bu', 'is_active')
    .whereLike('code', `${CLUSTER_PREFIX}%`)
    .whereNull('deleted_at')
    .orderBy('code')
    .limit(WRITE_CLUSTERS);
  // Spread over the generated users; active ones only (every 50th is inactive and cannot sign in).
  const picks = Array.from({ length: SAMPLE }, (_, i) => 1 + ((i * 37) % nUsers)).filter((n) => n % 50 !== 0);
  return {
    clusterIds: clusters.map((c) => c.id),
    buCodes: bus.map((b) => b.code),
    searchTerms: picks.map(benchUsername),
    loginUsers: picks.map(benchUsername),
    clusterPages: Math.max(1, Math.ceil(Number(live?.n ?? 0) / 10)),
    operatorWidgetId: widget.id,
    writeClusters,
  };
}

export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200)
    throw new Error(`sign-in of ${username} at ${baseUrl} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function signInAll(baseUrl: string): Promise<Tokens> {
  return {
    admin: await signIn(baseUrl, ADMIN.username, ADMIN.password),
    operator: await signIn(baseUrl, 'operator', DEMO_PASSWORD),
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * PUT of whole clusters with If-Match, every request a real write (alias_name alternates between two values). Each
 * in-flight request holds a cluster of its own, taken from a free list; its answer returns the cluster to the list
 * with the new ETag, which the next request on it sends. A cluster's first request in a run carries no If-Match (the
 * contract lets a client without a version write; the rows were last written by the other target). A fresh list per
 * run, so the targets never share one.
 */
function clusterUpdates(clusters: WritableCluster[], token: string): LoadRequest[] {
  interface Slot {
    cluster: WritableCluster;
    etag?: string;
    flip: boolean;
  }
  const slots = new Map(clusters.map((c): [string, Slot] => [c.id, { cluster: c, flip: false }]));
  const free = [...slots.values()];
  const put = (slot: Slot): LoadRequest => {
    slot.flip = !slot.flip;
    const c = slot.cluster;
    return {
      method: 'PUT',
      path: `/api-system/clusters/${c.id}`,
      headers: {
        'content-type': 'application/json',
        ...bearer(token),
        ...(slot.etag ? { 'if-match': slot.etag } : {}),
      },
      body: JSON.stringify({
        code: c.code,
        name: c.name,
        alias_name: slot.flip ? 'BWA' : 'BWB',
        max_license_bu: c.max_license_bu,
        is_active: c.is_active,
      }),
    };
  };
  return [
    {
      ...put({ cluster: clusters[0]!, flip: false }),
      // With every cluster in flight (more connections than clusters) the first one is written without a version.
      setupRequest: () => {
        const slot = free.shift();
        return slot ? put(slot) : put({ cluster: clusters[0]!, flip: false });
      },
      onResponse: (_status, body, _context, headers) => {
        let id: unknown;
        try {
          id = (JSON.parse(body) as { id?: unknown }).id;
        } catch {
          return;
        }
        const slot = typeof id === 'string' ? slots.get(id) : undefined;
        if (!slot || free.includes(slot)) return;
        slot.etag = headers.etag;
        free.push(slot);
      },
    },
  ];
}

export function buildScenarios(d: ScenarioData): Scenario[] {
  const deepPage = Math.min(500, d.clusterPages);
  const clusterList = (t: Tokens, page: number): LoadRequest => ({
    method: 'GET',
    path: `/api-system/clusters?page=${page}&perpage=10`,
    headers: bearer(t.admin),
  });
  const buList = (t: Tokens, i: number): LoadRequest => ({
    method: 'GET',
    path: `/api-system/business-units?cluster_id=${d.clusterIds[i % d.clusterIds.length]}&page=1&perpage=10`,
    headers: bearer(t.admin),
  });
  const userSearch = (t: Tokens, i: number): LoadRequest => ({
    method: 'GET',
    path: `/api-system/user?search=${encodeURIComponent(d.searchTerms[i % d.searchTerms.length]!)}&page=1&perpage=10`,
    headers: bearer(t.admin),
  });
  const DOC_TYPES = ['PR', 'PO', 'GRN', 'SR', 'CN', 'IA', 'PC', 'SC', 'RFQ', 'INV'];
  const resolve = (t: Tokens, i: number): LoadRequest => ({
    method: 'GET',
    path: `/api-system/print-template-mappings/resolve?document_type=${DOC_TYPES[i % DOC_TYPES.length]}&bu_code=${d.buCodes[i % d.buCodes.length]}`,
    headers: bearer(t.operator),
  });
  const widgets = (t: Tokens): LoadRequest => ({
    method: 'GET',
    path: '/api/proxy/api/me/dashboard-widgets',
    headers: bearer(t.operator),
  });
  const widgetPatch = (t: Tokens, body: object): LoadRequest => ({
    method: 'PATCH',
    path: `/api/proxy/api/me/dashboard-widgets/${d.operatorWidgetId}`,
    headers: bearer(t.operator),
    body: JSON.stringify(body),
  });
  const many = (f: (i: number) => LoadRequest) => Array.from({ length: SAMPLE }, (_, i) => f(i));
  /** The deep cluster page by its cursor (the service alone: the peers page by offset), with `query` added. */
  const cursorScenario = (id: string, title: string, note: string, query: string) => ({
    id,
    title,
    goal: 'none' as const,
    read: true,
    serverOnly: true,
    note,
    requests: (t: Tokens): LoadRequest[] => [
      {
        method: 'GET',
        path: `/api-system/clusters?perpage=10&cursor=${encodeURIComponent(d.deepCursor!)}${query}`,
        headers: bearer(t.admin),
      },
    ],
  });

  return [
    {
      id: 'clusters-page-1',
      title: 'Cluster list, page 1 with counts',
      goal: 'ratio',
      read: true,
      note: 'page 1 of 10, default sort, bu/users counts',
      requests: (t) => [clusterList(t, 1)],
    },
    {
      id: 'clusters-page-500',
      title: 'Cluster list, page 500 with counts',
      goal: 'ratio',
      read: true,
      note: `page ${deepPage} of ${d.clusterPages}${deepPage < 500 ? ' (the last page: fewer than 500 pages at this scale)' : ''}`,
      requests: (t) => [clusterList(t, deepPage)],
    },
    ...(d.deepCursor
      ? [
          cursorScenario(
            'clusters-cursor-500',
            'Cluster list, page 500 by cursor',
            `page ${deepPage} by its cursor (keyset) instead of its offset; the service alone`,
            '',
          ),
          cursorScenario(
            'clusters-cursor-500-estimate',
            'Cluster list, page 500 by cursor, estimated total',
            `page ${deepPage} by its cursor with total=estimate: no count of every cluster; the service alone`,
            '&total=estimate',
          ),
        ]
      : []),
    {
      id: 'bu-by-cluster',
      title: 'Business units filtered by cluster',
      goal: 'ratio',
      read: true,
      note: `${SAMPLE} clusters in turn, page 1`,
      requests: (t) => many((i) => buList(t, i)),
    },
    {
      id: 'user-search',
      title: 'User search',
      goal: 'ratio',
      read: true,
      note: `${d.searchTerms.length} usernames in turn (one match each)`,
      requests: (t) => many((i) => userSearch(t, i)),
    },
    {
      id: 'mapping-resolve',
      title: 'Print-mapping resolve',
      goal: 'ratio-resolve',
      read: true,
      note: `10 document types × ${SAMPLE} BU codes`,
      requests: (t) => many((i) => resolve(t, i)),
    },
    {
      id: 'cluster-update',
      title: 'Cluster update with If-Match',
      goal: 'ratio-write',
      read: false,
      note: `PUT of ${d.writeClusters.length} clusters in turn, each with its current ETag; alias_name alternates`,
      requests: (t) => clusterUpdates(d.writeClusters, t.admin),
    },
    {
      id: 'widget-list',
      title: 'Widget list',
      goal: 'none',
      read: true,
      note: "the operator's own widgets",
      requests: (t) => [widgets(t)],
    },
    {
      id: 'login-burst',
      title: 'Login burst',
      goal: 'none',
      read: false,
      note: `${d.loginUsers.length} users in turn; scrypt N=16384 per sign-in`,
      requests: () =>
        d.loginUsers.map((u) => ({
          method: 'POST',
          path: '/api/auth/login',
          body: JSON.stringify({ username: u, password: BENCH_PASSWORD }),
        })),
    },
    {
      id: 'mixed',
      title: 'Mixed read/write',
      goal: 'none',
      read: false,
      note: '8 reads (lists, search, resolve, widgets) : 2 widget writes',
      requests: (t) =>
        many((i) => {
          switch (i % 10) {
            case 0:
            case 6:
              return clusterList(t, 1);
            case 1:
            case 7:
              return buList(t, i);
            case 2:
            case 8:
              return resolve(t, i);
            case 3:
              return widgets(t);
            case 4:
              return widgetPatch(t, { title: `Pending ${i}` });
            case 5:
              return userSearch(t, i);
            default:
              return widgetPatch(t, { order_index: 10 });
          }
        }),
    },
  ];
}
