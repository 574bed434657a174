import type { Locator, Page } from 'playwright-core';

/** The folded History card of a read view (cluster, business unit, mapping): events newest first, field by field. */
export class HistoryCard {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('history-card');
  readonly toggle = () => this.root().getByRole('button', { name: /^(Show|Hide) the changes$/ });
  readonly events = () => this.root().getByTestId('history-event');
  /** Events whose heading line contains `text` (an action in words, an actor's name). */
  readonly event = (text: string): Locator => this.events().filter({ hasText: text });
  /** The before → after row of `field` (the field's key, e.g. `name`) within an event. */
  readonly change = (event: Locator, field: string): Locator =>
    event.locator(`[data-testid="history-change"][data-field="${field}"]`);

  /** Unfolds the card and waits for its first answer (events or the empty state). */
  async open(): Promise<void> {
    await this.root().waitFor();
    await this.root().getByRole('button', { name: 'Show the changes' }).click();
    await this.events().first().or(this.root().getByTestId('history-empty')).waitFor();
  }

  /** The text before and after of a change row. */
  async beforeAfter(change: Locator): Promise<{ before: string; after: string }> {
    return {
      before: ((await change.getByTestId('change-before').textContent()) ?? '').trim(),
      after: ((await change.getByTestId('change-after').textContent()) ?? '').trim(),
    };
  }
}
