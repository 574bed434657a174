import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useBrowserSession } from './support/session.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ListPage } from './pages/ListPage.js';

const WIDTHS = [1440, 1024, 768] as const;

/** True when the element is drawn and lies wholly within the page's width (nothing to scroll sideways to reach it). */
async function fullyOnScreen(page: Page, locator: Locator): Promise<boolean> {
  if (!(await locator.isVisible())) return false;
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return !!box && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/** The document's scroll width: more than the viewport means the page scrolls sideways. */
const pageWidth = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );

describe('lists on narrow screens', () => {
  const session = useBrowserSession();

  for (const resource of ['clusters', 'business-units'] as const) {
    it(`keeps Create, the row actions and the pagination of ${resource} on screen at ${WIDTHS.join(', ')} px`, async () => {
      const { page, baseUrl } = session;
      await signInAs(page, baseUrl, ACCOUNTS.admin);
      const list = new ListPage(page, baseUrl, resource);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await list.open();
        const firstRow = list.rows().first();
        expect(await fullyOnScreen(page, list.createButton()), `Create at ${width}`).toBe(true);
        expect(await fullyOnScreen(page, list.rowMenuButton(firstRow)), `row actions at ${width}`).toBe(true);
        expect(await fullyOnScreen(page, list.pagination()), `pagination at ${width}`).toBe(true);
        // Secondary columns fold away below 1280 px; the record's code and name stay.
        expect(await list.columnHeader('Created').isVisible(), `Created column at ${width}`).toBe(width >= 1280);
        expect(await list.columnHeader('Code').isVisible()).toBe(true);
        // The page itself never scrolls sideways.
        expect(await pageWidth(page), `page width at ${width}`).toBeLessThanOrEqual(width);
        await session.screenshot(`narrow-${resource}-${width}`);
      }
    });
  }

  it(`keeps the print mappings toolbar and row actions on screen at ${WIDTHS.join(', ')} px`, async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.mapper);
    const list = new ListPage(page, baseUrl, 'print-template-mappings');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await list.open();
      expect(await fullyOnScreen(page, list.createButton()), `Create at ${width}`).toBe(true);
      expect(await fullyOnScreen(page, list.exportButton()), `Export at ${width}`).toBe(true);
      expect(
        await fullyOnScreen(page, list.rows().first().getByRole('link', { name: 'Edit' })),
        `Edit at ${width}`,
      ).toBe(true);
      // A wide table scrolls inside its card (its actions column stays in view); the page does not.
      expect(await pageWidth(page), `page width at ${width}`).toBeLessThanOrEqual(width);
      await session.screenshot(`narrow-print-template-mappings-${width}`);
    }
  });
});
