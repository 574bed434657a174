import type { Locator, Page } from 'playwright-core';

/** Every full-page list: the shared toolbar, the Filters sheet, the table, its row menus and the pagination. */
export class ListPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
    private readonly resource: 'clusters' | 'business-units' | 'users' | 'print-template-mappings' | 'audit-log',
  ) {}

  readonly toolbar = () => this.page.getByTestId('list-toolbar');
  readonly createButton = () => this.toolbar().getByRole('link', { name: 'Create' });
  readonly exportButton = () => this.toolbar().getByRole('button', { name: 'Export' });
  readonly rows = () =>
    this.page.getByTestId(
      this.resource === 'print-template-mappings'
        ? 'mapping-row'
        : this.resource === 'audit-log'
          ? 'audit-row'
          : 'list-row',
    );
  /** The row whose code cell is exactly `code`. */
  readonly rowWith = (code: string): Locator =>
    this.rows()
      .filter({ has: this.page.getByRole('cell', { name: code, exact: true }) })
      .first();
  readonly search = () => this.toolbar().getByRole('textbox', { name: 'Search' });
  readonly rowMenuButton = (row: Locator) => row.getByRole('button', { name: 'Actions' });
  readonly pagination = () => this.page.locator('.MuiTablePagination-root');
  readonly columnHeader = (name: string) => this.page.getByRole('columnheader', { name, exact: true });
  readonly filtersButton = () => this.toolbar().getByRole('button', { name: 'Filters' });
  readonly filterSheet = () => this.page.getByRole('dialog', { name: 'Filters' });

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

  /** Opens the Filters sheet, runs `change` in it and closes it again. */
  async inFilterSheet(change: (sheet: Locator) => Promise<void>): Promise<void> {
    await this.filtersButton().click();
    await change(this.filterSheet());
    await this.filterSheet().getByRole('button', { name: 'Close', exact: true }).click();
    await this.filterSheet().waitFor({ state: 'hidden' });
  }

  /** Picks an option of one of the sheet's selects (named by its test id). */
  async pickInSheet(sheet: Locator, testId: string, option: string): Promise<void> {
    await sheet.getByTestId(testId).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  /** Whether the page or any of its tables scrolls sideways (run in the page, hence the text). */
  async scrollsSideways(): Promise<boolean> {
    return this.page.evaluate<boolean>(`(() => {
      const wider = (el) => el.scrollWidth > el.clientWidth + 1;
      return wider(document.documentElement) || [...document.querySelectorAll('.MuiTableContainer-root')].some(wider);
    })()`);
  }

  async openRowMenu(row: Locator): Promise<void> {
    await this.rowMenuButton(row).click();
    await this.page.getByRole('menu').waitFor();
  }
}
