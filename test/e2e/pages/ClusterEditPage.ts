import type { Locator, Page } from 'playwright-core';

/**
 * /clusters/:id/edit: the Cluster Details card (view and edit modes), Branding, Business Units and Users cards.
 */
export class ClusterEditPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  readonly root = () => this.page.getByTestId('cluster-edit');

  // Cluster Details
  readonly code = () => this.page.getByRole('textbox', { name: /^Code/ });
  readonly alias = () => this.page.getByRole('textbox', { name: /^Alias/ });
  readonly name = () => this.page.getByRole('textbox', { name: /^Name/ });
  /** The name input itself, also while a modal dialog hides the page from the accessibility tree. */
  readonly nameInput = () => this.root().locator('input[name="name"]');
  readonly maxLicenseBu = () => this.page.getByRole('spinbutton', { name: /^Max licensed BUs/ });
  readonly editButton = () => this.page.getByRole('button', { name: 'Edit', exact: true });
  readonly cancelButton = () => this.page.getByRole('button', { name: 'Cancel', exact: true });
  readonly saveButton = () => this.page.getByRole('button', { name: 'Save Changes' });

  // Branding
  readonly logo = () => this.page.getByTestId('branding-logo');
  readonly logoUpload = () => this.logo().getByRole('button', { name: 'Upload' });
  readonly logoPreview = () => this.logo().getByRole('img', { name: 'Logo' });
  readonly logoRemove = () => this.logo().getByRole('button', { name: 'Remove' });
  readonly noLogo = () => this.logo().getByText('No image');
  readonly avatar = () => this.page.getByTestId('branding-avatar');
  readonly avatarPreview = () => this.avatar().getByRole('img', { name: 'Avatar' });

  /** Natural width of the loaded logo preview (0 while it loads or when it is broken). */
  async logoWidth(): Promise<number> {
    // The test project is compiled without the DOM library: the element is typed by hand.
    return this.logoPreview().evaluate((el) => {
      const img = el as unknown as { complete: boolean; naturalWidth: number };
      return img.complete ? img.naturalWidth : 0;
    });
  }

  // Business Units
  readonly buCard = () => this.page.getByTestId('cluster-bu-card');
  readonly buLicence = () => this.buCard().getByTestId('bu-licence-indicator');
  /** A link below the licence cap; at the cap a disabled button (there is nothing to follow). */
  readonly buAdd = () => this.buCard().getByTestId('bu-add');
  readonly buRows = () =>
    this.buCard()
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell') });

  // Users
  readonly usersCard = () => this.page.getByTestId('cluster-users-card');
  readonly addUserButton = () => this.usersCard().getByRole('button', { name: 'Add user' });
  readonly memberRow = (name: string): Locator => this.usersCard().getByRole('row').filter({ hasText: name });
  readonly noMembers = () => this.usersCard().getByText('No users yet');

  async open(id: string): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/clusters/${encodeURIComponent(id)}/edit`);
    await this.waitLoaded();
  }

  async waitLoaded(): Promise<void> {
    await this.root().waitFor();
    await this.code().waitFor();
  }

  mode(): Promise<string | null> {
    return this.root().getAttribute('data-mode');
  }

  async startEditing(): Promise<void> {
    await this.editButton().click();
    await this.saveButton().waitFor();
  }

  async cancelEditing(): Promise<void> {
    await this.cancelButton().click();
    await this.editButton().waitFor();
  }

  /** Current values of the details form, as the inputs show them. */
  async details(): Promise<{ code: string; alias: string; name: string; maxLicenseBu: string }> {
    return {
      code: await this.code().inputValue(),
      alias: await this.alias().inputValue(),
      name: await this.name().inputValue(),
      maxLicenseBu: await this.maxLicenseBu().inputValue(),
    };
  }

  /** Picks `file` through the Logo (or Avatar) control's file chooser; uploads save at once, in either mode. */
  async uploadLogo(file: { name: string; mimeType: string; buffer: Buffer }, kind = this.logo()): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await kind.getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles(file);
  }

  /** Removes the logo through its Remove button and the confirmation. */
  async removeLogo(): Promise<void> {
    await this.logoRemove().click();
    const confirm = this.page.getByRole('dialog', { name: 'Remove the logo?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.waitFor({ state: 'hidden' });
  }

  /** Opens the Add-user dialog of the Users card. */
  async openAddUser(): Promise<AddClusterUserDialog> {
    await this.addUserButton().click();
    const dialog = new AddClusterUserDialog(this.page);
    await dialog.root().waitFor();
    return dialog;
  }

  /** Removes a member through the row's Remove button and the yes/no confirmation. */
  async removeMember(name: string): Promise<void> {
    await this.memberRow(name).getByRole('button', { name: 'Remove' }).click();
    const confirm = this.page.getByRole('dialog', { name: `Remove ${name}?` });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'hidden' });
  }
}

/** The Users card's add dialog: global user search, role (default user), optional parent BU. */
export class AddClusterUserDialog {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByRole('dialog', { name: 'Add a user' });
  readonly search = () => this.root().getByRole('textbox', { name: /^Search users/ });
  readonly option = (name: string) => this.root().getByRole('button', { name: new RegExp(name) });
  readonly role = () => this.root().getByRole('combobox', { name: 'Role' });
  readonly addButton = () => this.root().getByRole('button', { name: 'Add', exact: true });

  /**
   * Types the search and picks the person from its answer. The answer is awaited first: the same person may already
   * be listed by the search before it (the first page of everyone), and a click there is lost when the debounced
   * search's answer replaces the list.
   */
  async pickUser(query: string, displayName: string): Promise<void> {
    const answered = this.page.waitForResponse(
      (res) => res.url().includes('/api-system/user?') && new URL(res.url()).searchParams.get('search') === query,
    );
    await this.search().fill(query);
    await answered;
    await this.option(displayName).click();
  }

  async submit(): Promise<void> {
    await this.addButton().click();
    await this.root().waitFor({ state: 'hidden' });
  }
}
