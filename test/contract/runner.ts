/**
 * The contract suite: the real server on a fresh embedded database, Prism in front of it validating every real
 * response against the contract, and Dredd sending every documented request/response pair through Prism with
 * the hooks in hooks.cjs. Starts and stops everything it needs; `npm run test:contract` and
 * test/contract/contract.test.ts both call runContractSuite().
 *
 *   Dredd ──► prism proxy --errors (strict) ──► server      every transaction whose request is valid
 *        └──► prism proxy (lenient)          ──► server      deliberately invalid requests (400s), which the strict
 *                                                           proxy would answer itself with a 422
 *
 * Both proxies validate the server's responses: the strict one turns a violation into a 500 (a status
 * mismatch in Dredd), the lenient one reports it in the `sl-violations` header (checked by the hooks) and in its
 * log (scanned here).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, waitForHttp, waitForServer, type Started } from '../support/processes.js';
import { startTestIdp } from '../support/oidc-idp.js';
import { loadBundledSpec, operationsOf } from '../support/spec.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = path.join(ROOT, 'test', 'contract');
export const BUNDLED_SPEC = path.join(ROOT, 'openapi', 'generated', 'openapi.bundled.json');
const PRISM_BIN = path.join(ROOT, 'node_modules', '.bin', 'prism');

const require = createRequire(import.meta.url);
const { explainSkip } = require('./skips.cjs') as {
  explainSkip: (t: {
    operationId: string | null;
    expectedStatus: string | null;
    contentType: string | null;
  }) => string | null;
};

export interface TransactionResult {
  status: 'pass' | 'fail' | 'skip' | 'error';
  name: string;
  title: string;
  path: string | null;
  action: string | null;
  operationId: string | null;
  expectedStatus: string | null;
  actualStatus: string | null;
  contentType: string | null;
  message: string;
  /** For skips: the reason listed in skips.cjs, or null when the skip is unexplained. */
  skipReason?: string | null;
}

export interface ContractReport {
  results: TransactionResult[];
  passed: TransactionResult[];
  failed: TransactionResult[];
  errored: TransactionResult[];
  skipped: TransactionResult[];
  unexplainedSkips: TransactionResult[];
  /** operationIds of the spec without one passing transaction. */
  uncovered: string[];
  /** `operationId status` pairs documented in the spec (other than `default`) without a passing transaction. */
  unexercisedStatuses: string[];
  /** Response violations Prism logged (either proxy). */
  prismViolations: string[];
  dreddError: string | null;
  durationMs: number;
  timings?: { serverMs: number; dreddMs: number };
  /** Server, proxies and Dredd output, for diagnosis when something fails. */
  logs: { server: string; strictProxy: string; lenientProxy: string; dredd: string };
}

