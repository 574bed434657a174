import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ListPage } from './pages/ListPage.js';
import { CsvExportDialog } from './pages/CsvExportDialog.js';

/** More clusters than the list's first page holds, so "this page" and "all" differ. */
const CLUSTERS = 12;

describe('CSV export', () => {
  const session = useBrowserSession();
  const prefix = uniqueCode('E2E-EXP');
  const codes = Array.from({ length: CLUSTERS }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);

  beforeAll(async () => {
    const baseUrl = inject('baseUrl');
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    for (const code of codes)
      await apiOk(baseUrl, admin, 'POST', '/api-system/clusters', { code, name: `Export ${code}` });
  });

  it('saves this page or every matching cluster, as the server writes them', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const list = new ListPage(page, baseUrl, 'clusters');
    await list.open();
    await list.search().fill(prefix);
    // The unfiltered list shows our 10 newest clusters too: wait for the search's total in the pagination.
    await expect
      .poll(async () => (await list.pagination().textContent()) ?? '')
      .toMatch(new RegExp(`of ${CLUSTERS}\\b`));
    await expect.poll(() => list.rows().count()).toBe(10);

    const dialog = new CsvExportDialog(page);
    await dialog.open(list.exportButton());
    expect(await dialog.thisPage().textContent()).toBe('This page (10 rows)');
    expect(await dialog.allRows().textContent()).toBe(`All ${CLUSTERS} matching rows`);
    await session.screenshot('export-choices');

    const onePage = await dialog.download('page');
    expect(onePage.filename).toMatch(/^clusters-\d{4}-\d{2}-\d{2}\.csv$/);
    // UTF-8 with a BOM, so spreadsheets read Thai names right.
    expect(onePage.text.startsWith('\uFEFF')).toBe(true);
    expect(onePage.rows).toHaveLength(10);
    for (const row of onePage.rows) expect(codes.some((code) => row.includes(code))).toBe(true);

    await dialog.open(list.exportButton());
    const all = await dialog.download('all');
    expect(all.filename).toMatch(/^clusters-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.rows).toHaveLength(CLUSTERS);
    for (const code of codes) expect(all.text).toContain(code);
  });

  it('saves the audit log with its filters', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/audit-log`);
    const log = page.getByTestId('audit-log');
    await log.getByTestId('audit-row').first().waitFor();
    const list = new ListPage(page, baseUrl, 'audit-log');
    await list.inFilterSheet((sheet) => list.pickInSheet(sheet, 'filter-action', 'Created the cluster'));
    await log.getByTestId('audit-row').first().waitFor();

    const dialog = new CsvExportDialog(page);
    await dialog.open(log.getByRole('button', { name: 'Export' }));
    const all = await dialog.download('all');
    expect(all.filename).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    // Every cluster created above left one event; the filter keeps every other action out.
    expect(all.rows.length).toBeGreaterThanOrEqual(CLUSTERS);
    for (const row of all.rows) expect(row).toContain('createCluster');
  });
});
