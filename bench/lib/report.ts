import type { ScenarioResult, TargetName } from './harness.js';
import type { StartupResult } from './startup.js';
import type { Sizes } from './scale.js';

export const GOALS = {
  minThroughputRatio: 0.8,
  /** print-mapping resolve must match the baseline's throughput */
  minResolveThroughputRatio: 1.0,
  maxP99Ratio: 1.5,
  maxGrowth: 1.3,
  maxColdStartSeconds: 5,
} as const;

export interface RunRecord {
  /** ISO timestamp of the start of the run */
  startedAt: string;
  scale: number;
  sizes: Sizes;
  engine: 'postgres';
  settings: {
    rounds: number;
    seconds: number;
    warmupSeconds: number;
    connections: number;
    probeSeconds?: number;
    logLevel: string;
    nodeEnv: string;
    /** 'tsx': server/src under tsx; 'compiled': the `npm run build` output under plain node */
    serverBuild?: 'tsx' | 'compiled';
  };
  machine: { cpus: number; node: string; loadAverageAtStart: number[]; loadAverageAtEnd?: number[] };
  generation?: { seconds: number; reused: boolean };
  /** per target: spawn → READY milliseconds and the resident memory right after, MB */
  processes?: Partial<Record<TargetName, { startMs: number; idleRssMb?: number }>>;
  /** the answers' comparison before measuring: requests compared, fields left out, differences (0, or the run failed) */
  comparison?: { requests: number; ignored: string[]; differences: number };
  scenarios: ScenarioResult[];
  startup?: StartupResult;
  totalSeconds?: number;
}

export interface Growth {
  id: string;
  /** 'probe': single-connection p50 (no queueing); 'load': p50 under the load rounds */
  basis: 'probe' | 'load';
  p50Small: number;
  p50Large: number;
  factor: number;
}

const f1 = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(1));
const f2 = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(2));
const f0 = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(0));

/** The goal of a scenario kind, in words (for the report). */
export function goalText(goal: ScenarioResult['goal']): string {
  switch (goal) {
    case 'ratio':
      return `throughput ≥ ${GOALS.minThroughputRatio}, p99 ≤ ${GOALS.maxP99Ratio} ×`;
    case 'ratio-resolve':
      return `throughput ≥ ${GOALS.minResolveThroughputRatio.toFixed(1)}, p99 ≤ ${GOALS.maxP99Ratio} ×`;
    case 'ratio-write':
      return `throughput ≥ ${GOALS.minThroughputRatio}`;
    default:
      return 'none';
  }
}

/** Whether the scenario meets its goal against the baseline; undefined without a goal or a baseline. */
export function meetsRatioGoal(s: ScenarioResult): boolean | undefined {
  if (!s.ratio) return undefined;
  const p99 = s.ratio.p99 <= GOALS.maxP99Ratio;
  switch (s.goal) {
    case 'ratio':
      return s.ratio.throughput >= GOALS.minThroughputRatio && p99;
    case 'ratio-resolve':
      return s.ratio.throughput >= GOALS.minResolveThroughputRatio && p99;
    case 'ratio-write':
      return s.ratio.throughput >= GOALS.minThroughputRatio;
    default:
      return undefined;
  }
}

/**
 * p50 growth from the small-scale run to this one, per read scenario. Latencies below 1 ms are reported by
 * autocannon as 0–1 ms; both sides are floored at 1 ms so a sub-millisecond p50 never divides by zero.
 */
export function growthOf(small: RunRecord | undefined, large: RunRecord): Growth[] {
  if (!small) return [];
  return large.scenarios
    .filter((s) => s.read)
    .flatMap((s): Growth[] => {
      const before = small.scenarios.find((x) => x.id === s.id);
      if (!before) return [];
      const a = before.probe?.server?.p50;
      const b = s.probe?.server?.p50;
      if (a !== undefined && b !== undefined)
        return [{ id: s.id, basis: 'probe' as const, p50Small: a, p50Large: b, factor: b / a }];
      return [
        {
          id: s.id,
          basis: 'load' as const,
          p50Small: before.server.p50,
          p50Large: s.server.p50,
          factor: Math.max(1, s.server.p50) / Math.max(1, before.server.p50),
        },
      ];
    });
}

