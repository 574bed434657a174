import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { AccessDeniedPage } from './pages/AccessDeniedPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { AppShell } from './pages/AppShell.js';

describe('route guards', () => {
  const session = useBrowserSession();

  it('shows a read-only user the access-denied screen on /clusters/new, never the form', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.viewer);
    const api = new ApiRecorder(page);
    await page.goto(`${baseUrl}/#/clusters/new`);
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
});
