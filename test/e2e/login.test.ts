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
    // The fields are as wide as the card's content (the card less its padding on each side), like the button.
    const card = (await login.card().boundingBox())!;
    for (const field of [login.usernameField(), login.passwordField(), login.signInButton()]) {
      const box = (await field.boundingBox())!;
      expect(box.x - card.x).toBeCloseTo(16, 0);
      expect(box.width).toBeCloseTo(card.width - 32, 0);
    }

    await login.signIn(ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const shell = new AppShell(page);
    await shell.workspaceHeading().waitFor();
    expect(await shell.identityName()).toContain('Platform Admin');
    await session.screenshot('login');
  });
});