export function summaryTable(run: RunRecord): string {
  const rows = [
    [
      'scenario',
      'server rps',
      'base rps',
      'thr ratio',
      'bare rps',
      '÷ bare',
      'server p50',
      'server p99',
      'base p99',
      'p99 ratio',
      'cpu ms/req',
      'base cpu',
      'idle p50',
      'base idle p50',
      'peak MB',
      'base peak MB',
      'errors',
      'goal',
    ],
    ...run.scenarios.map((s) => {
      const ok = meetsRatioGoal(s);
      return [
        s.id,
        f0(s.server.rps),
        f0(s.baseline?.rps),
        f2(s.ratio?.throughput),
        f0(s.bare?.rps),
        f2(s.ratioBare?.throughput),
        f1(s.server.p50),
        f1(s.server.p99),
        f1(s.baseline?.p99),
        f2(s.ratio?.p99),
        f2(s.server.cpuMsPerRequest),
        f2(s.baseline?.cpuMsPerRequest),
        f2(s.probe?.server?.p50),
        f2(s.probe?.baseline?.p50),
        f0(s.server.peakRssMb),
        f0(s.baseline?.peakRssMb),
        String(
          s.server.errors +
            s.server.non2xx +
            (s.baseline ? s.baseline.errors + s.baseline.non2xx : 0) +
            (s.bare ? s.bare.errors + s.bare.non2xx : 0),
        ),
        ok === undefined ? '' : ok ? 'met' : 'MISSED',
      ];
    }),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '))
    .join('\n');
}

export function markdownReport(run: RunRecord, small: RunRecord | undefined, findings: string[] = []): string {
  const growth = growthOf(small, run);
  const lines: string[] = [];
  lines.push(`# Benchmark report — ${run.startedAt.slice(0, 10)}, scale ${run.scale} %`);
  lines.push('');
  lines.push(
    `Server: \`start(env)\` of server/src/main.ts in its own process, NODE_ENV=production (request validation and auth on, response validation off), LOG_LEVEL=${run.settings.logLevel}, on PostgreSQL. ` +
      `Server build: ${run.settings.serverBuild === 'compiled' ? 'compiled (`npm run build` output, plain node)' : 'server/src under tsx'}. ` +
      'Baseline: **best hand-written SQL** — bench/baseline/server.ts, node:http + pg answering each request with one statement written for its response body ' +
      '(PostgreSQL builds the JSON; the HS256 token is verified with the key imported once, and the account, session and permission are checked by the same statement). ' +
      'Bare limit (reads only): the same server and statements with the token left unverified and the caller check taken out of each statement (`SQL.bare`): one statement per request, the same body, no auth, validation or logging: the physical limit, not a peer. ' +
      (run.comparison
        ? `Before measuring, both answered ${run.comparison.requests} requests of the scenarios identically (compared as JSON; left out: ${run.comparison.ignored.join('; ')}). `
        : '') +
      `Each scenario: ${run.settings.warmupSeconds} s warm-up per target, then ${run.settings.rounds} rounds × ${run.settings.seconds} s per target, alternating (the first target swaps every round), ` +
      `${run.settings.connections} connections; the figures are medians over the rounds and the ratios are server ÷ baseline of those medians. ` +
      'CPU ms/req is the user + system CPU time of the target process (from /proc) divided by the requests it served: it depends far less than rps on what else the shared machine is doing. ' +
      `Idle p50 is the median latency of ${run.settings.probeSeconds ?? 0} s of one request at a time on one connection (no queueing), timed to the microsecond; the cost growth compares it across scales.`,
  );
  lines.push('');
  lines.push(
    `Machine: ${run.machine.cpus} CPUs shared with other work, Node ${run.machine.node}, load average at start ${run.machine.loadAverageAtStart.map((x) => x.toFixed(1)).join(' / ')}` +
      (run.machine.loadAverageAtEnd
        ? `, at end ${run.machine.loadAverageAtEnd.map((x) => x.toFixed(1)).join(' / ')}`
        : '') +
      '.',
  );
  lines.push('');
  const z = run.sizes;
  lines.push(
    `Data: ${z.clusters} clusters, ${z.businessUnits} business units, ${z.users} users, ${z.clusterMemberships} cluster memberships, ${z.buMemberships} BU memberships, ` +
      `${z.printMappings} print mappings, ${z.documents} documents, ${z.users * z.widgetsPerUser} widgets (plus the demo seed)` +
      (run.generation
        ? run.generation.reused
          ? '; reused from an earlier generation.'
          : `; generated in ${run.generation.seconds.toFixed(1)} s.`
        : '.'),
  );
  lines.push('');
  lines.push('## Scenarios');
  lines.push('');
  lines.push(
    '| Scenario | What | Server rps | Baseline rps | Throughput ratio (≥ 0.8) | Bare-limit rps | Ratio to bare | Bare CPU ms/req | Server p50 ms | Server p99 ms | Baseline p50 ms | Baseline p99 ms | p99 ratio (≤ 1.5) | Server CPU ms/req | Baseline CPU ms/req | Server idle p50 ms | Baseline idle p50 ms | Server peak RSS MB | Baseline peak RSS MB | Errors / non-2xx | Goal | Met |',
  );
  lines.push(
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  );
  for (const s of run.scenarios) {
    const ok = meetsRatioGoal(s);
    const errs = `${s.server.errors}/${s.server.non2xx}${s.baseline ? ` · ${s.baseline.errors}/${s.baseline.non2xx}` : ''}`;
    lines.push(
      `| ${s.title} | ${s.note} | ${f0(s.server.rps)} | ${f0(s.baseline?.rps)} | ${f2(s.ratio?.throughput)} | ${f0(s.bare?.rps)} | ${f2(s.ratioBare?.throughput)} | ${f2(s.bare?.cpuMsPerRequest)} | ${f1(s.server.p50)} | ${f1(s.server.p99)} | ${f1(s.baseline?.p50)} | ${f1(s.baseline?.p99)} | ${f2(s.ratio?.p99)} | ${f2(s.server.cpuMsPerRequest)} | ${f2(s.baseline?.cpuMsPerRequest)} | ${f2(s.probe?.server?.p50)} | ${f2(s.probe?.baseline?.p50)} | ${f0(s.server.peakRssMb)} | ${f0(s.baseline?.peakRssMb)} | ${errs} | ${goalText(s.goal)} | ${ok === undefined ? (s.goal === 'none' ? '–' : 'no baseline') : ok ? 'met' : '**missed**'} |`,
    );
  }
  lines.push('');
  const proc = run.processes ?? {};
  if (proc.server || proc.baseline) {
    const row = (name: string, p: { startMs: number; idleRssMb?: number } | undefined) =>
      p ? `| ${name} | ${f0(p.startMs)} | ${f0(p.idleRssMb)} |` : '';
    lines.push(
      'Processes (start = spawn to ready; idle RSS right after; peak RSS per scenario in the table above, sampled every 100 ms):',
    );
    lines.push('');
    lines.push('| Process | Start ms | Idle RSS MB |');
    lines.push('|---|---:|---:|');
    lines.push(row(`Server (${run.settings.serverBuild ?? 'tsx'})`, proc.server));
    if (proc.baseline) lines.push(row('Baseline', proc.baseline));
    if (proc.bare) lines.push(row('Bare limit', proc.bare));
    lines.push('');
  }
  lines.push('Rounds (rps / p50 / p99 per round, server, baseline, bare limit):');
  lines.push('');
  for (const s of run.scenarios) {
    const fmt = (rs: typeof s.rounds.server) =>
      (rs ?? []).map((r) => `${f0(r.rps)}/${f1(r.p50)}/${f1(r.p99)}`).join(', ');
    lines.push(
      `- ${s.id}: server ${fmt(s.rounds.server)}; baseline ${fmt(s.rounds.baseline)}${s.rounds.bare ? `; bare ${fmt(s.rounds.bare)}` : ''}`,
    );
  }
  lines.push('');
  lines.push('## Cost growth (server p50, 1 % → this scale; goal ≤ 1.3 for every read scenario)');
  lines.push('');
  if (growth.length === 0)
    lines.push(
      run.scale === 1
        ? 'This is the 1 % run (the reference of the growth figures).'
        : 'No 1 % run found in bench/results (run `--scale 1` first).',
    );
  else {
    lines.push(`Reference: the 1 % run of ${small!.startedAt}.`);
    lines.push('');
    lines.push('| Scenario | Basis | p50 at 1 % (ms) | p50 at this scale (ms) | Growth | Goal |');
    lines.push('|---|---|---:|---:|---:|---|');
    for (const g of growth) {
      lines.push(
        `| ${g.id} | ${g.basis === 'probe' ? 'idle, 1 connection' : 'under load'} | ${f2(g.p50Small)} | ${f2(g.p50Large)} | ${f2(g.factor)} | ${g.factor <= GOALS.maxGrowth ? 'met' : '**missed**'} |`,
      );
    }
  }
  lines.push('');
  lines.push('## Embedded default: `npm start` on PGlite');
  lines.push('');
  if (run.startup) {
    lines.push(`| Start | Seconds to /healthz 200 | Goal |`);
    lines.push('|---|---:|---|');
    lines.push(
      `| Cold (empty data directory: initdb, migrations, seed) | ${f2(run.startup.cold)} | ${run.startup.cold < GOALS.maxColdStartSeconds ? 'met (< 5 s)' : '**missed** (< 5 s)'} |`,
    );
    lines.push(`| Warm (same directory again) | ${f2(run.startup.warm)} | |`);
  } else lines.push('Not measured in this run (`--no-startup`).');
  lines.push('');
  if (findings.length) {
    lines.push('## Notes');
    lines.push('');
    for (const f of findings) lines.push(`- ${f}`);
    lines.push('');
  }
  if (run.totalSeconds !== undefined) lines.push(`Whole run: ${f1(run.totalSeconds)} s.`);
  lines.push('');
  return lines.join('\n');
}
