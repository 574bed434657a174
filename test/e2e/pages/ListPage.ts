import type { Locator, Page } from 'playwright-core';

/** The cluster and business-unit lists: the shared toolbar, the table, its row menus and the pagination. */
export class ListPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
    private readonly resource: 'clusters' | 'business-units' | 'print-template-mappings',
  ) {}

  readonly toolbar = () => this.page.getByTestId('list-toolbar');
  readonly createButton = () => this.toolbar().getByRole('link', { name: 'Create' });
  readonly exportButton = () => this.toolbar().getByRole('button', { name: 'Export' });
  readonly rows = () => this.page.getByTestId(this.resource === 'print-template-mappings' ? 'mapping-row' : 'list-row');
  /** The row whose code cell is exactly `code`. */
  readonly rowWith = (code: string): Locator =>
    this.rows()
      .filter({ has: this.page.getByRole('cell', { name: code, exact: true }) })
      .first();
  readonly search = () => this.toolbar().getByRole('textbox', { name: 'Search' });
  readonly rowMenuButton = (row: Locator) => row.getByRole('button', { name: 'Actions' });
  readonly pagination = () => this.page.locator('.MuiTablePagination-root');
  readonly columnHeader = (name: string) => this.page.getByRole('columnheader', { name, exact: true });

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/${this.resource}`);
    await this.rows().first().waitFor();
  }

  /** Types in the search box and waits for the row with that code. */
  async find(code: string): Promise<Locator> {
    await this.search().fill(code);
    const row = this.rowWith(code);
    await row.waitFor();
    return row;
  }

  async openRowMenu(row: Locator): Promise<void> {
    await this.rowMenuButton(row).click();
    await this.page.getByRole('menu').waitFor();
  }
}
