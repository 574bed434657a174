import type { Locator, Page } from 'playwright-core';

/** The membership import (`/memberships/import`): the file, the dry run's plan, the apply and its result. */
export class MemberImportPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  readonly root = () => this.page.getByTestId('member-import');
  readonly fileInput = () => this.page.getByTestId('import-file-input');
  readonly fileName = () => this.page.getByTestId('import-file-name');
  readonly checkButton = () => this.page.getByRole('button', { name: 'Check file' });
  readonly plan = () => this.page.getByTestId('import-plan');
  readonly summary = (outcome: 'added' | 'updated' | 'unchanged' | 'refused') =>
    this.page.getByTestId(`summary-${outcome}`);
  readonly rows = () => this.page.getByTestId('import-row');
  readonly applyButton = () => this.plan().getByTestId('import-apply');
  readonly confirmDialog = () => this.page.getByRole('dialog');
  readonly result = () => this.page.getByTestId('import-result');
  readonly appliedMessage = () => this.page.getByTestId('import-applied');
  readonly auditLink = () => this.page.getByRole('link', { name: 'See these changes in the audit log' });

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/memberships/import`);
    await this.root().waitFor();
  }

  /** Chooses a CSV file with the given content and runs the dry run, waiting for its plan. */
  async check(name: string, content: string): Promise<void> {
    await this.fileInput().setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content, 'utf8') });
    await this.fileName().getByText(name, { exact: false }).waitFor();
    await this.checkButton().click();
    await this.plan().waitFor();
  }

  /** Shows only the rows of one outcome (the summary chip is the filter). */
  async filterBy(outcome: 'added' | 'updated' | 'unchanged' | 'refused'): Promise<void> {
    await this.summary(outcome).click();
  }

  /** Applies the plan with the button of that name, confirming in the dialog, and waits for the result. */
  async applyConfirmed(name: string): Promise<Locator> {
    await this.applyButton().click();
    await this.confirmDialog().getByRole('button', { name, exact: true }).click();
    await this.result().waitFor();
    return this.appliedMessage();
  }
}
