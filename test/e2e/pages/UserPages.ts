import type { Locator, Page } from 'playwright-core';

export interface NewUser {
  username: string;
  email: string;
  firstname?: string;
  lastname?: string;
  password: string;
}

/** /users/create: identity (username, email, names) and the initial password. */
export class UserCreatePage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByText('New user', { exact: true }).first();
  readonly username = () => this.page.getByRole('textbox', { name: /^Username/ });
  readonly email = () => this.page.getByRole('textbox', { name: /^Email/ });
  readonly firstname = () => this.page.getByRole('textbox', { name: /^First name/ });
  readonly lastname = () => this.page.getByRole('textbox', { name: /^Last name/ });
  readonly password = () => this.page.getByLabel(/^Initial password/);
  readonly createButton = () => this.page.getByRole('button', { name: 'Create', exact: true });

  async waitLoaded(): Promise<void> {
    await this.username().waitFor();
  }

  async fill(user: NewUser): Promise<void> {
    await this.username().fill(user.username);
    await this.email().fill(user.email);
    if (user.firstname !== undefined) await this.firstname().fill(user.firstname);
    if (user.lastname !== undefined) await this.lastname().fill(user.lastname);
    await this.password().fill(user.password);
  }

  /** Creates the account; resolves on its read view and returns its id. */
  async submit(): Promise<string> {
    await this.createButton().click();
    await this.page.waitForURL(/#\/users\/[0-9a-f-]{36}$/);
    return /#\/users\/([0-9a-f-]{36})$/.exec(this.page.url())![1]!;
  }
}

/** /users/:id: the read view with its Details, Access and History tabs. */
export class UserViewPage {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('user-view');
  readonly tab = (name: 'Details' | 'Access' | 'History') => this.root().getByRole('tab', { name, exact: true });

  // Details: the Account card with status and actions.
  readonly accountCard = () => this.page.getByTestId('user-account');
  readonly deactivateButton = () => this.accountCard().getByRole('button', { name: 'Deactivate', exact: true });
  readonly reactivateButton = () => this.accountCard().getByRole('button', { name: 'Reactivate', exact: true });

  // Access: the grants.
  readonly grantsCard = () => this.page.getByTestId('user-grants');
  readonly addGrantButton = () => this.grantsCard().getByRole('button', { name: 'Add grant' });
  readonly grantRows = () => this.grantsCard().getByTestId('grant-row');
  readonly grantRow = (permission: string): Locator => this.grantRows().filter({ hasText: permission });
  readonly noGrants = () => this.grantsCard().getByTestId('grants-empty');

  async waitLoaded(): Promise<void> {
    await this.root().waitFor();
    await this.tab('Details').waitFor();
  }

  async openTab(name: 'Details' | 'Access' | 'History'): Promise<void> {
    await this.tab(name).click();
    if (name === 'Access') await this.grantsCard().waitFor();
    if (name === 'Details') await this.accountCard().waitFor();
  }

  /** Adds `permission` (its words, e.g. "Update clusters") on one cluster picked by typing `clusterCode`. */
  async addGrantOnCluster(permission: string, clusterCode: string): Promise<void> {
    await this.addGrantButton().click();
    const dialog = new AddGrantDialog(this.page);
    await dialog.root().waitFor();
    await dialog.choosePermission(permission);
    await dialog.oneCluster().check();
    await dialog.pickCluster(clusterCode);
    await dialog.addButton().click();
    await dialog.root().waitFor({ state: 'hidden' });
  }

  /** Deactivate, then Confirm in the dialog that names the account. */
  async deactivate(username: string): Promise<void> {
    await this.deactivateButton().click();
    const confirm = this.page.getByRole('dialog', { name: `Deactivate ${username}?` });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.waitFor({ state: 'hidden' });
  }
}

/** The Access tab's "Add a grant to …" dialog: permission, scope (all clusters or one), the cluster. */
export class AddGrantDialog {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByRole('dialog', { name: /^Add a grant to / });
  readonly permission = () => this.root().getByRole('combobox', { name: /^Permission/ });
  readonly oneCluster = () => this.root().getByRole('radio', { name: 'One cluster' });
  readonly cluster = () => this.root().getByRole('combobox', { name: /^Cluster/ });
  readonly addButton = () => this.root().getByRole('button', { name: 'Add', exact: true });
  readonly error = () => this.root().getByTestId('add-grant-error');

  async choosePermission(label: string): Promise<void> {
    await this.permission().click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
    await this.page.getByRole('listbox').waitFor({ state: 'hidden' });
  }

  /** Types the code and picks the option "CODE — name". */
  async pickCluster(code: string): Promise<void> {
    await this.cluster().fill(code);
    await this.page.getByRole('option', { name: new RegExp(`^${code} — `) }).click();
  }
}
