import { randomUUID } from 'node:crypto';
import { insertBatched, type SeedContext } from './context.js';
import { STORY_IDS } from './story.js';

const CURRENCIES = [
  ['THB', 'Thai Baht', '฿', 2],
  ['USD', 'US Dollar', '$', 2],
  ['EUR', 'Euro', '€', 2],
  ['GBP', 'Pound Sterling', '£', 2],
  ['JPY', 'Japanese Yen', '¥', 0],
  ['SGD', 'Singapore Dollar', 'S$', 2],
  ['CNY', 'Chinese Yuan', '¥', 2],
] as const;

const CLUSTERS = [
  { code: 'CL-A', name: 'Andaman Hotels Group', alias_name: 'AHG', max_license_bu: 5 },
  { code: 'CL-B', name: 'Bangkok Boutique Collection', alias_name: 'BBC', max_license_bu: 10 },
  { code: 'CL-C', name: 'Chiang Mai Resorts', alias_name: 'CMR', max_license_bu: null },
] as const;

const BUS = [
  { cluster: 'CL-A', code: 'A-HQ', name: 'Andaman Head Office', is_hq: true, max_license_users: 20 },
  { cluster: 'CL-A', code: 'A-PKT', name: 'Andaman Phuket Beach', is_hq: false, max_license_users: 10 },
  { cluster: 'CL-A', code: 'A-KBI', name: 'Andaman Krabi Bay', is_hq: false, max_license_users: 3 },
  { cluster: 'CL-B', code: 'B-HQ', name: 'Bangkok Boutique Office', is_hq: true, max_license_users: 20 },
  { cluster: 'CL-B', code: 'B-SKV', name: 'Sukhumvit Residence', is_hq: false, max_license_users: 10 },
  { cluster: 'CL-C', code: 'C-NMN', name: 'Nimman Garden Resort', is_hq: true, max_license_users: null },
] as const;

// [username, cluster, role, parent BU code or null, extra BU codes]
const MEMBERS: Array<[string, string, 'admin' | 'user', string | null, string[]]> = [
  ['editor-a', 'CL-A', 'admin', 'A-HQ', []],
  ['operator', 'CL-A', 'user', 'A-PKT', ['A-HQ']],
  ['operator', 'CL-B', 'user', null, ['B-SKV']],
  ['viewer', 'CL-B', 'user', 'B-HQ', []],
  ['somchai', 'CL-A', 'user', 'A-PKT', []],
  ['suda', 'CL-A', 'user', 'A-KBI', []],
  ['anan', 'CL-A', 'user', null, []],
  ['malee', 'CL-B', 'admin', 'B-HQ', []],
  ['niran', 'CL-B', 'user', 'B-SKV', []],
  ['john', 'CL-C', 'user', 'C-NMN', []],
];

const FORMAT = { locales: 'th-TH', minimumIntegerDigits: 2 };

