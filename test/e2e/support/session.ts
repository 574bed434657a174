// One browser per test file; every flow gets a fresh browser context (no storage, no session) and page,
// its console watched for errors and React warnings.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { CHROMIUM_PATH } from '../../support/browser.js';

export interface Session {
  readonly baseUrl: string;
  readonly page: Page;
  /** Saves a screenshot of the current page under test-results/e2e/<name>.png. */
  screenshot(name: string): Promise<void>;
  /**
   * Declares console lines this flow provokes on purpose (a refused request it sends to test the refusal), for this
   * flow only. Keep each pattern as narrow as the request it stands for.
   */
  expectConsole(pattern: RegExp): void;
}

/**
 * Console lines that are not product defects. Every entry is narrow and says why it is here; a broad
 * pattern would hide real errors.
 */
const IGNORED: RegExp[] = [/Download the React DevTools/];

// Without the background-networking flags chromium keeps dialling out, which this closed network refuses.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Default wait for visible state; the machine is shared, so leave headroom without hiding hangs. */
export const STEP_TIMEOUT_MS = 15_000;

const describeMessage = (message: ConsoleMessage): string => {
  const { url, lineNumber } = message.location();
  const where = url ? ` (at ${url}${lineNumber ? `:${lineNumber}` : ''})` : '';
  return `${message.type()}: ${message.text()}${where} [page ${message.page()?.url() ?? '?'}]`;
};

export function useBrowserSession(): Session {
  const baseUrl = inject('baseUrl');
  const screenshotDir = inject('screenshotDir');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];
  let expected: RegExp[] = [];

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true });
  });
  afterAll(async () => browser?.close());

  beforeEach(async () => {
    problems = [];
    expected = [];
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() !== 'error' && message.type() !== 'warning') return;
      const line = describeMessage(message);
      if (IGNORED.some((re) => re.test(line)) || expected.some((re) => re.test(line))) return;
      problems.push(line);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  });

  afterEach(async (ctx) => {
    // A failed flow leaves a picture of where it stopped.
    if (ctx.task.result?.state === 'fail' && page && !page.isClosed()) {
      const name = `failed-${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`;
      await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true }).catch(() => undefined);
    }
    await context?.close();
    expect(problems, 'the browser console reported errors or warnings').toEqual([]);
  });

  return {
    baseUrl,
    get page() {
      return page;
    },
    async screenshot(name: string) {
      await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
    },
    expectConsole(pattern: RegExp) {
      expected.push(pattern);
    },
  };
}
