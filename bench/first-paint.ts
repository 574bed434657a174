/**
 * First list render after navigation, in Debian's headless chromium, on a warm server.
 *
 *   npx tsx bench/first-paint.ts [--runs 15] [--base-url http://127.0.0.1:3000 | --console-dir <a console build>]
 *
 * Without --base-url it builds the console for production (or serves `--console-dir`, e.g. an older build to compare
 * with), starts the product as `npm start` does on a fresh
 * embedded database and a free port, and stops it at the end. It signs in as admin, warms the server and the
 * browser cache up (three visits of each list), then measures, per run:
 *
 * - **in-app**: from the click on the "Clusters" menu entry on the workspace to the first row of the cluster list
 *   in the DOM, after 1.5 s on the workspace (`DWELL_MS`; the list screens are prefetched while the browser is idle).
 *   The first visit of a session also runs the list's code for the first time, later ones do not: both are reported;
 * - **reload**: a full page load of `/#/clusters` (warm HTTP cache, a session in storage), from navigation start to
 *   the first row, so the initial bundle, the permission read and the list read are all in it.
 *
 * Prints the median and p90 of each, in milliseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { freePort, startProcess, waitForHttp, type Started } from '../test/support/processes.js';
import { CHROMIUM_PATH } from '../test/support/browser.js';
import { buildConsole } from '../admin-ui/src/test/bundleSize.js';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ROW = '[data-testid="list-row"]';
/** Time on the workspace before the first click (the list screens are prefetched when the browser is idle). */
const DWELL_MS = Number(process.env.DWELL_MS ?? 1500);

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const summary = (values: number[]) =>
  `median ${percentile(values, 50).toFixed(0)} ms, p90 ${percentile(values, 90).toFixed(0)} ms (n=${values.length})`;

/** Resolves with the page time (performance.now) at which the first list row entered the DOM. */
async function armRowWatch(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    const w = globalThis as unknown as {
      __firstRow?: number;
      document: { querySelector(s: string): unknown; body: object };
      MutationObserver: new (cb: () => void) => { observe(n: object, o: object): void; disconnect(): void };
    };
    w.__firstRow = undefined;
    const observer = new w.MutationObserver(() => {
      if (w.__firstRow === undefined && w.document.querySelector(selector)) {
        w.__firstRow = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(w.document.body, { childList: true, subtree: true });
  }, ROW);
}

async function startProduct(prebuilt: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'first-paint-'));
  const consoleDir = prebuilt || buildConsole(join(dataDir, 'console'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: Started = startProcess('node_modules/.bin/tsx', ['scripts/start.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CONSOLE_DIR: consoleDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  });
  await waitForHttp(`${baseUrl}/healthz`, 90_000).catch(async (error) => {
    await server.stop();
    throw new Error(`the server did not start:\n${server.output()}\n${String(error)}`);
  });
  return {
    baseUrl,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const runs = Number(option('runs', '15'));
  const external = option('base-url', '');
  const product = external
    ? { baseUrl: external.replace(/\/$/, ''), stop: () => Promise.resolve() }
    : await startProduct(option('console-dir', ''));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    // Marks `first-row` in every new document the moment the first list row enters the DOM.
    await context.addInitScript((selector: string) => {
      const w = globalThis as unknown as {
        document: { querySelector(s: string): unknown };
        MutationObserver: new (cb: () => void) => { observe(n: object, o: object): void; disconnect(): void };
      };
      const observer = new w.MutationObserver(() => {
        if (w.document.querySelector(selector)) {
          performance.mark('first-row');
          observer.disconnect();
        }
      });
      observer.observe(w.document, { childList: true, subtree: true });
    }, ROW);
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/#/login`);
    await page.getByRole('textbox', { name: /^Username/ }).fill('admin');
    await page.getByRole('textbox', { name: /^Password/ }).fill(process.env.ADMIN_PASSWORD ?? 'admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.hash.startsWith('#/login'));

    // Warm up: the server's caches and pools, the browser's HTTP cache and the lazy chunks of both lists.
    for (let i = 0; i < 3; i++) {
      for (const list of ['clusters', 'business-units']) {
        await page.goto(`${product.baseUrl}/#/${list}`);
        await page.waitForSelector(ROW);
      }
    }

    const firstInApp: number[] = [];
    const inApp: number[] = [];
    const reload: number[] = [];
    for (let run = 0; run < runs; run++) {
      // Full load of the list (a new document: the bundle, the permissions and the list are all fetched).
      await page.goto('about:blank');
      await page.goto(`${product.baseUrl}/#/clusters`);
      await page.waitForSelector(ROW);
      // Milliseconds from the navigation's start (the page's time origin) to the mark.
      reload.push(await page.evaluate(() => performance.getEntriesByName('first-row')[0]?.startTime ?? Number.NaN));

      // In-app: a new document on the workspace (lazy chunks not loaded yet), then the menu entry, twice.
      await page.goto('about:blank');
      await page.goto(`${product.baseUrl}/#/`);
      await page.getByRole('menuitem', { name: 'Clusters' }).waitFor();
      // A person looks at the workspace for a moment before choosing a list; the console uses that idle time.
      await page.waitForTimeout(DWELL_MS);
      for (const bucket of [firstInApp, inApp]) {
        await armRowWatch(page);
        const clickedAt = await page.evaluate(() => performance.now());
        await page.getByRole('menuitem', { name: 'Clusters' }).click();
        await page.waitForSelector(ROW);
        const shownAt = await page.evaluate(
          () => (globalThis as unknown as { __firstRow?: number }).__firstRow ?? performance.now(),
        );
        bucket.push(shownAt - clickedAt);
        await page.getByRole('menuitem', { name: 'My workspace' }).click();
        await page.getByRole('heading', { name: 'My workspace', level: 1 }).waitFor();
      }
    }
    console.log(`cluster list, first row after navigation (${runs} runs, warm server, headless chromium):`);
    console.log(`  in-app, first visit of the session (list chunk fetched): ${summary(firstInApp)}`);
    console.log(`  in-app, later visits:                                   ${summary(inApp)}`);
    console.log(`  full page load of /#/clusters (warm HTTP cache):         ${summary(reload)}`);
  } finally {
    await browser.close();
    await product.stop();
  }
}

await main();
