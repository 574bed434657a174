// `npm run bench -- --scale 1|10|100|1000 [--database-url URL]`: the load scenarios against the service and the bare
// baseline, alternating, then `npm start` cold/warm on PGlite; writes bench/results/<date>.md (+ a JSON record).
//
// Before measuring, every scenario's answers of the service and the baseline are compared (bench/lib/compare.ts);
// a difference fails the run.
//
// Options: --rounds 3  --seconds 5  --warmup 2  --connections 32  --probe 3  --only id,id  --regenerate  --no-baseline
//          --no-bare  --no-startup  --log-level info  --compiled (the built dist/ server under plain node instead of tsx)
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberArg, parseArgs } from './lib/cli.js';
import { defaultDatabaseUrl, openDatabase, postgresDatabaseExists, recreatePostgresDatabase } from './lib/db.js';
import { compareTargets, formatDifferences } from './lib/compare.js';
import { ensureCompiledServer } from './lib/compiled.js';
import { rssMb, runScenario, type Target } from './lib/harness.js';
import { ROOT, spawnReady, type Child } from './lib/processes.js';
import { markdownReport, summaryTable, type RunRecord } from './lib/report.js';
import { parseScale, sizesFor } from './lib/scale.js';
import { buildScenarios, deepPageCursor, loadScenarioData, signInAll } from './lib/scenarios.js';
import { measureStartup } from './lib/startup.js';
import { generateData, generatedClusterCount } from './datagen/generate.js';

const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const log = (line: string) => process.stderr.write(`${line}\n`);

