// What every with/without cost run (metrics, tracing, rate limits) shares: its command line, the generated data it
// runs on, and the service's own quotas set out of its reach.
import { numberArg } from './cli.js';
import { defaultDatabaseUrl, openDatabase, postgresDatabaseExists, recreatePostgresDatabase } from './db.js';
import { generateData } from '../datagen/generate.js';
import type { RunOptions } from './harness.js';
import { parseScale, type Scale } from './scale.js';

/**
 * Quotas no benchmark reaches: it measures the work, not the refusals (`bench/rate-limit-cost.ts` measures what
 * counting costs, with quotas as high as these).
 */
export const LIMITS_OUT_OF_REACH = {
  AUTH_RATE_PER_IP: '1000000/1s',
  RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
  RATE_LIMIT_PER_ADDRESS: '1000000/1s',
  AUTH_HASH_QUEUE: '100000',
  // Production asks a super admin to set up a second factor first; the runs' accounts sign in with a password.
  SECOND_FACTOR_REQUIRED: 'none',
} as const;

export interface CostRun {
  scale: Scale;
  url: string;
  /** The scenarios to run (`--only`, the cluster list's first page by default). */
  only: string[];
  settings: RunOptions;
}

/** Reads `--scale --database-url --only --rounds --seconds --warmup --connections`, generating the data once per scale. */
export async function prepareCostRun(args: Map<string, string>, log: (line: string) => void): Promise<CostRun> {
  const scale = parseScale(args.get('scale'));
  const url = args.get('database-url') ?? defaultDatabaseUrl(scale);
  const only = (args.get('only') ?? 'clusters-page-1').split(',');
  const settings: RunOptions = {
    rounds: numberArg(args, 'rounds', 8),
    seconds: numberArg(args, 'seconds', 5),
    warmupSeconds: numberArg(args, 'warmup', 3),
    connections: numberArg(args, 'connections', 32),
    probeSeconds: 0,
    log,
  };
  if (!(await postgresDatabaseExists(url))) {
    log(`Data: generating scale ${scale} into ${url.replace(/\/\/[^@]*@/, '//')}`);
    await recreatePostgresDatabase(url);
    const db = await openDatabase({ url });
    try {
      await generateData(db.knex, scale);
    } finally {
      await db.close();
    }
  }
  return { scale, url, only, settings };
}
