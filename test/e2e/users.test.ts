import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { STEP_TIMEOUT_MS, useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ACCOUNTS, LoginPage, signInAs } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';
import { ListPage } from './pages/ListPage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';
import { HistoryCard } from './pages/HistoryCard.js';
import { ForcedPasswordChangePage } from './pages/ForcedPasswordChangePage.js';
import { UserCreatePage, UserViewPage } from './pages/UserPages.js';

/**
 * The console of a second person, in a browser context of its own (its own storage, so its own session), its console
 * watched like the flow's own page: an error or warning fails the flow unless it matches `expected`.
 */
async function secondConsole(
  page: Page,
  expected: RegExp[],
): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const browser = page.context().browser();
  if (!browser) throw new Error('the flow page has no browser');
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const second = await context.newPage();
  const problems: string[] = [];
  second.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const line = `${message.type()}: ${message.text()} [page ${second.url()}]`;
    if (/Download the React DevTools/.test(line) || expected.some((re) => re.test(line))) return;
    problems.push(line);
  });
  second.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page: second, context, problems };
}

/** A screenshot of the second console, next to the flow's own (see Session.screenshot). */
const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(inject('screenshotDir'), `${name}.png`), fullPage: true });

describe('users', () => {
  const session = useBrowserSession();

  it('creates an account with a grant on CL-B, whose holder changes its password, edits CL-B (in its history under the holder’s name), and is signed out with the reason once deactivated', async () => {
    const { page, baseUrl } = session;

    // 1. The administrator creates the account through Users in the menu.
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const adminShell = new AppShell(page);
    await adminShell.menuItem('Users').click();
    await page.waitForURL(/#\/users$/);
    const toolbar = page.getByTestId('list-toolbar');
    await toolbar.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/#\/users\/create$/);

    const username = uniqueCode('e2e-user').toLowerCase();
    const firstname = 'Nok';
    const lastname = `Editor ${username.slice(-4)}`;
    const displayName = `${firstname} ${lastname}`;
    const initial = 'Initial-Pass-2026!';
    const chosen = 'Chiang-Mai-Rain-Season-42';
    const create = new UserCreatePage(page);
    await create.waitLoaded();
    await create.fill({ username, email: `${username}@example.com`, firstname, lastname, password: initial });
    await session.screenshot('users-create-form');
    const userId = await create.submit();

    const userView = new UserViewPage(page);
    await userView.waitLoaded();
    await page.getByText(`User ${username} created`).waitFor();
    expect(await userView.accountCard().getByText('Must change password').count()).toBe(1);

    // Two grants on CL-B: update (the edit) and read (to open the cluster at all).
    await userView.openTab('Access');
    await userView.noGrants().waitFor();
    await userView.addGrantOnCluster('Update clusters', 'CL-B');
    await page.getByText(`"Update clusters" granted to ${username}`).waitFor();
    await userView.grantRow('Update clusters').waitFor();
    await userView.addGrantOnCluster('Read clusters', 'CL-B');
    await page.getByText(`"Read clusters" granted to ${username}`).waitFor();
    await userView.grantRow('Read clusters').waitFor();
    await expect.poll(() => userView.grantRows().count()).toBe(2);
    for (const permission of ['Update clusters', 'Read clusters']) {
      const row = userView.grantRow(permission);
      expect(await row.textContent()).toContain('CL-B — ');
      expect(await row.textContent()).toContain('Platform Admin');
    }
    await session.screenshot('users-grants-on-cl-b');

    // 2. The new user, in a browser of its own, signs in and must choose a password first.
    const user = await secondConsole(page, [
      // Its session is refused once the account is deactivated (step 4), on purpose.
      /Failed to load resource: the server responded with a status of 401/,
      // react-admin's development build logs the refused call of the deactivated account.
      /^error: \S+: Your account has been deactivated\. Ask an administrator to reactivate it\./,
    ]);
    try {
      const userPage = user.page;
      const login = new LoginPage(userPage, baseUrl);
      await login.open();
      await login.signIn(username, initial);
      const forced = new ForcedPasswordChangePage(userPage);
      await forced.heading().waitFor();
      await forced.explanation().waitFor();
      await shoot(userPage, 'users-forced-password-change');
      await forced.choose(initial, chosen);
      const userShell = new AppShell(userPage);
      await userShell.workspaceHeading().waitFor();
      // The user menu is named after the signed-in person.
      await userPage.getByRole('button', { name: displayName, exact: true }).waitFor();
      // It may not manage accounts: no Users in its menu.
      await userShell.menuItem('Clusters').waitFor();
      expect(await userShell.menuItem('Users').count()).toBe(0);

      // Clusters → CL-B → Edit: a new name, saved.
      await userShell.menuItem('Clusters').click();
      const clusters = new ListPage(userPage, baseUrl, 'clusters');
      await clusters.rows().first().waitFor();
      const row = clusters.rowWith('CL-B');
      await row.waitFor();
      await row.getByRole('cell', { name: 'CL-B', exact: true }).click();
      await userPage.waitForURL(/#\/clusters\/[0-9a-f-]{36}$/);
      const cluster = new ClusterEditPage(userPage, baseUrl);
      await cluster.waitLoaded();
      expect(await cluster.mode()).toBe('view');
      const before = await cluster.name().inputValue();
      const after = `Bangkok Boutique ${username.slice(-6)}`;
      await cluster.startEditing();
      await cluster.name().fill(after);
      await cluster.saveButton().click();
      await userPage.getByText('Cluster CL-B saved').waitFor();
      await cluster.editButton().waitFor();
      expect(await cluster.mode()).toBe('view');
      expect(await cluster.name().inputValue()).toBe(after);
      await shoot(userPage, 'users-cluster-saved-by-user');

      // 3. CL-B's history shows the change under the user's name, the name before and after.
      const history = new HistoryCard(userPage);
      await history.open();
      const event = history.event('Updated the cluster').filter({ hasText: displayName }).first();
      await event.waitFor();
      const change = history.change(event, 'name');
      expect(await history.beforeAfter(change)).toEqual({ before, after });
      expect(((await change.getByRole('cell').first().textContent()) ?? '').trim()).toBe('Name');
      await shoot(userPage, 'users-cluster-history');

      // 4. The administrator deactivates the account from its page.
      await userView.openTab('Details');
      await userView.deactivate(username);
      await page.getByText(`${username} deactivated`).waitFor();
      await userView.reactivateButton().waitFor();
      expect(await userView.accountCard().getByText('Inactive', { exact: true }).count()).toBe(1);
      expect(page.url()).toContain(`#/users/${userId}`);
      await session.screenshot('users-deactivated');

      // The user's open console: its next request ends at the login page, which says why; no sign-in-again dialog.
      await userShell.menuItem('Clusters').click();
      const reason = userPage.getByTestId('session-end-reason');
      await reason.waitFor();
      expect(await reason.textContent()).toBe(
        'Your account has been deactivated. Ask an administrator to reactivate it.',
      );
      expect(userPage.url()).toContain('#/login');
      expect(await userPage.getByRole('dialog', { name: 'Your session has expired' }).count()).toBe(0);
      await shoot(userPage, 'users-deactivated-login');

      expect(user.problems, "the user's browser console reported errors or warnings").toEqual([]);
    } finally {
      await user.context.close();
    }
  }, 180_000);
});
