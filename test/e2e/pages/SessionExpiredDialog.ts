import type { Page } from 'playwright-core';

/** The dialog that asks for the password again when the session could not be refreshed. */
export class SessionExpiredDialog {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByRole('dialog', { name: 'Your session has expired' });
  readonly username = () => this.root().getByRole('textbox', { name: /^Username/ });
  readonly password = () => this.root().getByLabel(/^Password/);
  readonly signInButton = () => this.root().getByRole('button', { name: 'Sign in and continue' });

  async waitShown(): Promise<void> {
    await this.root().waitFor();
  }

  async signIn(password: string): Promise<void> {
    await this.password().fill(password);
    await this.signInButton().click();
    await this.root().waitFor({ state: 'hidden' });
  }
}

/**
 * Ends the page's session the way time does: the refresh token is revoked on the server and the access token the
 * page holds is no longer one the server accepts, so the next call gets 401 and the refresh gets 401 too.
 */
export async function expireSession(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const storage = (
      globalThis as unknown as {
        localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
      }
    ).localStorage;
    const refresh = storage.getItem('auth.refresh_token');
    await fetch('/api/auth/logout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: refresh }),
    });
    storage.setItem('auth.access_token', 'expired.access.token');
  });
}
