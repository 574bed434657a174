import type { Locator, Page } from 'playwright-core';

/** Create and edit share the mapping form: document type, template, default, label, order, BU chips, active. */
export class PrintMappingFormPage {
  constructor(
    protected readonly page: Page,
    protected readonly baseUrl: string,
  ) {}

  readonly documentType = () => this.page.getByRole('combobox', { name: /^Document type/ }).first();
  readonly template = () => this.page.getByRole('combobox', { name: /^Report template/ });
  readonly isDefault = () =>
    this.page.getByRole('switch', { name: 'Default' }).or(this.page.getByRole('checkbox', { name: 'Default' }));
  readonly label = () => this.page.getByRole('textbox', { name: 'Menu label' });
  readonly order = () => this.page.getByRole('spinbutton', { name: /^Display order/ });
  readonly allowList = () => this.page.getByRole('combobox', { name: 'Allowed business units' });
  readonly denyList = () => this.page.getByRole('combobox', { name: 'Denied business units' });
  readonly chipsOf = (source: 'allow_business_unit' | 'deny_business_unit') =>
    this.page.getByTestId(`chips-${source}`).locator('.MuiChip-label');
  readonly saveButton = () => this.page.getByRole('button', { name: 'Save', exact: true });

  async openCreate(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/print-template-mappings/create`);
    await this.documentType().waitFor();
  }

  /** Chooses an option of a select by its visible text. */
  protected async choose(select: Locator, option: string): Promise<void> {
    await select.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await this.page.getByRole('listbox').waitFor({ state: 'hidden' });
  }

  async chooseDocumentType(label: string): Promise<void> {
    await this.choose(this.documentType(), label);
  }

  async chooseTemplate(name: string): Promise<void> {
    await this.choose(this.template(), name);
  }

  /** Template options in the order the select lists them. */
  async templateOptions(): Promise<{ name: string; matches: string | null }[]> {
    await this.template().click();
    // Only the templates (the group headings are list items too).
    const options = this.page.getByRole('listbox').getByTestId('template-option');
    await options.first().waitFor();
    // The test project is compiled without the DOM library: the elements are typed by hand.
    const result = await options.evaluateAll((els) =>
      (els as unknown as { textContent: string | null; getAttribute(name: string): string | null }[]).map((el) => ({
        name: (el.textContent ?? '').trim(),
        matches: el.getAttribute('data-matches'),
      })),
    );
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('listbox').waitFor({ state: 'hidden' });
    return result;
  }

  /** Types BU codes as chips (Enter after each). */
  async addCodes(input: Locator, codes: string[]): Promise<void> {
    for (const code of codes) {
      await input.fill(code);
      await input.press('Enter');
    }
  }

  /** The confirmation a save as default asks for when the document type has a default already. */
  readonly defaultTakeover = () => this.page.getByRole('dialog', { name: /^Take the default from / });

  /**
   * Saves a new mapping (confirming the default takeover when `takesDefault`); resolves on its edit page and returns
   * its id.
   */
  async saveNew({ takesDefault = false } = {}): Promise<string> {
    await this.saveButton().click();
    if (takesDefault) await this.defaultTakeover().getByRole('button', { name: 'Save as default' }).click();
    await this.page.waitForURL(/#\/print-template-mappings\/[0-9a-f-]{36}$/);
    return /#\/print-template-mappings\/([0-9a-f-]{36})$/.exec(this.page.url())![1]!;
  }
}

/** The "Test resolve" panel (a side panel of the list, and on a mapping's edit and read pages). */
export class TestResolvePanel {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('test-resolve-panel');
  readonly documentType = () => this.root().getByRole('combobox', { name: /^Document type/ });
  // Picked from the business units the caller may read, or typed.
  readonly buCode = () => this.root().getByRole('combobox', { name: 'Business unit code' });
  readonly resolveButton = () => this.root().getByRole('button', { name: 'Resolve' });
  readonly winner = () => this.root().getByTestId('resolve-winner');
  readonly explanation = () => this.root().getByRole('table', { name: 'Explanation' });
  /** Explanation rows whose text contains `text` (for example a mapping's menu label). */
  readonly candidate = (text: string) => this.explanation().getByRole('row').filter({ hasText: text });

  /** Resolves for `buCode` and waits for the answer (a winner, no winner, or an error). */
  async resolve(buCode: string): Promise<void> {
    await this.buCode().fill(buCode);
    await this.resolveButton().click();
    await this.root()
      .getByTestId('resolve-winner')
      .or(this.root().getByTestId('resolve-none'))
      .or(this.root().getByTestId('resolve-error'))
      .waitFor();
  }
}
