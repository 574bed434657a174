import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ListPage } from './pages/ListPage.js';
import { CsvExportDialog } from './pages/CsvExportDialog.js';
import { switchConsoleLanguage } from './support/browserStorage.js';

/** More mappings than the list's first page holds, so "every matching row" differs from the page. */
const MAPPINGS = 12;

describe('the full-page lists', () => {
  const session = useBrowserSession();
  const label = uniqueCode('E2E-MAPX');

  beforeAll(async () => {
    const baseUrl = inject('baseUrl');
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const templates = await apiOk<{ data: { id: string }[] }>(
      baseUrl,
      admin,
      'GET',
      '/api-system/report-templates?perpage=1',
    );
    for (let i = 0; i < MAPPINGS; i++) {
      await apiOk(baseUrl, admin, 'POST', '/api-system/print-template-mappings', {
        document_type: 'SC',
        report_template_id: templates.data[0]!.id,
        is_default: false,
        display_label: `${label} ${String(i).padStart(2, '0')}`,
        display_order: 50 + i,
      });
    }
  });

  it('users and the audit log filter behind the Filters button and still have their filters after a visit elsewhere', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const users = new ListPage(page, baseUrl, 'users');
    await users.open();
    // No filter stands in the toolbar: they wait in the sheet, as on the cluster list.
    expect(await page.getByTestId('filter-active').count()).toBe(0);
    await users.inFilterSheet((sheet) => users.pickInSheet(sheet, 'filter-active', 'Active'));
    await users.search().fill('admin');
    // The search applies once the typing stops: every row then names an admin.
    await expect.poll(() => users.rows().filter({ hasNotText: 'admin' }).count(), { timeout: 10_000 }).toBe(0);

    const log = new ListPage(page, baseUrl, 'audit-log');
    await log.open();
    await log.inFilterSheet((sheet) => log.pickInSheet(sheet, 'filter-action', 'Created the cluster'));

    await new ListPage(page, baseUrl, 'clusters').open();
    await users.open();
    expect(await users.search().inputValue()).toBe('admin');
    await users.inFilterSheet(async (sheet) => {
      expect(await sheet.getByTestId('filter-active').textContent()).toBe('Active');
    });
    // The remembered filter may match nothing in this database: the log's empty state is its page too.
    await page.goto(`${baseUrl}/#/audit-log`);
    await log.filtersButton().waitFor();
    await log.inFilterSheet(async (sheet) => {
      expect(await sheet.getByTestId('filter-action').textContent()).toBe('Created the cluster');
    });
    await session.screenshot('lists-remembered-filters');
  });

  it('shows the audit log’s days the Thai way in Thai: the picked day and each event’s time carry the Buddhist year, never the browser’s mm/dd/yyyy', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    // The browser itself speaks en-US, whose date inputs read mm/dd/yyyy: the console's language must win.
    await page.goto(`${baseUrl}/#/audit-log`);
    await switchConsoleLanguage(page, 'th');
    const firstRow = page.getByTestId('audit-row').first();
    await firstRow.waitFor();
    const usDate = /\b\d{1,2}\/\d{1,2}\/\d{4}\b/;
    const rowText = await firstRow.innerText();
    expect(rowText).toMatch(/25\d\d/);
    expect(rowText).not.toMatch(usDate);

    await page.getByTestId('open-filters').click();
    await page.getByTestId('filter-from').fill('2026-11-27');
    const shown = page.getByTestId('filter-from-text');
    await expect.poll(() => shown.inputValue()).toContain('2569');
    expect(await shown.inputValue()).toContain('27');
    expect(await shown.inputValue()).not.toMatch(usDate);
    await session.screenshot('audit-log-thai-day');
  });

  it('the cluster list keeps its search, status filter and page size in the seed’s keys, and finds them again after a reload', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const clusters = new ListPage(page, baseUrl, 'clusters');
    await clusters.open();
    await clusters.search().fill('CL-');
    await expect.poll(() => clusters.rows().filter({ hasNotText: 'CL-' }).count(), { timeout: 10_000 }).toBe(0);
    await clusters.inFilterSheet((sheet) => sheet.getByRole('checkbox', { name: 'Active', exact: true }).check());
    const seedKeys = () =>
      page.evaluate(() => {
        const storage = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
        return ['search_clusters', 'page_clusters', 'filters_clusters', 'filter_clusters_deleted'].map((k) =>
          storage.getItem(k),
        );
      });
    await expect.poll(seedKeys, { timeout: 10_000 }).toEqual(['"CL-"', '1', '["active"]', 'false']);

    // A fresh load of the bare address reads them back: the same search, the same filter.
    await page.goto(`${baseUrl}/#/clusters`);
    await page.reload();
    await clusters.rows().first().waitFor();
    expect(await clusters.search().inputValue()).toBe('CL-');
    await clusters.inFilterSheet(async (sheet) => {
      expect(await sheet.getByRole('checkbox', { name: 'Active', exact: true }).isChecked()).toBe(true);
    });
    expect(await clusters.rows().filter({ hasText: 'Inactive' }).count()).toBe(0);
  });

  it('exports every matching mapping from the server, named with the local day in Bangkok just after midnight', async () => {
    const { baseUrl } = session;
    // 00:33 in Bangkok is 17:33 UTC of the day before: the server's own name would carry that earlier day. The
    // session's browser runs in UTC, so this flow has a context of its own in Bangkok.
    const context = await session.page
      .context()
      .browser()!
      .newContext({
        viewport: { width: 1400, height: 900 },
        locale: 'en-US',
        timezoneId: 'Asia/Bangkok',
      });
    const page = await context.newPage();
    const utcDay = new Date().toISOString().slice(0, 10);
    const justAfterMidnight = new Date(`${utcDay}T17:33:00.000Z`);
    const bangkokDay = new Date(justAfterMidnight.getTime() + 7 * 3600_000).toISOString().slice(0, 10);

    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const list = new ListPage(page, baseUrl, 'print-template-mappings');
    await list.open();
    await list.search().fill(label);
    // Other mappings fill a first page too: wait for the search's total in the pagination.
    await expect
      .poll(async () => (await page.locator('.MuiTablePagination-displayedRows').textContent()) ?? '', {
        timeout: 10_000,
      })
      .toMatch(new RegExp(`of ${MAPPINGS}$`));
    expect(await list.rows().count()).toBe(10);

    await page.clock.setFixedTime(justAfterMidnight);
    const dialog = new CsvExportDialog(page);
    await dialog.open(list.exportButton());
    expect(await dialog.allRows().textContent()).toBe(`All ${MAPPINGS} matching rows`);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api-system/print-template-mappings/export')),
      dialog.download('all').then((file) => {
        expect(file.filename).toBe(`print-template-mappings-${bangkokDay}.csv`);
        expect(file.rows).toHaveLength(MAPPINGS);
        for (let i = 0; i < MAPPINGS; i++) expect(file.text).toContain(`${label} ${String(i).padStart(2, '0')}`);
      }),
    ]);
    // Every matching row: no page is named, the list's search is.
    const query = new URL(request.url()).searchParams;
    expect(query.get('search')).toBe(label);
    expect(query.has('page')).toBe(false);
    await context.close();
  });

  it('fits every list in 768 px without scrolling sideways', async () => {
    const { page, baseUrl } = session;
    await page.setViewportSize({ width: 768, height: 1000 });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    for (const resource of ['clusters', 'business-units', 'users', 'print-template-mappings', 'audit-log'] as const) {
      const list = new ListPage(page, baseUrl, resource);
      await list.open();
      expect(await list.scrollsSideways(), resource).toBe(false);
    }
    await session.screenshot('lists-768-mappings');
  });
});
