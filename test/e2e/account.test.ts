import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiCall, apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, LoginPage } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';
import { ForcedPasswordChangePage } from './pages/ForcedPasswordChangePage.js';

/** The screen an account with an administrator's password sees first, and only. */
class ForcedPasswordChange {
  constructor(private readonly page: Page) {}
  readonly heading = () => this.page.getByRole('heading', { name: 'Choose a new password' });
  readonly explanation = () =>
    this.page.getByText('Your password was set by an administrator. Choose your own to continue.');

  async choose(current: string, next: string): Promise<void> {
    await this.page.getByLabel(/^Current password/).fill(current);
    await this.page.getByLabel(/^New password/).fill(next);
    await this.page.getByLabel(/^Confirm the new password/).fill(next);
    await this.page.getByRole('button', { name: 'Save and continue' }).click();
  }
}

/** My account: the password form and the table of signed-in devices. */
class AccountScreen {
  constructor(private readonly page: Page) {}
  readonly heading = () => this.page.getByRole('heading', { name: 'My account', level: 1 });
  readonly rows = () => this.page.getByTestId('session-row');
  readonly signOutOthers = () => this.page.getByRole('button', { name: 'Sign out all other devices' });

  async open(): Promise<void> {
    const shell = new AppShell(this.page);
    await shell.userMenu().click();
    await shell.menuItem('My account').click();
    await this.heading().waitFor();
  }
}

describe('my account', () => {
  const session = useBrowserSession();

  it('makes a new account choose its password, lists its sessions, signs out the other devices, and ends at the login page once deactivated', async () => {
    const { page, baseUrl } = session;
    // Each refusal below is on purpose: the other device's token after it was signed out, and the deactivated
    // account's next call.
    session.expectConsole(/Failed to load resource: the server responded with a status of 401/);
    // react-admin's development build logs the refused call of the deactivated account.
    session.expectConsole(/^error: \S+: Your account has been deactivated\. Ask an administrator to reactivate it\./);

    // An administrator creates the account with an initial password.
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const username = uniqueCode('e2e-acct').toLowerCase();
    const initial = 'Initial-Andaman-2026';
    const chosen = 'Phuket-Lagoon-Morning-7';
    const created = await apiOk<{ id: string; must_change_password: boolean }>(
      baseUrl,
      admin,
      'POST',
      '/api-system/users',
      {
        username,
        email: `${username}@example.com`,
        firstname: 'Account',
        lastname: 'Flow',
        password: initial,
      },
    );
    expect(created.must_change_password).toBe(true);

    // Signing in shows only the new-password screen.
    const login = new LoginPage(page, baseUrl);
    await login.open();
    await login.signIn(username, initial);
    const forced = new ForcedPasswordChange(page);
    await forced.heading().waitFor();
    await forced.explanation().waitFor();
    expect(await page.locator('.RaUserMenu-userButton').count()).toBe(0);
    await session.screenshot('account-forced-password-change');

    await forced.choose(initial, chosen);
    const shell = new AppShell(page);
    await shell.workspaceHeading().waitFor();
    expect(page.url()).toMatch(/#\/$/);

    // A second device signs in with the new password.
    const otherDevice = await apiSignIn(baseUrl, username, chosen);
    expect((await apiCall(baseUrl, otherDevice, 'GET', '/api/user/permission/platform')).status).toBe(200);

    const account = new AccountScreen(page);
    await account.open();
    await expect.poll(() => account.rows().count()).toBe(2);
    const thisDevice = account.rows().filter({ hasText: 'This device' });
    expect(await thisDevice.count()).toBe(1);
    expect(await thisDevice.textContent()).toContain('Chrome on Linux');
    await session.screenshot('account-sessions');

    await account.signOutOthers().click();
    const confirm = page.getByRole('dialog', { name: 'Sign out all other devices?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('1 other device signed out').waitFor();
    await expect.poll(() => account.rows().count()).toBe(1);
    expect(await account.signOutOthers().isDisabled()).toBe(true);
    // The other device's session is over.
    expect((await apiCall(baseUrl, otherDevice, 'GET', '/api/user/permission/platform')).status).toBe(401);

    // Back on the workspace, an administrator deactivates the account behind the open console.
    await page.goto(`${baseUrl}/#/`);
    await shell.workspaceHeading().waitFor();
    await apiOk(baseUrl, admin, 'POST', `/api-system/users/${created.id}/deactivate`);

    // Its next call ends at the login page, which says why; the sign-in-again dialog is not offered.
    await shell.userMenu().click();
    await shell.menuItem('My account').click();
    const reason = page.getByTestId('session-end-reason');
    await reason.waitFor();
    expect(await reason.textContent()).toBe(
      'Your account has been deactivated. Ask an administrator to reactivate it.',
    );
    expect(page.url()).toContain('#/login');
    expect(await page.getByRole('dialog', { name: 'Your session has expired' }).count()).toBe(0);
    await session.screenshot('account-deactivated-login');
  });

  it('ticks the username rule as the server checks it: a three-letter username may be part of the password', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    // Three letters, like "nok" (the demo accounts all have longer names; every run starts on a fresh database).
    const letter = () => String.fromCharCode(97 + Math.floor(Math.random() * 26));
    const username = `n${letter()}${letter()}`;
    const initial = 'Initial-Andaman-2026';
    await apiOk(baseUrl, admin, 'POST', '/api-system/users', {
      username,
      email: `${username}@example.com`,
      firstname: 'Short',
      lastname: 'Name',
      password: initial,
    });
    const login = new LoginPage(page, baseUrl);
    await login.open();
    await login.signIn(username, initial);
    const forced = new ForcedPasswordChangePage(page);
    await forced.heading().waitFor();

    const rule = forced.rule('is not your username or email address');
    await forced.next().fill(username.toUpperCase());
    expect(await rule.getAttribute('data-met')).toBe('false');
    const chosen = `${username}-password-2026`;
    await forced.next().fill(chosen);
    expect(await rule.getAttribute('data-met')).toBe('true');
    // The checklist never claims a rule the server does not apply to this account.
    expect(await page.getByText(/does not contain your username/).count()).toBe(0);
    await session.screenshot('account-short-username-rule');

    // The server takes the password the checklist passed.
    await forced.choose(initial, chosen);
    await new AppShell(page).workspaceHeading().waitFor();
  });
});
