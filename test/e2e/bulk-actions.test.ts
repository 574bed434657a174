import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ListPage } from './pages/ListPage.js';
import { BulkToolbar } from './pages/BulkToolbar.js';

describe('bulk actions', () => {
  const session = useBrowserSession();
  const prefix = uniqueCode('E2E-BULK');
  const codes = [1, 2, 3].map((i) => `${prefix}-${i}`);

  beforeAll(async () => {
    const baseUrl = inject('baseUrl');
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    for (const code of codes)
      await apiOk(baseUrl, admin, 'POST', '/api-system/clusters', { code, name: `Bulk ${code}` });
  });

  it('deletes three selected clusters, which then show under the deleted filter', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const list = new ListPage(page, baseUrl, 'clusters');
    await list.open();
    await list.search().fill(prefix);
    await expect.poll(() => list.rows().count(), { timeout: 10_000 }).toBe(3);

    const bulk = new BulkToolbar(page);
    await bulk.select(codes.map((code) => list.rowWith(code)));
    expect(await bulk.count().textContent()).toBe('3 selected');
    await bulk.runConfirmed('Delete');
    await page.getByText('Delete: done for 3 rows').waitFor();
    await expect.poll(() => list.rows().count(), { timeout: 10_000 }).toBe(0);

    await page.getByTestId('open-filters').click();
    await page.getByRole('switch', { name: 'Show soft-deleted' }).check();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => list.rows().count(), { timeout: 10_000 }).toBe(3);
    for (const code of codes) await list.rowWith(code).waitFor();
    await session.screenshot('bulk-deleted');
  });
});
