import type { Locator, Page } from 'playwright-core';

/**
 * A record's History: the folded card of a read view (cluster, business unit, mapping), or an account's History tab
 * (`root: 'history-tab'`). Events newest first, each a sentence naming what it did, field by field, with Revert.
 */
export class HistoryCard {
  constructor(
    private readonly page: Page,
    private readonly rootTestId: 'history-card' | 'history-tab' = 'history-card',
  ) {}

  readonly root = () => this.page.getByTestId(this.rootTestId);
  readonly toggle = () => this.root().getByRole('button', { name: /^(Show|Hide) the changes$/ });
  readonly events = () => this.root().getByTestId('history-event');
  /** Events whose heading line contains `text` (what it did in words, an actor's name). */
  readonly event = (text: string | RegExp): Locator => this.events().filter({ hasText: text });
  /** The sentence that says what the event did ("Granted Read clusters on CL-S to nok"). */
  readonly summary = (event: Locator): Locator => event.getByTestId('history-summary');
  /** The before → after row of `field` (the field's key, e.g. `name`) within an event. */
  readonly change = (event: Locator, field: string): Locator =>
    event.getByTestId('history-change').filter({ has: this.page.locator(`[data-field="${field}"]`) });
  readonly revertButton = (event: Locator): Locator => event.getByRole('button', { name: 'Revert' });
  readonly revertDialog = () => this.page.getByRole('dialog', { name: 'Revert this change?' });

  /** Unfolds the card and waits for its first answer (events or the empty state). */
  async open(): Promise<void> {
    await this.root().waitFor();
    if (this.rootTestId === 'history-card') await this.root().getByRole('button', { name: 'Show the changes' }).click();
    await this.events().first().or(this.root().getByTestId('history-empty')).waitFor();
  }

  /** The text before and after of a change row. */
  async beforeAfter(change: Locator): Promise<{ before: string; after: string }> {
    return {
      before: ((await change.getByTestId('change-before').textContent()) ?? '').trim(),
      after: ((await change.getByTestId('change-after').textContent()) ?? '').trim(),
    };
  }

  /** Opens the Revert dialog of an event: what it asks, field by field ("Name: new → old"). */
  async startRevert(event: Locator): Promise<string[]> {
    await this.revertButton(event).click();
    await this.revertDialog().waitFor();
    return (await this.revertDialog().getByTestId('revert-field').allTextContents()).map((t) => t.trim());
  }

  async confirmRevert(): Promise<void> {
    await this.revertDialog().getByRole('button', { name: 'Revert' }).click();
  }
}
