import type { Page } from 'playwright-core';

/**
 * The test identity provider's own pages (test/support/oidc-idp.ts, served by oidc-provider): its sign-in form, which
 * names the account, and its end-session confirmation.
 */
export class IdentityProviderPages {
  constructor(
    private readonly page: Page,
    /** The console's address: the provider's pages are anywhere else. */
    private readonly baseUrl: string,
  ) {}

  readonly heading = () => this.page.getByRole('heading', { name: 'Test identity provider' });
  readonly account = () => this.page.getByRole('textbox', { name: 'Account' });
  readonly signInButton = () => this.page.getByRole('button', { name: 'Sign in at the provider' });
  // oidc-provider's own end-session page asks before ending its session.
  readonly confirmSignOut = () => this.page.getByRole('button', { name: 'Yes, sign me out' });

  /** Waits for the provider's sign-in form, away from the console (the browser has left it). */
  async waitForSignIn(): Promise<void> {
    await this.account().waitFor();
    if (this.page.url().startsWith(this.baseUrl))
      throw new Error(`the sign-in form is the console's: ${this.page.url()}`);
  }

  /** Signs in as `accountId`; resolves once the browser has left the provider. */
  async signIn(accountId: string): Promise<void> {
    await this.account().fill(accountId);
    await this.signInButton().click();
    await this.page.waitForURL((url) => url.href.startsWith(this.baseUrl));
  }

  /** Confirms the end of the provider's session; resolves once the provider has sent the browser back. */
  async confirmEndSession(): Promise<void> {
    await this.confirmSignOut().click();
    await this.page.waitForURL((url) => url.href.startsWith(this.baseUrl));
  }
}
