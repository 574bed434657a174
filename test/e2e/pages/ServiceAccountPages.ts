import type { Locator, Page } from 'playwright-core';

/** `/service-accounts` and one account's page: its details, its grants and its tokens. */
export class ServiceAccountPages {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async openList(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/service-accounts`);
    await this.page.getByTestId('service-accounts').waitFor();
  }

  /** Creates an account from the list's dialog; answers once its own page shows. */
  async create(name: string, description: string): Promise<void> {
    await this.page.getByTestId('service-account-create').click();
    await this.page.getByTestId('service-account-name').fill(name);
    await this.page.getByTestId('service-account-description').fill(description);
    await this.page.getByTestId('service-account-save').click();
    await this.page.getByTestId('service-account-details').waitFor();
  }

  tokens(): Locator {
    return this.page.getByTestId('api-tokens');
  }

  tokenRows(): Locator {
    return this.page.getByTestId('token-row');
  }

  /** Fills the create-token dialog and saves it; answers the "copy it now" dialog. */
  async createToken(name: string): Promise<Locator> {
    await this.page.getByTestId('token-create').click();
    await this.page.getByTestId('token-name').fill(name);
    await this.page.getByTestId('token-save').click();
    const dialog = this.page.getByTestId('token-created');
    await dialog.waitFor();
    return dialog;
  }

  async shownToken(): Promise<string> {
    return this.page.getByTestId('token-value').inputValue();
  }
}
