import type { Locator, Page } from 'playwright-core';

/** A members card (a cluster's or a business unit's Users card) and the dialogs it opens. */
export class MembersCard {
  constructor(
    private readonly page: Page,
    private readonly testId: 'cluster-users-card' | 'bu-users-card',
  ) {}

  readonly root = () => this.page.getByTestId(this.testId);
  readonly addButton = () => this.root().getByRole('button', { name: 'Add user' });
  readonly empty = () => this.root().getByTestId(`${this.testId}-empty`);
  readonly loading = () => this.root().getByTestId('card-table-loading').first();
  readonly error = () => this.root().getByTestId('error-state');
  readonly headers = () => this.root().getByRole('columnheader');
  readonly row = (name: string): Locator => this.root().getByRole('row').filter({ hasText: name });
  /** The row's cell under the header of that name. */
  async cell(name: string, header: string): Promise<Locator> {
    const index = (await this.headers().allTextContents()).indexOf(header);
    return this.row(name).getByRole('cell').nth(index);
  }

  /** Opens the edit dialog of a member from its row's button, picks the role, saves and waits for the dialog to go. */
  async changeRole(name: string, role: 'Admin' | 'User'): Promise<void> {
    await this.row(name).getByRole('button', { name: 'Change role' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Edit ${name}` });
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await this.page.getByRole('option', { name: role, exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
}

/** A business unit's Add user dialog: the cluster's users not yet members, or why there are none. */
export class AddBusinessUnitUserDialog {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('add-bu-user-dialog');
  readonly none = () => this.root().getByTestId('bu-user-none');
  readonly addToClusterLink = () => this.none().getByRole('link');
  readonly options = () => this.root().getByTestId('bu-user-option');
}
