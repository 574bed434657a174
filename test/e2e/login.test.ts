import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { ACCOUNTS, LoginPage } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';

describe('log in', () => {
  const session = useBrowserSession();

  it('signs the admin in and lands on the personal workspace', async () => {
    const { page, baseUrl } = session;
    const login = new LoginPage(page, baseUrl);
    // Without a session the console sends the visitor from the root to the login screen.
    await page.goto(`${baseUrl}/`);
    await login.username().waitFor();
    expect(page.url()).toContain('#/login');
    expect(await login.title().textContent()).toBe('Platform Administration');

    await login.signIn(ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const shell = new AppShell(page);
    await shell.workspaceHeading().waitFor();
    expect(await shell.identityName()).toContain('Platform Admin');
    await session.screenshot('login');
  });
});
