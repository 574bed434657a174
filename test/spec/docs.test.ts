import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDocs } from '../../scripts/lib/docs.js';
import { startTestServer } from '../server/support/index.js';
import { launchBrowser } from '../support/browser.js';

const dir = mkdtempSync(join(tmpdir(), 'docs-'));
const output = join(dir, 'index.html');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lets through only what `allowed` accepts; every other request the page makes is refused and recorded. */
async function refuseAllBut(context: BrowserContext, allowed: (url: string) => boolean): Promise<string[]> {
  const refused: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed(url)) return route.continue();
    refused.push(url);
    return route.abort();
  });
  return refused;
}

/** The page renders the operations, shows the generated code samples, and no "API docs by Redocly" attribution. */
async function expectRenderedDocs(page: Page): Promise<void> {
  await page
    .getByRole('heading', { name: /Platform Administration API/ })
    .first()
    .waitFor({ timeout: 20_000 });
  await page.getByText('Print template mappings', { exact: true }).first().click();
  await page
    .getByText('Pick the mapping that prints a document type for a business unit')
    .first()
    .waitFor({ timeout: 20_000 });
  await page
    .getByText(/curl .*\/api-system\/print-template-mappings/)
    .first()
    .waitFor({ timeout: 20_000 });
  expect(await page.getByText('API docs by').isVisible()).toBe(false);
  // Let late requests (images, fonts, workers) happen before the caller looks at what was refused.
  await page.waitForLoadState('networkidle');
}

describe('the reference docs (npm run docs)', () => {
  it('when built, then the HTML is one file that loads nothing from elsewhere', () => {
    execFileSync('node_modules/.bin/tsx', ['scripts/docs.ts'], {
      env: { ...process.env, DOCS_OUTPUT: output },
      stdio: 'pipe',
    });
    const html = readFileSync(output, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/);
    expect(html).not.toContain('cdn.redoc.ly');
    expect(html).toContain('Platform Administration API');
  });

  it('when opened with the network off, then it renders the operations and their code samples, and no request leaves the page', async () => {
    const { context, close } = await launchBrowser();
    try {
      const refused = await refuseAllBut(context, (url) => /^(file|data|blob):/.test(url));
      const page = await context.newPage();
      await page.goto(pathToFileURL(output).href);
      await expectRenderedDocs(page);
      expect(refused).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('the reference docs served at /docs', () => {
  it('when opened from the server, then they render with PUBLIC_BASE_URL as the server and ask nothing of any other origin', async () => {
    ensureDocs();
    const t = await startTestServer('pglite', {
      seed: false,
      env: { PUBLIC_BASE_URL: 'http://docs.example.test:8080' },
    });
    const { context, close } = await launchBrowser();
    try {
      const refused = await refuseAllBut(context, (url) => url === `${t.baseUrl}/docs` || /^(data|blob):/.test(url));
      const page = await context.newPage();
      const response = await page.goto(`${t.baseUrl}/docs`);
      expect(response?.status()).toBe(200);
      await expectRenderedDocs(page);
      // The code samples call the deployment's address (innerText: only what is rendered visibly).
      expect(await page.locator('body').innerText()).toContain(
        'http://docs.example.test:8080/api-system/print-template-mappings',
      );
      expect(refused).toEqual([]);
    } finally {
      await close();
      await t.close();
    }
  }, 90_000);
});
