import type { Page } from 'playwright-core';

/** The layout around every signed-in screen: app bar with the user menu, and the side menu. */
export class AppShell {
  constructor(private readonly page: Page) {}

  // The user menu's button is named after the signed-in user (what it shows), not "Profile".
  readonly userMenu = () => this.page.locator('.RaUserMenu-userButton');
  readonly menuItem = (name: string) => this.page.getByRole('menuitem', { name });
  readonly workspaceHeading = () => this.page.getByRole('heading', { name: 'My workspace', level: 1 });

  /** The name shown in the user menu once the identity has loaded. */
  async identityName(): Promise<string> {
    await this.userMenu().waitFor();
    return (await this.userMenu().textContent())?.trim() ?? '';
  }
}
