// `npx tsx bench/profile.ts --path /api-system/clusters?page=1 [--user admin] [--seconds 8] [--connections 10]
//   [--database-url URL] [--compiled] [--functions]`: runs the service (production mode) under `node --cpu-prof`, loads one request
// with autocannon, and prints where the busy CPU went, by package (the innermost frame outside node core decides).
// `--scenario <id>` loads a scenario of `npm run bench` instead of one path (writes too, such as cluster-update).
// The database must hold the generated data (`npm run bench:data -- --scale 1`).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { numberArg, parseArgs } from './lib/cli.js';
import { defaultDatabaseUrl } from './lib/db.js';
import { cpuMillis } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { spawnReady } from './lib/processes.js';
import { buildScenarios, loadScenarioData, signIn, signInAll } from './lib/scenarios.js';
import { openDatabase } from './lib/db.js';
import type { LoadRequest } from './lib/load.js';
import { ADMIN, DEMO_PASSWORD } from './datagen/generate.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The package a script belongs to: the last node_modules segment, the project's own folder, or node core. */
function ownerOf(url: string): string {
  if (!url) return '(native / idle)';
  const inModules = url.split('node_modules/').at(-1)!;
  if (inModules !== url)
    return inModules.startsWith('@') ? inModules.split('/').slice(0, 2).join('/') : inModules.split('/')[0]!;
  const own = /\/(server\/src|dist\/server)\/(?:src\/)?([^/]+)/.exec(url);
  if (own) return `app: ${own[2]}`;
  return url.startsWith('node:') ? 'node core' : path.basename(url);
}

/** Shares of busy CPU by package, or by function (`--functions`: name, file and line of the innermost frame). */
function summarize(profile: CpuProfile, byFunction: boolean): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    busy++;
    const where = name === '(garbage collector)' ? 'garbage collector' : ownerOf(node.callFrame.url);
    const owner = byFunction ? `${where}  ${name || '(anonymous)'}:${node.callFrame.lineNumber + 1}` : where;
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / busy]);
}

/** The one path as the chosen user, or every request of a benchmark scenario. */
async function requestsToLoad(baseUrl: string): Promise<LoadRequest[]> {
  const scenarioId = args.get('scenario');
  if (scenarioId) {
    const db = await openDatabase({ url });
    const data = await loadScenarioData(db.knex).finally(() => db.close());
    const scenario = buildScenarios(data).find((s) => s.id === scenarioId);
    if (!scenario) throw new Error(`no scenario "${scenarioId}" (see bench/lib/scenarios.ts)`);
    return scenario.requests(await signInAll(baseUrl));
  }
  const token =
    args.get('user') === 'operator'
      ? await signIn(baseUrl, 'operator', DEMO_PASSWORD)
      : await signIn(baseUrl, ADMIN.username, ADMIN.password);
  return [{ method: 'GET', path: requestPath, headers: { authorization: `Bearer ${token}` } }];
}

const args = parseArgs(process.argv.slice(2));
const url = args.get('database-url') ?? defaultDatabaseUrl(1);
const requestPath = args.get('path') ?? '/api/proxy/api/me/dashboard-widgets';
const profileDir = mkdtempSync(path.join(tmpdir(), 'cpu-prof-'));
const entry = args.has('compiled') ? 'bench/lib/server-process.mjs' : 'bench/lib/server-process.ts';
const server = await spawnReady(
  entry,
  {
    ...process.env,
    NODE_ENV: 'production',
    // Production asks a super admin to set up a second factor first; the run's accounts sign in with a password.
    SECOND_FACTOR_REQUIRED: 'none',
    DATABASE_URL: url,
    JWT_SECRET: 'profile-secret-with-at-least-32-characters!!',
    ADMIN_PASSWORD: 'admin123',
    DEMO_PASSWORD,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: args.get('log-level') ?? 'info',
    AUTH_RATE_PER_IP: '1000000/1s',
    RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
    RATE_LIMIT_PER_ADDRESS: '1000000/1s',
  },
  60_000,
  ['--cpu-prof', '--cpu-prof-dir', profileDir],
);
try {
  const requests = await requestsToLoad(server.url);
  const cpuBefore = cpuMillis(server.process.pid);
  const result = await runLoad(server.url, requests, {
    seconds: numberArg(args, 'seconds', 8),
    connections: numberArg(args, 'connections', 10),
  });
  const cpu = (cpuMillis(server.process.pid) ?? NaN) - (cpuBefore ?? NaN);
  const perRequest = (cpu / result.requests).toFixed(3);
  process.stdout.write(
    `${args.get('scenario') ?? requestPath}: ${result.rps.toFixed(0)} rps, p50 ${result.p50} ms, ${perRequest} CPU ms/req (profiler on), non-2xx ${result.non2xx}\n`,
  );
} finally {
  await server.stop();
}
const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('the server wrote no CPU profile (did it exit cleanly?)');
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
for (const [owner, share] of summarize(profile, args.has('functions')).slice(0, args.has('functions') ? 40 : 18)) {
  process.stdout.write(`${(share * 100).toFixed(1).padStart(5)} %  ${owner}\n`);
}
rmSync(profileDir, { recursive: true, force: true });
