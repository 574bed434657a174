/** Row counts at 100 % scale (the sizes an operator of a large hotel group reaches). */
export const FULL_SIZES = {
  clusters: 10_000,
  businessUnits: 100_000,
  users: 200_000,
  clusterMemberships: 1_000_000,
  buMemberships: 1_000_000,
  printMappings: 200,
  documents: 100_000,
} as const;

export type Sizes = { -readonly [K in keyof typeof FULL_SIZES]: number } & {
  /** memberships each generated user holds (cluster and BU level) */
  membershipsPerUser: number;
  /** dashboard widgets each generated user keeps */
  widgetsPerUser: number;
};

export const SCALES = [1, 10, 100, 1000] as const;
export type Scale = (typeof SCALES)[number];

export function parseScale(raw: string | undefined, fallback: Scale = 1): Scale {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!SCALES.includes(n as Scale))
    throw new Error(`--scale must be one of ${SCALES.join(', ')} (percent of the full data set), got "${raw}"`);
  return n as Scale;
}

export function sizesFor(scale: Scale): Sizes {
  const f = scale / 100;
  const at = (n: number) => Math.max(1, Math.round(n * f));
  const users = at(FULL_SIZES.users);
  return {
    clusters: at(FULL_SIZES.clusters),
    businessUnits: at(FULL_SIZES.businessUnits),
    users,
    clusterMemberships: at(FULL_SIZES.clusterMemberships),
    buMemberships: at(FULL_SIZES.buMemberships),
    // Never fewer than one per document type, so resolve finds generated rows at every scale.
    printMappings: Math.max(10, at(FULL_SIZES.printMappings)),
    documents: at(FULL_SIZES.documents),
    membershipsPerUser: Math.round(FULL_SIZES.clusterMemberships / FULL_SIZES.users),
    widgetsPerUser: 2,
  };
}
