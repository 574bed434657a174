import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { AccessDeniedPage } from './pages/AccessDeniedPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { AppShell } from './pages/AppShell.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { BusinessUnitCreatePage } from './pages/BusinessUnitCreatePage.js';

describe('route guards', () => {
  const session = useBrowserSession();

  it('shows a read-only user the access-denied screen on /clusters/create, never the form', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.viewer);
    const api = new ApiRecorder(page);
    await page.goto(`${baseUrl}/#/clusters/create`);
    const denied = new AccessDeniedPage(page);
    await denied.waitShown();
    await denied.message().waitFor();
    expect(page.url()).toContain('#/access-denied');
    expect(await new ClusterCreatePage(page, baseUrl).code().count()).toBe(0);
    expect(api.writes()).toEqual([]);
    await session.screenshot('access-denied-clusters-new');

    // The way back leads to the workspace, and the session is intact (a refusal is not a lost session).
    await denied.backToWorkspace().click();
    await new AppShell(page).workspaceHeading().waitFor();
    expect(page.url()).not.toContain('#/login');
  });

  it('sends a user without cluster.read from the cluster and BU lists to access-denied without asking for the rows', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.operator);
    const api = new ApiRecorder(page);
    for (const list of ['clusters', 'business-units']) {
      await page.goto(`${baseUrl}/#/${list}`);
      await new AccessDeniedPage(page).waitShown();
      expect(page.url()).toContain('#/access-denied');
    }
    // The console never fetched a list it may not read (that would be a 403 in the browser console).
    expect(api.recorded({ method: 'GET', path: /^\/api-system\/(clusters|business-units)$/ })).toEqual([]);
    await session.screenshot('access-denied-lists');
  });

  it('leads the older /new addresses to /create, the query kept', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/clusters/new`);
    await page.waitForURL(/#\/clusters\/create$/);
    await new ClusterCreatePage(page, baseUrl).code().waitFor();
    await page.goto(`${baseUrl}/#/users/new`);
    await page.waitForURL(/#\/users\/create$/);
    const clusterId = await page.evaluate(async () => {
      const storage = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
      const headers = { Authorization: `Bearer ${storage.getItem('auth.access_token')}` };
      const body = (await (await fetch('/api-system/clusters?perpage=1', { headers })).json()) as {
        data: Array<{ id: string }>;
      };
      return body.data[0]!.id;
    });
    await page.goto(`${baseUrl}/#/business-units/new?cluster_id=${clusterId}`);
    await page.waitForURL(new RegExp(`#/business-units/create\\?cluster_id=${clusterId}$`));
    // The create page, never a record page reading "create" as an id.
    await new BusinessUnitCreatePage(page, baseUrl).createButton().waitFor();
    expect(await page.getByText(/must match format/).count()).toBe(0);
  });

  it('shows Not found with the way back for a malformed id, an unknown id and an unknown address', async () => {
    const { page, baseUrl } = session;
    // The unknown record is asked for once, and the server answers 404: the browser logs that refusal.
    session.expectConsole(/status of 404 \(Not Found\)|Cluster not found|No such print template mapping/);
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const notFound = new NotFoundPage(page);

    for (const address of [
      '/print-template-mappings/not-a-uuid',
      '/print-template-mappings/00000000-0000-4000-8000-000000000000/show',
      '/clusters/not-a-uuid',
      '/clusters/00000000-0000-4000-8000-000000000000/edit',
    ]) {
      await page.goto(`${baseUrl}/#${address}`);
      await notFound.waitShown();
      expect(page.url(), address).toContain(address);
      expect(await page.getByText(/must match format|params\/id/).count(), address).toBe(0);
      expect(await page.getByRole('button', { name: 'Retry' }).count(), address).toBe(0);
    }
    await session.screenshot('not-found-cluster');
    await notFound.backLink('Back to Clusters').click();
    await page.waitForURL(/#\/clusters$/);

    await page.goto(`${baseUrl}/#/no-such-screen`);
    await notFound.waitShown();
    // Its sentences end once: react-admin's own text ended "a bad link.." here.
    expect(await page.locator('main').first().innerText()).not.toMatch(/\.\./);
    await notFound.backLink('Back to the workspace').click();
    await new AppShell(page).workspaceHeading().waitFor();
  });
});
