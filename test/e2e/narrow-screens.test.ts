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

/** A business unit of the demo data, read through the API with the browser's session. */
const firstBusinessUnitId = (page: Page) =>
  page.evaluate(async () => {
    const storage = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
    const headers = { Authorization: `Bearer ${storage.getItem('auth.access_token')}` };
    const body = (await (await fetch('/api-system/business-units?perpage=1', { headers })).json()) as {
      data: Array<{ id: string }>;
    };
    return body.data[0]!.id;
  });

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

  it('folds the side menu below 900 px and keeps a business unit title clear of the app bar controls', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/business-units/${await firstBusinessUnitId(page)}`);
    const sideMenu = page.locator('.RaSidebar-fixed');
    const title = page.locator('#react-admin-title');
    await title.getByText(/^Business unit /).waitFor();

    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(async () => (await sideMenu.boundingBox())?.width ?? 0).toBeGreaterThan(200);

    await page.setViewportSize({ width: 768, height: 900 });
    // Folded to its icons: the record gets the width.
    await expect.poll(async () => (await sideMenu.boundingBox())?.width ?? 999).toBeLessThan(64);
    const language = page.getByRole('button', { name: /^Language: English$/ });
    const controls = [
      language,
      page.getByRole('button', { name: 'Toggle light/dark mode' }),
      page.locator('.RaUserMenu-userButton'),
    ];
    const titleBox = (await title.boundingBox())!;
    for (const control of controls) {
      expect(await fullyOnScreen(page, control)).toBe(true);
      const box = (await control.boundingBox())!;
      // The title (cut with an ellipsis when long) ends before the first control starts.
      expect(titleBox.x + titleBox.width, 'title overlaps a control').toBeLessThanOrEqual(box.x);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(768);
    await session.screenshot('narrow-business-unit-768');

    // The operator can still open the menu on a narrow screen.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect.poll(async () => (await sideMenu.boundingBox())?.width ?? 0).toBeGreaterThan(200);

    // The language menu works from its icon.
    await language.click();
    await page.getByRole('menuitem', { name: 'ไทย' }).click();
    await page.getByRole('button', { name: /^ภาษา: ไทย$/ }).waitFor();
  });
});
