/**
 * The Dredd contract suite (see runner.ts): every documented request/response pair against the real server on a
 * fresh database, through Prism validating the real responses. The same run as `npm run test:contract`.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import { formatReport, runContractSuite, type ContractReport } from './runner.js';

const require = createRequire(import.meta.url);
const { SKIPS } = require('./skips.cjs') as { SKIPS: Array<{ reason: string }> };

describe('the API contract against the real server (Dredd through Prism)', () => {
  let report: ContractReport;
  const describeRun = (r: ContractReport) => `\n${formatReport(r)}`;

  beforeAll(async () => {
    report = await runContractSuite();
  }, 300_000);

  it('runs every transaction Dredd compiles from the contract', () => {
    // Each operation has at least its success response and its `default` response.
    expect(report.results.length).toBeGreaterThanOrEqual(operationsOf(loadBundledSpec()).length * 2);
    expect(report.dreddError, describeRun(report)).toBeNull();
  });

  it('has no failing and no erroring transaction', () => {
    expect(
      report.failed.map((f) => `${f.title}: ${f.message}`),
      describeRun(report),
    ).toEqual([]);
    expect(
      report.errored.map((f) => `${f.title}: ${f.message}`),
      describeRun(report),
    ).toEqual([]);
  });

  it('skips only transactions listed with a reason in skips.cjs', () => {
    expect(
      report.unexplainedSkips.map((s) => s.title),
      describeRun(report),
    ).toEqual([]);
    for (const s of report.skipped) expect(SKIPS.map((k) => k.reason)).toContain(s.skipReason);
  });

  it('covers every operation of the contract with a passing transaction', () => {
    expect(report.uncovered, describeRun(report)).toEqual([]);
  });

  it('exercises every documented status with a request that triggers it', () => {
    expect(report.unexercisedStatuses, describeRun(report)).toEqual([]);
    // Negative cases really ran: far more passing transactions than operations.
    const statuses = new Set(report.passed.map((p) => p.expectedStatus));
    for (const s of ['400', '401', '403', '404', '409', '412', '413', '415', '429'])
      expect(statuses, `no passing ${s} transaction`).toContain(s);
  });

  it('finds no response that breaks the contract in either Prism proxy', () => {
    expect(report.prismViolations, describeRun(report)).toEqual([]);
  });
});
