import type { Locator, Page } from 'playwright-core';
import { switchConsoleLanguage } from '../support/browserStorage.js';

/**
 * The read/edit form of a record page (a cluster's or a business unit's details), found by its mode buttons and its
 * inputs' names, so it reads the same in every language; and the notices a save leaves.
 */
export class RecordForm {
  constructor(private readonly page: Page) {}

  readonly field = (name: string): Locator => this.page.locator(`input[name="${name}"]`);
  /** The notification area's message, as the operator reads it. */
  readonly notice = (text: string | RegExp): Locator => this.page.getByRole('alert').filter({ hasText: text });

  async edit(): Promise<void> {
    await this.page.getByTestId('mode-edit').click();
    await this.page.getByTestId('mode-save').waitFor();
  }

  async fill(values: Record<string, string>): Promise<void> {
    for (const [name, value] of Object.entries(values)) await this.field(name).fill(value);
  }

  async save(): Promise<void> {
    await this.page.getByTestId('mode-save').click();
  }

  /** Leaves edit mode without saving (after a refused save, so that the next page opens without asking). */
  async cancel(): Promise<void> {
    await this.page.getByTestId('mode-cancel').click();
    await this.page.getByTestId('mode-edit').waitFor();
  }

  /** Switches the console's language (kept in the browser) and reads the page again in it. */
  useLanguage(locale: 'en' | 'th'): Promise<void> {
    return switchConsoleLanguage(this.page, locale);
  }
}