function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Lines where Prism reports that a real response breaks the contract. */
export function responseViolations(prismLog: string): string[] {
  return stripAnsi(prismLog)
    .split('\n')
    .filter((line) => /Violation: response/i.test(line) || /errors#VIOLATIONS/.test(line));
}

function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): { kill(): void; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const done = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      output += `\n[contract] dredd did not finish within ${timeoutMs} ms; killed\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
  return {
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    done,
  };
}

async function startProxy(port: number, upstream: string, errors: boolean): Promise<Started> {
  const args = [
    'proxy',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    BUNDLED_SPEC,
    upstream,
    ...(errors ? ['--errors'] : []),
  ];
  const proxy = startProcess(PRISM_BIN, args);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
  } catch (err) {
    await proxy.stop();
    throw new Error(`prism proxy did not start: ${String(err)}\n${proxy.output()}`);
  }
  return proxy;
}

export interface RunOptions {
  /** Forwarded to the server process (e.g. a LOG_LEVEL). */
  serverEnv?: NodeJS.ProcessEnv;
  /** Whole-run limit for Dredd. */
  timeoutMs?: number;
}

export async function runContractSuite(opts: RunOptions = {}): Promise<ContractReport> {
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-contract-'));
  const resultsFile = path.join(dataDir, 'dredd-results.json');
  const processes: Started[] = [];
  const closers: Array<() => Promise<void>> = [];
  try {
    // The server as `npm start` runs it, on a fresh data directory. Its own response validation is off, as in
    // production, so that Prism is what catches a response that breaks the contract.
    const jwtSecret = randomBytes(32).toString('hex');
    // A real OpenID provider for the single sign-on operations; the hooks sign in at it as CONTRACT_IDP_LOGIN.
    const idp = await startTestIdp(
      {
        'contract-sso': {
          email: 'contract.sso@example.com',
          email_verified: true,
          given_name: 'Contract',
          family_name: 'Sso',
        },
      },
      { providerIds: ['contract-idp'] },
    );
    closers.push(() => idp.close());
    // The ports are chosen once the provider listens, so that none of them can be the provider's own.
    const [serverPort, strictPort, lenientPort] = (await distinctFreePorts(3)) as [number, number, number];
    const serverUrl = `http://127.0.0.1:${serverPort}`;
    idp.serve([serverUrl]);
    const server = startProcess(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'src', 'main.ts')], {
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      VALIDATE_RESPONSES: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DATABASE_URL: '',
      // Requests come from the hooks and the two Prism proxies, all on loopback: trusting it lets a hook flood the
      // sign-in rate limit as one client (its X-Forwarded-For) without slowing the suite's own sign-ins.
      TRUST_PROXY: 'loopback',
      // The per-address bucket the hooks spend for the 429 cases (asFloodedClient): stated here, not assumed.
      AUTH_RATE_PER_IP: '20/20s',
      // Token refresh and sign-out have a quota of their own; the same size, for the same hooks.
      AUTH_RATE_REFRESH: '20/20s',
      // The webhooks' fixtures point at loopback, which production refuses.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Passkey options name the console they are for; the suite's requests carry no Origin of their own.
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: 'http://localhost:3000',
      // Every other operation's 429 is met on an address's quota, which the hooks spend (each 429 transaction comes
      // from a spent address); the suite's own sign-ins and fixtures, as a few accounts, stay far below theirs.
      RATE_LIMIT_PER_ADDRESS: '300/60s',
      RATE_LIMIT_PER_CREDENTIAL: '100000/60s',
      OIDC_PROVIDERS: JSON.stringify([
        idp.providerConfig({ id: 'contract-idp', display_name: 'Contract IdP', jit_provisioning: true }),
      ]),
      ...opts.serverEnv,
    });
    processes.push(server);
    // Everything starts at once: the proxies need the upstream only per request, and Dredd spends a long time
    // compiling the contract before its first transaction (its beforeAll hook waits until all three answer).
    const proxies = Promise.all([startProxy(strictPort, serverUrl, true), startProxy(lenientPort, serverUrl, false)]);
    proxies.then(
      (ps) => processes.push(...ps),
      () => undefined,
    );
    const dreddRun = runNode(
      [
        path.join(HERE, 'dredd-driver.cjs'),
        BUNDLED_SPEC,
        `http://127.0.0.1:${strictPort}`,
        path.join(HERE, 'hooks.cjs'),
        resultsFile,
      ],
      {
        CONTRACT_SERVER_URL: serverUrl,
        CONTRACT_STRICT_URL: `http://127.0.0.1:${strictPort}`,
        CONTRACT_LENIENT_PORT: String(lenientPort),
        CONTRACT_JWT_SECRET: jwtSecret,
        CONTRACT_IDP_LOGIN: 'contract-sso',
      },
      // About 2.5 minutes alone; `npm test` runs it beside the browser flows and the fuzzer on two cores.
      opts.timeoutMs ?? 480_000,
    );
    try {
      try {
        await waitForServer(server, `${serverUrl}/healthz`, 120_000);
      } catch (err) {
        throw new Error(`the server did not start: ${String(err)}\n${server.output()}`);
      }
      await proxies;
    } catch (err) {
      dreddRun.kill();
      await proxies.catch(() => undefined);
      throw err;
    }
    const serverReady = Date.now();
    const [strict, lenient] = await proxies;
    const dredd = await dreddRun.done;

    type DreddResults = { error: string | null; results: Omit<TransactionResult, 'operationId'>[] };
    let parsed: DreddResults;
    try {
      parsed = JSON.parse(readFileSync(resultsFile, 'utf8')) as DreddResults;
    } catch {
      throw new Error(`dredd wrote no results (exit ${dredd.code}):\n${dredd.output}`);
    }
    const report = buildReport(parsed.results, parsed.error, {
      server: server.output(),
      strictProxy: strict.output(),
      lenientProxy: lenient.output(),
      dredd: dredd.output,
    });
    report.durationMs = Date.now() - started;
    report.timings = { serverMs: serverReady - started, dreddMs: Date.now() - serverReady };
    return report;
  } finally {
    await Promise.all(processes.reverse().map((p) => p.stop()));
    await Promise.all(closers.map((close) => close()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

function buildReport(
  raw: Omit<TransactionResult, 'operationId'>[],
  dreddError: string | null,
  logs: ContractReport['logs'],
): ContractReport {
  const spec = loadBundledSpec();
  const operations = operationsOf(spec);
  const byAction = new Map(operations.map((op) => [`${op.path} > ${op.summary}`, op.operationId ?? null]));
  const results: TransactionResult[] = raw.map((r) => ({
    ...r,
    operationId: byAction.get(`${r.path} > ${r.action}`) ?? null,
  }));
  for (const r of results) if (r.status === 'skip') r.skipReason = explainSkip(r);

  const passed = results.filter((r) => r.status === 'pass');
  const covered = new Set(passed.map((r) => r.operationId));
  const passedStatuses = new Set(passed.map((r) => `${r.operationId} ${r.expectedStatus}`));
  const explainedStatuses = new Set(
    results.filter((r) => r.status === 'skip' && r.skipReason).map((r) => `${r.operationId} ${r.expectedStatus}`),
  );
  const unexercisedStatuses = operations.flatMap((op) =>
    Object.keys(op.responses)
      .filter((s) => s !== 'default')
      .map((s) => `${op.operationId} ${s}`)
      .filter((k) => !passedStatuses.has(k) && !explainedStatuses.has(k)),
  );
  const skipped = results.filter((r) => r.status === 'skip');
  return {
    results,
    passed,
    failed: results.filter((r) => r.status === 'fail'),
    errored: results.filter((r) => r.status === 'error'),
    skipped,
    unexplainedSkips: skipped.filter((r) => !r.skipReason),
    uncovered: operations.map((op) => op.operationId ?? `${op.method} ${op.path}`).filter((id) => !covered.has(id)),
    unexercisedStatuses,
    prismViolations: [...responseViolations(logs.strictProxy), ...responseViolations(logs.lenientProxy)],
    dreddError,
    durationMs: 0,
    logs,
  };
}

/** A short human summary: counts, then every failure, error and skip with its reason. */
export function formatReport(r: ContractReport): string {
  const lines = [
    `contract: ${r.results.length} transactions — ${r.passed.length} passed, ${r.failed.length} failed, ${r.errored.length} errors, ${r.skipped.length} skipped (${r.unexplainedSkips.length} unexplained) in ${(r.durationMs / 1000).toFixed(1)} s` +
      (r.timings
        ? ` (server and proxies up after ${(r.timings.serverMs / 1000).toFixed(1)} s, Dredd done ${(r.timings.dreddMs / 1000).toFixed(1)} s later)`
        : ''),
  ];
  for (const f of [...r.failed, ...r.errored])
    lines.push(
      `  ${f.status.toUpperCase()} ${f.title} [${f.operationId} ${f.expectedStatus}, got ${f.actualStatus}]\n    ${f.message.trim().replace(/\n/g, '\n    ')}`,
    );
  const reasons = new Map<string, number>();
  for (const s of r.skipped)
    reasons.set(s.skipReason ?? 'UNEXPLAINED', (reasons.get(s.skipReason ?? 'UNEXPLAINED') ?? 0) + 1);
  for (const [reason, n] of reasons) lines.push(`  skipped ${n}: ${reason}`);
  for (const s of r.unexplainedSkips) lines.push(`  UNEXPLAINED SKIP ${s.title} (${s.name})`);
  if (r.uncovered.length) lines.push(`  operations without a passing transaction: ${r.uncovered.join(', ')}`);
  if (r.unexercisedStatuses.length)
    lines.push(`  documented statuses not exercised: ${r.unexercisedStatuses.join(', ')}`);
  if (r.prismViolations.length) lines.push(`  prism response violations:\n    ${r.prismViolations.join('\n    ')}`);
  if (r.dreddError) lines.push(`  dredd error: ${r.dreddError}`);
  return lines.join('\n');
}
