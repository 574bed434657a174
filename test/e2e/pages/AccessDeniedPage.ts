import type { Page } from 'playwright-core';

/** The screen a failed route guard shows. */
export class AccessDeniedPage {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('access-denied');
  readonly title = () => this.root().getByText('Access denied', { exact: true });
  readonly message = () => this.root().getByText('You do not have permission to open this page.');
  readonly backToWorkspace = () => this.root().getByRole('link', { name: 'Back to the workspace' });

  async waitShown(): Promise<void> {
    await this.title().waitFor();
  }
}
