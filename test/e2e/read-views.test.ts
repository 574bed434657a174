import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';
import { ListPage } from './pages/ListPage.js';

describe('read views', () => {
  const session = useBrowserSession();

  it('lets a viewer open a cluster from a row click and see its cards read-only', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.viewer);
    const list = new ListPage(page, baseUrl, 'clusters');
    await list.open();
    const row = await list.find('CL-A');
    // The row menu opens the record too (it used to offer nothing).
    await list.openRowMenu(row);
    await page.getByRole('menuitem', { name: 'Open' }).waitFor();
    await page.keyboard.press('Escape');

    // A click on the row opens the read view.
    await row.getByText('Andaman Hotels Group').click();
    await page.waitForURL(/#\/clusters\/[0-9a-f-]{36}$/);
    const view = new ClusterEditPage(page, baseUrl);
    await view.waitLoaded();
    expect(await view.mode()).toBe('view');
    expect(await view.code().inputValue()).toBe('CL-A');
    // Every card is there…
    await view.logo().waitFor();
    await expect.poll(() => view.buRows().count()).toBeGreaterThan(0);
    await view.usersCard().getByRole('row').nth(1).waitFor();
    // …and nothing can be changed.
    expect(await view.editButton().count()).toBe(0);
    expect(await view.buAdd().count()).toBe(0);
    expect(await view.addUserButton().count()).toBe(0);
    expect(await view.usersCard().getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    expect(await view.code().getAttribute('readonly')).not.toBeNull();
    await session.screenshot('read-view-cluster-viewer');

    // A business unit of the cluster opens the same way.
    await view.buRows().first().getByRole('link').first().click();
    await page.waitForURL(/#\/business-units\/[0-9a-f-]{36}$/);
    await page.getByTestId('bu-summary').waitFor();
    expect(await page.getByTestId('bu-edit').getAttribute('data-mode')).toBe('view');
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await session.screenshot('read-view-bu-viewer');
  });

  it('shows the Not-found page for a record of a cluster the caller holds no grant on, as for one that does not exist', async () => {
    const { page, baseUrl } = session;
    // The server answers 404 for a business unit of CL-B to editor-a (it does not say the record exists).
    session.expectConsole(/Failed to load resource: the server responded with a status of 404/);
    session.expectConsole(/Business unit not found/);
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const buId = await page.evaluate(async () => {
      const storage = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
      const res = await fetch('/api-system/business-units?search=B-SKV&perpage=5', {
        headers: { Authorization: `Bearer ${storage.getItem('auth.access_token')}` },
      });
      const body = (await res.json()) as { data: { id: string; code: string }[] };
      return body.data.find((b) => b.code === 'B-SKV')?.id ?? '';
    });
    expect(buId).not.toBe('');
    await page.getByRole('button', { name: 'Platform Admin' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/#\/login/);

    await signInAs(page, baseUrl, ACCOUNTS.editorA);
    for (const path of [`/business-units/${buId}`, `/business-units/${buId}/edit`]) {
      await page.goto(`${baseUrl}/#${path}`);
      // The same page as for an id that names nothing: the console, like the server, does not say the record exists.
      await page.getByTestId('not-found').waitFor();
      expect(page.url()).toContain(`#${path}`);
      expect(await page.getByTestId('error-state').count()).toBe(0);
    }
    await session.screenshot('read-view-not-found-other-cluster');
  });
});
