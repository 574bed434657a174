import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';

const dir = mkdtempSync(join(tmpdir(), 'docs-'));
const output = join(dir, 'index.html');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the reference docs (npm run docs)', () => {
  it('when built, then the HTML is one file that loads no script from elsewhere', () => {
    execFileSync('node_modules/.bin/tsx', ['scripts/docs.ts'], { env: { ...process.env, DOCS_OUTPUT: output }, stdio: 'pipe' });
    const html = readFileSync(output, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(html).toContain('Platform Administration API');
  });

  it('when opened with the network off, then it renders the operations', async () => {
    const { context, close } = await launchBrowser();
    try {
      const refused: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        refused.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      await page.goto(pathToFileURL(output).href);
      await page.getByRole('heading', { name: /Platform Administration API/ }).first().waitFor({ timeout: 20_000 });
      await page.getByText('Print template mappings', { exact: true }).first().click();
      await page.getByText('Pick the mapping that prints a document type for a business unit').first().waitFor({ timeout: 20_000 });
      expect(refused.filter((url) => /\.(js|css)(\?|$)/.test(url))).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
