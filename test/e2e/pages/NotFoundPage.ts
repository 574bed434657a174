import type { Page } from 'playwright-core';

/** The screen of an address that leads nowhere: an unknown route, a malformed or unknown record id. */
export class NotFoundPage {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('not-found');
  readonly heading = () => this.root().getByRole('heading', { name: 'Not found', level: 1 });
  /** Within a resource the way back is its list ("Back to Clusters"); elsewhere the workspace. */
  readonly backLink = (name: string | RegExp) => this.root().getByRole('link', { name });

  async waitShown(): Promise<void> {
    await this.heading().waitFor();
  }
}