function latestRecord(scale: number, exceptFile?: string): RunRecord | undefined {
  let files: string[] = [];
  try {
    files = readdirSync(RESULTS_DIR).filter((f) => f.endsWith(`-scale${scale}.json`) && f !== exceptFile);
  } catch {
    return undefined;
  }
  const newest = files.sort().at(-1);
  return newest ? (JSON.parse(readFileSync(path.join(RESULTS_DIR, newest), 'utf8')) as RunRecord) : undefined;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const args = parseArgs(process.argv.slice(2));
  const scale = parseScale(args.get('scale'));
  const sizes = sizesFor(scale);
  const url = args.get('database-url') ?? defaultDatabaseUrl(scale);
  const settings = {
    rounds: numberArg(args, 'rounds', 3),
    seconds: numberArg(args, 'seconds', 5),
    warmupSeconds: args.has('warmup') ? Number(args.get('warmup')) : 2,
    // The figures the team quotes were taken at 32 connections.
    connections: numberArg(args, 'connections', 32),
    probeSeconds: args.has('probe') ? Number(args.get('probe')) : 3,
    logLevel: args.get('log-level') ?? 'info',
    nodeEnv: 'production',
    serverBuild: args.has('compiled') ? ('compiled' as const) : ('tsx' as const),
  };
  const only = args
    .get('only')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const startedAt = new Date().toISOString();

  // Data: reuse the scale's database when it holds exactly this scale's generated rows.
  log(`Scale ${scale} % on ${url.replace(/\/\/[^@]*@/, '//')}`);
  let generation: RunRecord['generation'];
  let reuse = false;
  if (!args.has('regenerate') && (await postgresDatabaseExists(url))) {
    const probe = await openDatabase({ url });
    try {
      reuse = (await generatedClusterCount(probe.knex)) === sizes.clusters;
    } finally {
      await probe.close();
    }
  }
  if (reuse) {
    log('Data: reusing the generated rows already in the database (--regenerate to rebuild)');
    generation = { seconds: 0, reused: true };
  } else {
    log('Data: generating');
    await recreatePostgresDatabase(url);
    const db = await openDatabase({ url });
    try {
      const g = await generateData(db.knex, scale);
      generation = { seconds: g.seconds, reused: false };
    } finally {
      await db.close();
    }
  }

  const jwtSecret = randomBytes(36).toString('base64url');
  const children: Child[] = [];
  const record: RunRecord = {
    startedAt,
    scale,
    sizes,
    engine: 'postgres',
    settings,
    machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: os.loadavg() },
    generation,
    processes: {},
    scenarios: [],
  };
  try {
    const serverEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      JWT_SECRET: jwtSecret,
      ADMIN_PASSWORD: 'admin123',
      DEMO_PASSWORD: 'demo1234',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: settings.logLevel,
      DATA_DIR: path.join(os.tmpdir(), 'bench-server-data'),
      // The scenarios sign in from one address far faster than a person would (the login burst measures scrypt
      // throughput): the sign-in rate buckets would refuse most of it. bench/login-flood.ts measures them instead.
      AUTH_RATE_PER_IP: '1000000/1s',
      // Likewise every other operation: the scenarios send thousands of requests a second as one account.
      RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
      RATE_LIMIT_PER_ADDRESS: '1000000/1s',
      // Production asks a super admin to set up a second factor before anything else; the scenarios' accounts sign
      // in with a password, as the reads they measure are the same for either.
      SECOND_FACTOR_REQUIRED: 'none',
      // 32 connections signing in at once would overflow the production queue of waiting hashes (32) and be refused;
      // the burst measures hashing, so every sign-in waits for its turn.
      AUTH_HASH_QUEUE: '100000',
    };
    if (settings.serverBuild === 'compiled') ensureCompiledServer(log);
    const server = await spawnReady(
      settings.serverBuild === 'compiled' ? 'bench/lib/server-process.mjs' : 'bench/lib/server-process.ts',
      serverEnv,
    );
    children.push(server);
    (record.processes ??= {}).server = { startMs: server.readyMs, idleRssMb: rssMb(server.process.pid) };
    log(`Server   ${server.url} (${settings.serverBuild}, ready in ${server.readyMs.toFixed(0)} ms)`);
    const targets: Target[] = [];
    const data = await (async () => {
      const db = await openDatabase({ url });
      try {
        return await loadScenarioData(db.knex);
      } finally {
        await db.close();
      }
    })();
    const tokens = await signInAll(server.url);
    targets.push({ name: 'server', url: server.url, tokens, pid: server.process.pid });
    if (!args.has('no-baseline')) {
      const baseline = await spawnReady('bench/baseline/server.ts', {
        ...process.env,
        DATABASE_URL: url,
        JWT_SECRET: jwtSecret,
        PORT: '0',
      });
      children.push(baseline);
      (record.processes ??= {}).baseline = { startMs: baseline.readyMs, idleRssMb: rssMb(baseline.process.pid) };
      log(`Baseline ${baseline.url} (ready in ${baseline.readyMs.toFixed(0)} ms)`);
      targets.push({ name: 'baseline', url: baseline.url, tokens, pid: baseline.process.pid });
    }
    if (!args.has('no-bare')) {
      // The physical limit of the reads: the baseline's statements without their caller check, no token check.
      const bare = await spawnReady('bench/baseline/server.ts', {
        ...process.env,
        DATABASE_URL: url,
        JWT_SECRET: jwtSecret,
        PORT: '0',
        BARE: '1',
      });
      children.push(bare);
      (record.processes ??= {}).bare = { startMs: bare.readyMs, idleRssMb: rssMb(bare.process.pid) };
      log(`Bare     ${bare.url} (ready in ${bare.readyMs.toFixed(0)} ms)`);
      targets.push({ name: 'bare', url: bare.url, tokens, pid: bare.process.pid });
    }
    data.deepCursor = await deepPageCursor(server.url, tokens, data);

    const scenarios = buildScenarios(data).filter((s) => !only || only.includes(s.id));
    const peered = scenarios.filter((s) => !s.serverOnly);
    const bareTarget = targets.find((t) => t.name === 'bare');
    if (bareTarget) {
      // The bare limit answers the reads with the same bodies, or it would measure a cheaper response.
      const comparison = await compareTargets(
        peered.filter((s) => s.read),
        tokens,
        server.url,
        bareTarget.url,
      );
      if (comparison.differences.length) {
        throw new Error(
          `the bare limit's answers differ from the service's (${comparison.differences.length} differences):\n${formatDifferences(comparison)}`,
        );
      }
      log(`Answers: the service and the bare limit agree on ${comparison.requests} read requests`);
    }
    const baselineTarget = targets.find((t) => t.name === 'baseline');
    if (baselineTarget) {
      // The baseline must answer exactly what the service answers, or its figures measure a cheaper response.
      const comparison = await compareTargets(peered, tokens, server.url, baselineTarget.url);
      record.comparison = {
        requests: comparison.requests,
        ignored: comparison.ignored,
        differences: comparison.differences.length,
      };
      if (comparison.differences.length) {
        throw new Error(
          `the baseline's answers differ from the service's (${comparison.differences.length} differences):\n${formatDifferences(comparison)}`,
        );
      }
      log(
        `Answers: the service and the baseline agree on ${comparison.requests} requests (ignoring: ${comparison.ignored.join('; ')})`,
      );
    }
    for (const s of scenarios) {
      log(`  ${s.title}`);
      // Fresh tokens per scenario: access tokens live 15 minutes and a 100 % run takes longer.
      const fresh = await signInAll(server.url);
      for (const t of targets) t.tokens = fresh;
      record.scenarios.push(
        await runScenario(s, targets, { ...settings, probeSeconds: s.read ? settings.probeSeconds : 0, log }),
      );
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }

  if (!args.has('no-startup')) {
    log('Startup: npm start on an empty data directory, then again on the same one');
    record.startup = await measureStartup();
    log(`  cold ${record.startup.cold.toFixed(2)} s, warm ${record.startup.warm.toFixed(2)} s`);
  }

  record.machine.loadAverageAtEnd = os.loadavg();
  record.totalSeconds = (performance.now() - t0) / 1000;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const date = startedAt.slice(0, 10);
  const jsonFile = `${date}-scale${scale}.json`;
  writeFileSync(path.join(RESULTS_DIR, jsonFile), JSON.stringify(record, null, 2) + '\n');
  const small = scale === 1 ? undefined : latestRecord(1);
  const mdFile = path.join(RESULTS_DIR, `${date}.md`);
  const markdown = markdownReport(record, small);
  writeFileSync(mdFile, markdown);
  // The day's report is the latest run; each scale also keeps its own copy.
  writeFileSync(path.join(RESULTS_DIR, `${date}-scale${scale}.md`), markdown);
  process.stdout.write(`\n${summaryTable(record)}\n\n`);
  if (small) {
    const { growthOf } = await import('./lib/report.js');
    for (const g of growthOf(small, record))
      process.stdout.write(
        `growth ${g.id.padEnd(18)} p50 ${g.p50Small.toFixed(2)} → ${g.p50Large.toFixed(2)} ms  × ${g.factor.toFixed(2)} (${g.basis})\n`,
      );
  }
  if (record.startup)
    process.stdout.write(
      `startup cold ${record.startup.cold.toFixed(2)} s, warm ${record.startup.warm.toFixed(2)} s\n`,
    );
  process.stdout.write(
    `Report: ${path.relative(ROOT, mdFile)} (record ${path.join('bench/results', jsonFile)}); ${record.totalSeconds.toFixed(0)} s in all\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
