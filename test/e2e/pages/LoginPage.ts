import type { Page } from 'playwright-core';

/** The sign-in screen (react-admin's login form under the product's title). */
export class LoginPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  readonly title = () => this.page.getByTestId('login-title');
  readonly username = () => this.page.getByRole('textbox', { name: /^Username/ });
  readonly password = () => this.page.getByRole('textbox', { name: /^Password/ });
  // Exact: the single sign-on buttons below the form say "Sign in with …".
  readonly card = () => this.page.locator('.RaLogin-card');
  /** The whole field (label, box and underline), not only its input. */
  readonly usernameField = () => this.page.locator('.MuiFormControl-root', { has: this.username() });
  readonly passwordField = () => this.page.locator('.MuiFormControl-root', { has: this.password() });
  readonly signInButton = () => this.page.getByRole('button', { name: 'Sign in', exact: true });
  readonly ssoButton = (provider: string) =>
    this.page.getByRole('button', { name: `Sign in with ${provider}`, exact: true });
  /** Why the provider's callback sent the browser back without a session. */
  readonly ssoError = () => this.page.getByTestId('sso-error');

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/login`);
    await this.username().waitFor();
  }

  /** Fills the form and submits; resolves once the login screen has gone (the app shell is shown). */
  async signIn(username: string, password: string): Promise<void> {
    await this.username().fill(username);
    await this.password().fill(password);
    await this.signInButton().click();
    await this.page.waitForURL((url) => !url.hash.startsWith('#/login'));
  }
}

/** The accounts the demo data creates, with their passwords. */
export const ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123' },
  viewer: { username: 'viewer', password: 'demo1234' },
  editorA: { username: 'editor-a', password: 'demo1234' },
  mapper: { username: 'mapper', password: 'demo1234' },
  operator: { username: 'operator', password: 'demo1234' },
} as const;
export type Account = (typeof ACCOUNTS)[keyof typeof ACCOUNTS];

/** Opens the console and signs in as `account`; resolves on the workspace. */
export async function signInAs(page: Page, baseUrl: string, account: Account): Promise<void> {
  const login = new LoginPage(page, baseUrl);
  await login.open();
  await login.signIn(account.username, account.password);
}
