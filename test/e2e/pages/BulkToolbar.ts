import type { Locator, Page } from 'playwright-core';

/** The row checkboxes of a list and the toolbar of bulk actions they bring up. */
export class BulkToolbar {
  constructor(private readonly page: Page) {}

  readonly toolbar = () => this.page.getByTestId('bulk-toolbar');
  readonly count = () => this.page.getByTestId('bulk-count');
  readonly action = (name: string) => this.toolbar().getByRole('button', { name, exact: true });
  readonly confirmDialog = () => this.page.getByTestId('bulk-confirm');
  readonly resultsDialog = () => this.page.getByTestId('bulk-results');

  /** Ticks the checkbox of each row. */
  async select(rows: Locator[]): Promise<void> {
    for (const row of rows) await row.getByRole('checkbox').check();
  }

  /** Runs a destructive action (Delete, Deactivate), confirming it, and waits for the selection to clear. */
  async runConfirmed(name: string): Promise<void> {
    await this.action(name).click();
    await this.confirmDialog().getByRole('button', { name, exact: true }).click();
    await this.toolbar().waitFor({ state: 'detached' });
  }
}