export async function seedTenancy(ctx: SeedContext): Promise<void> {
  const { trx } = ctx;
  const actor = ctx.users.admin ?? null;

  const currencies = CURRENCIES.map(([code, name, symbol, decimal_places]) => ({
    id: ctx.config.seedDemo && code === 'THB' ? STORY_IDS.thb : randomUUID(),
    code,
    name,
    symbol,
    decimal_places,
    description: `${name} (${code})`,
    is_active: true,
  }));
  await insertBatched(trx, 'currencies', currencies);
  for (const c of currencies) ctx.currencies[c.code] = c.id;
  // Currencies are reference data; the tenants below are the demo.
  if (!ctx.config.seedDemo) return;

  // The records the contract's examples show keep the examples' ids (story.ts).
  const clusters = CLUSTERS.map((c) => ({
    id: c.code === 'CL-A' ? STORY_IDS.clusterA : randomUUID(),
    ...c,
    created_by_id: actor,
    updated_by_id: actor,
  }));
  await insertBatched(trx, 'clusters', clusters);
  for (const c of clusters) ctx.clusters[c.code] = c.id;

  const bus = BUS.map((b) => {
    const clusterId = ctx.clusters[b.cluster]!;
    return {
      id: b.code === 'A-PKT' ? STORY_IDS.buPkt : randomUUID(),
      cluster_id: clusterId,
      code: b.code,
      name: b.name,
      alias_name: b.code.slice(-3),
      description: `${b.name} demo business unit`,
      is_hq: b.is_hq,
      max_license_users: b.max_license_users,
      hotel_name: b.name,
      hotel_email: `${b.code.toLowerCase()}@example.com`,
      company_name: CLUSTERS.find((c) => c.code === b.cluster)!.name,
      timezone: 'Asia/Bangkok',
      date_format: 'DD/MM/YYYY',
      date_time_format: 'DD/MM/YYYY HH:mm',
      time_format: 'HH:mm',
      long_time_format: 'HH:mm:ss',
      short_time_format: 'HH:mm',
      perpage_format: JSON.stringify({ default: 10 }),
      amount_format: JSON.stringify(FORMAT),
      quantity_format: JSON.stringify(FORMAT),
      recipe_format: JSON.stringify(FORMAT),
      calculation_method: 'average',
      default_currency_id: ctx.currencies.THB ?? null,
      config: JSON.stringify([{ key: 'tax_rate', label: 'Tax rate', datatype: 'number', value: 7 }]),
      created_by_id: actor,
      updated_by_id: actor,
    };
  });
  await insertBatched(trx, 'business_units', bus);
  for (const b of bus) ctx.businessUnits[b.code] = { id: b.id, clusterId: b.cluster_id, code: b.code };

  const clusterUsers: object[] = [];
  const buUsers = new Map<string, object>();
  const addBu = (userId: string, code: string, isDefault: boolean) => {
    const bu = ctx.businessUnits[code]!;
    const k = `${userId}:${bu.id}`;
    if (!buUsers.has(k))
      buUsers.set(k, {
        id: userId === ctx.users.somchai && code === 'A-PKT' ? STORY_IDS.somchaiInBuPkt : randomUUID(),
        user_id: userId,
        business_unit_id: bu.id,
        role: 'user',
        is_active: true,
        is_default: isDefault,
        created_by_id: actor,
      });
  };
  for (const [username, cluster, role, parent, extra] of MEMBERS) {
    const userId = ctx.users[username];
    if (!userId) continue;
    clusterUsers.push({
      id: username === 'somchai' && cluster === 'CL-A' ? STORY_IDS.somchaiInClusterA : randomUUID(),
      user_id: userId,
      cluster_id: ctx.clusters[cluster],
      role,
      is_active: true,
      parent_bu_id: parent ? ctx.businessUnits[parent]!.id : null,
      created_by_id: actor,
    });
    if (parent) addBu(userId, parent, true);
    for (const code of extra) addBu(userId, code, false);
  }
  await insertBatched(trx, 'cluster_users', clusterUsers);
  await insertBatched(trx, 'bu_users', [...buUsers.values()]);

  // somchai may edit CL-A: the grant the contract's examples show.
  if (ctx.users.somchai && ctx.clusters['CL-A']) {
    await insertBatched(trx, 'permission_grants', [
      {
        id: STORY_IDS.somchaiGrant,
        user_id: ctx.users.somchai,
        permission_key: 'cluster.update',
        cluster_id: ctx.clusters['CL-A'],
      },
    ]);
  }

  // editor-a manages CL-A only.
  const editor = ctx.users['editor-a'];
  if (editor && ctx.clusters['CL-A']) {
    await insertBatched(
      trx,
      'permission_grants',
      ['cluster.read', 'cluster.create', 'cluster.update', 'cluster.delete'].map((key) => ({
        user_id: editor,
        permission_key: key,
        cluster_id: ctx.clusters['CL-A'],
      })),
    );
  }
}
