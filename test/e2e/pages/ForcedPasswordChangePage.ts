import type { Page } from 'playwright-core';

/** The only screen of an account whose password an administrator set: choose a new one to continue. */
export class ForcedPasswordChangePage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { name: 'Choose a new password' });
  readonly explanation = () =>
    this.page.getByText('Your password was set by an administrator. Choose your own to continue.');
  readonly current = () => this.page.getByLabel(/^Current password/);
  readonly next = () => this.page.getByLabel(/^New password/);
  readonly confirm = () => this.page.getByLabel(/^Confirm the new password/);
  readonly submitButton = () => this.page.getByRole('button', { name: 'Save and continue' });
  /** One line of the checklist under the new password; `data-met` says whether it is ticked. */
  readonly rule = (text: string) => this.page.getByTestId('password-rule').filter({ hasText: text });

  async choose(current: string, next: string): Promise<void> {
    await this.current().fill(current);
    await this.next().fill(next);
    await this.confirm().fill(next);
    await this.submitButton().click();
  }
}
