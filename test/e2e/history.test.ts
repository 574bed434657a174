// History names things: a grant reads "Granted Read clusters on <cluster> to <account>" with links, in the account's
// History and the audit log; a bulk deactivation reads "Deactivated"; a rename is reverted from the cluster's History,
// and a revert over someone else's later change is refused with the changed-by-someone-else message; a replaced logo
// shows beside the new one.
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn, type ApiSession } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';
import { HistoryCard } from './pages/HistoryCard.js';
import { UserViewPage } from './pages/UserPages.js';
import { wellFormedPng } from '../support/images.js';

describe('history', () => {
  const session = useBrowserSession();

  /** A new cluster made by the administrator through the API. */
  async function newCluster(admin: ApiSession): Promise<{ id: string; code: string; name: string }> {
    const code = uniqueCode('E2E-H');
    return apiOk(session.baseUrl, admin, 'POST', '/api-system/clusters', { code, name: `History ${code}` });
  }

  /** The demo's read-only account, as the administrator finds it. */
  async function theViewer(admin: ApiSession): Promise<{ id: string; username: string }> {
    const { data } = await apiOk<{ data: Array<{ id: string; username: string }> }>(
      session.baseUrl,
      admin,
      'GET',
      `/api-system/users?search=${ACCOUNTS.viewer.username}&perpage=10`,
    );
    return data.find((u) => u.username === ACCOUNTS.viewer.username)!;
  }

  it('names a grant by its permission, cluster and account, with links, in the History and the audit log', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await newCluster(admin);
    const viewer = await theViewer(admin);
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/users/${viewer.id}`);
    const user = new UserViewPage(page);
    await user.waitLoaded();
    await user.openTab('Access');
    await user.addGrantOnCluster('Read clusters', cluster.code);
    await user.grantRow('Read clusters').filter({ hasText: cluster.code }).waitFor();

    const sentence = `Granted Read clusters on ${cluster.code} to viewer`;
    await user.openTab('History');
    const history = new HistoryCard(page, 'history-tab');
    await history.open();
    const granted = history.event(sentence).first();
    await granted.waitFor();
    await session.screenshot('history-grant-named');
    await history.summary(granted).getByRole('link', { name: cluster.code }).click();
    await page.waitForURL(new RegExp(`#/clusters/${cluster.id}`));

    await page.goto(`${baseUrl}/#/audit-log`);
    const row = page.getByTestId('audit-row').first();
    await row.getByTestId('audit-row-toggle').click();
    const summary = page.getByTestId('audit-summary').first();
    await expect.poll(() => summary.textContent()).toBe(sentence);
    expect(await summary.getByRole('link', { name: 'viewer' }).getAttribute('href')).toContain(`/users/${viewer.id}`);
    await session.screenshot('history-audit-log-named');
  });

  it('lists the members who joined and changed role in the cluster History, by name', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await newCluster(admin);
    const viewer = await theViewer(admin);
    const joined = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/user/clusters', {
      user_id: viewer.id,
      cluster_id: cluster.id,
      role: 'user',
    });
    await apiOk(baseUrl, admin, 'PUT', `/api-system/user/clusters/${joined.id}`, { role: 'admin' });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await new ClusterEditPage(page, baseUrl).open(cluster.id);
    const history = new HistoryCard(page);
    await history.open();
    // Newest first: the role change, the joining, then the cluster's own creation.
    await expect
      .poll(async () => (await history.events().allTextContents()).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    const summaries = await history.root().getByTestId('history-summary').allTextContents();
    expect(summaries.slice(0, 3)).toEqual([
      expect.stringMatching(new RegExp(`^Changed the role of viewer in .*${cluster.code} to admin$`)),
      expect.stringMatching(new RegExp(`^Added viewer to .*${cluster.code} as user$`)),
      expect.stringContaining(cluster.code),
    ]);
    await history.summary(history.events().first()).getByRole('link', { name: 'viewer' }).click();
    await page.waitForURL(new RegExp(`#/users/${viewer.id}`));
  });

  it('reverts a rename from a business unit History, as an audited edit', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await newCluster(admin);
    const unit = { cluster_id: cluster.id, code: `${cluster.code}-BU`, name: `Unit ${cluster.code}` };
    const { id } = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/business-units', unit);
    await apiOk(baseUrl, admin, 'PUT', `/api-system/business-units/${id}`, {
      ...unit,
      name: 'Unit renamed by mistake',
    });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/business-units/${id}`);
    const history = new HistoryCard(page);
    await history.open();

    const renamed = history.event(`Updated the business unit ${unit.code}`).first();
    expect(await history.startRevert(renamed)).toEqual([`Name: Unit renamed by mistake → ${unit.name}`]);
    await history.confirmRevert();
    await page.getByText('Change reverted').waitFor();
    await history.event(`Reverted a change to the business unit ${unit.code}`).first().waitFor();
    const now = await apiOk<{ name: string }>(baseUrl, admin, 'GET', `/api-system/business-units/${id}`);
    expect(now.name).toBe(unit.name);
  });

  it('reads a bulk deactivation as "Deactivated" in the cluster History', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await newCluster(admin);
    await apiOk(baseUrl, admin, 'POST', '/api-system/clusters/bulk', { action: 'deactivate', ids: [cluster.id] });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await new ClusterEditPage(page, baseUrl).open(cluster.id);
    const history = new HistoryCard(page);
    await history.open();
    const summary = history.summary(history.events().first());
    await expect.poll(() => summary.textContent()).toBe(`Deactivated the cluster ${cluster.code}`);
  });

  it('shows the replaced logo beside the new one in the cluster History', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await newCluster(admin);
    for (const [bytes, name] of [
      [wellFormedPng(1, 1), 'first.png'],
      [wellFormedPng(2, 2), 'second.png'],
    ] as const) {
      const form = new FormData();
      form.append('logo', new Blob([bytes], { type: 'image/png' }), name);
      const res = await fetch(`${baseUrl}/api-system/clusters/${cluster.id}/logo`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.accessToken}` },
        body: form,
      });
      expect(res.status).toBe(200);
    }
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await new ClusterEditPage(page, baseUrl).open(cluster.id);
    const history = new HistoryCard(page);
    await history.open();
    // Newest first: the second upload, whose "before" is the first logo, kept for this picture.
    const replaced = history.events().first();
    const loaded = (side: 'before' | 'after') =>
      replaced
        .getByTestId(`history-image-${side}`)
        .evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0);
    await expect.poll(() => loaded('before'), { timeout: 10_000 }).toBe(true);
    expect(await loaded('after')).toBe(true);
    await session.screenshot('history-replaced-logo');
  });

  it('reverts a rename from the cluster History, and refuses a revert over a later change by someone else', async () => {
    const { page, baseUrl } = session;
    // The refused revert is answered 412, which the browser logs.
    session.expectConsole(/Failed to load resource: the server responded with a status of 412/);
    session.expectConsole(/was changed by someone else after this change/);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await newCluster(admin);
    const rename = (name: string) =>
      apiOk(baseUrl, admin, 'PUT', `/api-system/clusters/${cluster.id}`, { code: cluster.code, name });
    await rename('Renamed by mistake');
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const view = new ClusterEditPage(page, baseUrl);
    await view.open(cluster.id);
    const history = new HistoryCard(page);
    await history.open();

    const renamed = history.event(`Updated the cluster ${cluster.code}`).first();
    expect(await history.startRevert(renamed)).toEqual([`Name: Renamed by mistake → ${cluster.name}`]);
    await session.screenshot('history-revert-confirm');
    await history.confirmRevert();
    await page.getByText('Change reverted').waitFor();
    await expect.poll(() => view.name().inputValue()).toBe(cluster.name);
    await history.event(`Reverted a change to the cluster ${cluster.code}`).first().waitFor();

    // Someone else renames it after this page read its History: reverting the older change is refused.
    await rename('Renamed again');
    await history.startRevert(history.event(`Reverted a change to the cluster ${cluster.code}`).first());
    await history.confirmRevert();
    const error = history.revertDialog().getByTestId('revert-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('changed by someone else');
    // The same revert would be refused again: only Cancel is left.
    expect(await history.revertDialog().getByRole('button', { name: 'Revert' }).isDisabled()).toBe(true);
    await session.screenshot('history-revert-stale');
  });
});
