import { readFileSync } from 'node:fs';
import { median, runLoad, type LoadResult } from './load.js';
import { probeLatency, type ProbeResult } from './probe.js';
import type { Scenario, Tokens } from './scenarios.js';

/** The service; the best-SQL peer with auth; the bare limit (no auth, one statement, the same body; reads only). */
export type TargetName = 'server' | 'baseline' | 'bare';

export interface Target {
  name: TargetName;
  url: string;
  tokens: Tokens;
  /** the target's process id, to measure its CPU time per request (Linux /proc) */
  pid?: number;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds the process has used so far, or undefined when /proc is not readable. */
export function cpuMillis(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Resident memory of the process in MB (VmRSS of /proc/<pid>/status), or undefined when /proc is not readable. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples the process's RSS every 100 ms until stopped; returns the highest sample. */
function watchPeakRss(pid: number | undefined): () => number | undefined {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }, 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

async function measure(
  t: Target,
  requests: ReturnType<Scenario['requests']>,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const before = cpuMillis(t.pid);
  const stopWatching = watchPeakRss(t.pid);
  const r = await runLoad(t.url, requests, { seconds, connections });
  const peak = stopWatching();
  const after = cpuMillis(t.pid);
  if (before !== undefined && after !== undefined && r.requests > 0) r.cpuMsPerRequest = (after - before) / r.requests;
  if (peak !== undefined) r.peakRssMb = peak;
  return r;
}

export interface RunOptions {
  /** measured rounds per target; the targets alternate within each round */
  rounds: number;
  seconds: number;
  /** unrecorded warm-up per target before the first round (0 = none) */
  warmupSeconds: number;
  connections: number;
  /** seconds of single-connection latency probing per target after the load rounds (0 = none) */
  probeSeconds?: number;
  log?: (line: string) => void;
}

export interface Summary {
  /** medians over the rounds */
  rps: number;
  p50: number;
  p99: number;
  /** median CPU milliseconds the target process spent per request (undefined without /proc) */
  cpuMsPerRequest?: number;
  /** highest RSS of the target process over the rounds, MB */
  peakRssMb?: number;
  /** sums over the rounds */
  requests: number;
  errors: number;
  non2xx: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  goal: Scenario['goal'];
  read: boolean;
  note: string;
  rounds: Partial<Record<TargetName, LoadResult[]>>;
  server: Summary;
  baseline?: Summary;
  bare?: Summary;
  /** single-connection latency (no queueing), per target */
  probe?: Partial<Record<TargetName, ProbeResult>>;
  /** server ÷ baseline of the medians */
  ratio?: { throughput: number; p99: number; cpu?: number };
  /** server ÷ bare limit of the medians */
  ratioBare?: { throughput: number; p99: number; cpu?: number };
}

function ratioOf(server: Summary, other: Summary): { throughput: number; p99: number; cpu?: number } {
  return {
    throughput: other.rps > 0 ? server.rps / other.rps : NaN,
    // autocannon reports whole milliseconds; a 0 ms p99 counts as 1 ms so the ratio stays finite.
    p99: Math.max(1, server.p99) / Math.max(1, other.p99),
    ...(server.cpuMsPerRequest !== undefined && other.cpuMsPerRequest
      ? { cpu: server.cpuMsPerRequest / other.cpuMsPerRequest }
      : {}),
  };
}

function summarise(rs: LoadResult[]): Summary {
  return {
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    ...(rs.every((r) => r.cpuMsPerRequest !== undefined) && rs.length > 0
      ? { cpuMsPerRequest: median(rs.map((r) => r.cpuMsPerRequest!)) }
      : {}),
    ...(rs.some((r) => r.peakRssMb !== undefined) ? { peakRssMb: Math.max(...rs.map((r) => r.peakRssMb ?? 0)) } : {}),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
  };
}

/**
 * Runs one scenario against every target, alternating them round by round (and swapping who goes first each
 * round), so drift and noise of the shared machine fall on both sides alike.
 */
export async function runScenario(scenario: Scenario, allTargets: Target[], opts: RunOptions): Promise<ScenarioResult> {
  const log = opts.log ?? (() => undefined);
  // The bare limit answers reads only; a scenario of the service alone (cursor paging) has no peer at all.
  const targets = allTargets.filter(
    (t) => t.name === 'server' || (!scenario.serverOnly && (t.name !== 'bare' || scenario.read)),
  );
  const rounds: Partial<Record<TargetName, LoadResult[]>> = {};
  if (opts.warmupSeconds > 0) {
    for (const t of targets) await measure(t, scenario.requests(t.tokens), opts.warmupSeconds, opts.connections);
  }
  for (let round = 0; round < opts.rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) {
      const r = await measure(t, scenario.requests(t.tokens), opts.seconds, opts.connections);
      (rounds[t.name] ??= []).push(r);
      log(
        `    ${scenario.id.padEnd(18)} round ${round + 1} ${t.name.padEnd(8)} ${r.rps.toFixed(0).padStart(6)} rps  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms${r.cpuMsPerRequest !== undefined ? `  cpu ${r.cpuMsPerRequest.toFixed(2)} ms/req` : ''}${r.errors || r.non2xx ? `  errors ${r.errors} non2xx ${r.non2xx}` : ''}`,
      );
    }
  }
  let probe: ScenarioResult['probe'];
  if (opts.probeSeconds && opts.probeSeconds > 0) {
    probe = {};
    for (const t of targets) {
      const p = await probeLatency(t.url, scenario.requests(t.tokens), opts.probeSeconds);
      probe[t.name] = p;
      log(
        `    ${scenario.id.padEnd(18)} probe   ${t.name.padEnd(8)} p50 ${p.p50.toFixed(2)} ms  p99 ${p.p99.toFixed(2)} ms  (${p.requests} requests, 1 connection${p.failures ? `, ${p.failures} failed` : ''})`,
      );
    }
  }
  const server = summarise(rounds.server ?? []);
  const baseline = rounds.baseline ? summarise(rounds.baseline) : undefined;
  const bare = rounds.bare ? summarise(rounds.bare) : undefined;
  return {
    id: scenario.id,
    title: scenario.title,
    goal: scenario.goal,
    read: scenario.read,
    note: scenario.note,
    rounds,
    ...(probe ? { probe } : {}),
    server,
    ...(baseline ? { baseline, ratio: ratioOf(server, baseline) } : {}),
    ...(bare ? { bare, ratioBare: ratioOf(server, bare) } : {}),
  };
}
