// @vitest-environment node
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INITIAL_JS_BUDGET,
  buildConsole,
  initialBundleContains,
  measureInitialBundle,
  type BundleReport,
} from './test/bundleSize';

/**
 * The first download of the console stays within its budget: a production build's entry chunk and everything it
 * imports statically, gzip. The screens, the dashboards' charts and the widget grid load when first used.
 */
describe('the initial bundle', { timeout: 180_000 }, () => {
  let outDir = '';
  let report: BundleReport;

  beforeAll(() => {
    outDir = buildConsole();
    report = measureInitialBundle(outDir);
  }, 180_000);
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it(`is at most ${INITIAL_JS_BUDGET / 1000} kB of gzip JavaScript`, () => {
    const listing = report.chunks.map((c) => `${c.file} ${(c.gzip / 1000).toFixed(1)} kB`).join('\n');
    expect(report.totalGzip, `initial chunks:\n${listing}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it('leaves the charts, the widget grid, the passkey library and the screens out of it', () => {
    expect(initialBundleContains(outDir, report, 'MuiChartsSurface'), 'x-charts').toEqual([]);
    expect(initialBundleContains(outDir, report, 'react-grid-item'), 'react-grid-layout').toEqual([]);
    // The passkey library loads with the first passkey ceremony; the QR code is an image the server drew.
    expect(
      initialBundleContains(outDir, report, 'WebAuthn is not supported in this browser'),
      '@simplewebauthn/browser',
    ).toEqual([]);
    for (const screen of [
      'ClusterList',
      'BusinessUnitEdit',
      'PrintTemplateMappingList',
      'WidgetWorkspace',
      'DomainDashboardPage',
      'ForcedEnrolment',
      'SecurityPage',
    ]) {
      expect(
        report.lazyChunks.some((f) => f.startsWith(`${screen}-`)),
        `${screen} is a chunk of its own`,
      ).toBe(true);
    }
  });
});
