import type { Locator, Page } from 'playwright-core';

/** The personal widget workspace at the root route: cards in a grid, the add-widget picker, rename, remove, drag. */
export class WorkspacePage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  readonly heading = () => this.page.getByRole('heading', { name: 'My workspace', level: 1 });
  readonly addWidgetButton = () => this.page.getByRole('button', { name: 'Add widget' }).first();
  readonly emptyState = () => this.page.getByTestId('workspace-empty');
  readonly cards = () => this.page.getByTestId('widget-card');
  readonly card = (title: string): Locator =>
    this.cards().filter({ has: this.page.getByTestId('widget-title').getByText(title, { exact: true }) });
  readonly cardById = (id: string): Locator => this.page.locator(`[data-testid="widget-card"][data-widget-id="${id}"]`);
  readonly picker = () => this.page.getByRole('dialog', { name: 'Add a widget' });

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/`);
    await this.waitLoaded();
  }

  /** The heading, and then either the empty-state prompt or at least one card. */
  async waitLoaded(): Promise<void> {
    await this.heading().waitFor();
    await this.emptyState().or(this.cards().first()).waitFor();
  }

  /**
   * Pins the first dataset the picker offers, under `title`; returns the dataset id.
   * The picker lists only datasets that are not pinned yet.
   */
  async pinFirstAvailable(title: string): Promise<string> {
    await this.addWidgetButton().click();
    const picker = this.picker();
    await picker.waitFor();
    const dataset = picker.getByTestId('picker-dataset').first();
    await dataset.waitFor();
    const datasetId = (await dataset.getAttribute('data-dataset-id')) ?? '';
    await dataset.click();
    await picker.getByRole('textbox', { name: 'Title' }).fill(title);
    await picker.getByRole('button', { name: 'Add', exact: true }).click();
    await picker.waitFor({ state: 'hidden' });
    await this.card(title).waitFor();
    return datasetId;
  }

  /** Datasets the picker offers right now (it is closed again afterwards). */
  async offeredDatasetIds(): Promise<string[]> {
    await this.addWidgetButton().click();
    const picker = this.picker();
    await picker.getByTestId('picker-dataset').first().or(picker.getByTestId('picker-empty')).waitFor();
    // The test project is compiled without the DOM library: the elements are typed by hand.
    const ids = await picker
      .getByTestId('picker-dataset')
      .evaluateAll((els) =>
        (els as unknown as { getAttribute(name: string): string | null }[]).map(
          (e) => e.getAttribute('data-dataset-id') ?? '',
        ),
      );
    await picker.getByRole('button', { name: 'Cancel' }).click();
    await picker.waitFor({ state: 'hidden' });
    return ids;
  }

  /** Renames a card in place (Enter commits). */
  async rename(from: string, to: string): Promise<void> {
    // While the title is edited the card shows an input instead, so hold on to the card by its widget id.
    const id = await this.card(from).getAttribute('data-widget-id');
    const card = this.cardById(id ?? '');
    await card.getByRole('button', { name: 'Rename' }).click();
    const input = card.getByRole('textbox', { name: 'Widget title' });
    await input.fill(to);
    await input.press('Enter');
    await this.card(to).waitFor();
  }

  /** Removes a card after the confirmation. */
  async remove(title: string): Promise<void> {
    await this.card(title).getByRole('button', { name: 'Remove' }).click();
    const confirm = this.page.getByRole('dialog', { name: 'Remove widget' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await this.card(title).waitFor({ state: 'detached' });
  }

  /**
   * Drags a card by its handle onto another card's place, moving the pointer in small steps as a person
   * would (the grid starts a drag only after 6 px of travel).
   */
  async dragOnto(title: string, targetTitle: string): Promise<void> {
    const handle = this.card(title).getByLabel('Drag to reorder');
    const from = await handle.boundingBox();
    const target = await this.card(targetTitle).boundingBox();
    if (!from || !target) throw new Error('cards are not visible');
    const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
    // The handle sits near the card's top-left corner: aim the same spot of the target card.
    const cardBox = (await this.card(title).boundingBox())!;
    const end = { x: target.x + (start.x - cardBox.x), y: target.y + (start.y - cardBox.y) };
    await this.page.mouse.move(start.x, start.y);
    await this.page.mouse.down();
    await this.page.mouse.move(start.x + 4, start.y + 4, { steps: 4 });
    await this.page.mouse.move(end.x, end.y, { steps: 25 });
    await this.page.mouse.up();
  }

  /** Resolves once no card is moving (the grid animates cards to their places with CSS transitions). */
  async settled(): Promise<void> {
    // The test project is compiled without the DOM library: the document is typed by hand.
    await this.page.waitForFunction(() => {
      type Animation = { playState: string; transitionProperty?: string };
      const doc = (globalThis as unknown as { document: { getAnimations(): Animation[] } }).document;
      return !doc.getAnimations().some((a) => a.transitionProperty !== undefined && a.playState === 'running');
    });
  }

  /** Card titles in reading order of the grid (top to bottom, then left to right), as the user sees them. */
  async titlesInReadingOrder(): Promise<string[]> {
    await this.settled();
    const cards = await this.cards().all();
    const placed = await Promise.all(
      cards.map(async (card) => ({
        box: await card.boundingBox(),
        title: ((await card.getByTestId('widget-title').textContent()) ?? '').trim(),
      })),
    );
    return placed
      .filter((p) => p.box)
      .sort((a, b) => Math.round(a.box!.y - b.box!.y) || a.box!.x - b.box!.x)
      .map((p) => p.title);
  }
}
