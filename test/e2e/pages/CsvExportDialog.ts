import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';

export interface DownloadedCsv {
  filename: string;
  /** The file as saved, BOM included. */
  text: string;
  /** The data lines (the header and the BOM left out). */
  rows: string[];
}

/** The question every list's Export asks: this page or every matching row; then the file the browser saves. */
export class CsvExportDialog {
  constructor(private readonly page: Page) {}

  readonly dialog = () => this.page.getByRole('dialog', { name: 'Export to CSV' });
  readonly thisPage = () => this.dialog().getByRole('button', { name: /^This page \(/ });
  readonly allRows = () => this.dialog().getByRole('button', { name: /^All .+ matching rows?$/ });

  /** Opens the dialog with the list's Export button. */
  async open(exportButton: Locator): Promise<void> {
    await exportButton.click();
    await this.dialog().waitFor();
  }

  /** Picks a choice and waits for the saved file; the dialog closes once it is saved. */
  async download(choice: 'page' | 'all'): Promise<DownloadedCsv> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      (choice === 'page' ? this.thisPage() : this.allRows()).click(),
    ]);
    const text = readFileSync(await download.path(), 'utf8');
    await this.dialog().waitFor({ state: 'hidden' });
    const lines = text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter((line) => line !== '');
    return { filename: download.suggestedFilename(), text, rows: lines.slice(1) };
  }
}
