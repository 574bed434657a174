import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { WorkspacePage } from './pages/WorkspacePage.js';
import { switchConsoleLanguage } from './support/browserStorage.js';

/** The flow's own cards, in the order the workspace shows them (other cards of the user are ignored). */
const mine = (titles: string[], own: string[]) => titles.filter((t) => own.includes(t));

describe('widget workspace', () => {
  const session = useBrowserSession();

  it('pins, renames, drag-reorders and removes widgets; the order survives a reload', async () => {
    const { page, baseUrl } = session;
    // editor-a's workspace is used by no other flow; the flow works with whatever cards it already holds.
    await signInAs(page, baseUrl, ACCOUNTS.editorA);
    const workspace = new WorkspacePage(page, baseUrl);
    await workspace.waitLoaded();
    const tag = uniqueCode('W');
    const [first, second, third, renamed] = ['First', 'Second', 'Third', 'Second renamed'].map(
      (t) => `${t} ${tag}`,
    ) as [string, string, string, string];

    // Pin three datasets; each is no longer offered once pinned.
    const api = new ApiRecorder(page);
    const pinned: string[] = [];
    for (const title of [first, second, third]) pinned.push(await workspace.pinFirstAvailable(title));
    expect(new Set(pinned).size).toBe(3);
    expect(api.recorded({ method: 'POST', path: /^\/api\/proxy\/api\/me\/dashboard-widgets$/ })).toHaveLength(3);
    const offered = await workspace.offeredDatasetIds();
    expect(offered.filter((id) => pinned.includes(id))).toEqual([]);
    await expect
      .poll(async () => mine(await workspace.titlesInReadingOrder(), [first, second, third]))
      .toEqual([first, second, third]);
    await session.screenshot('workspace-pinned');

    // Rename in place.
    api.reset();
    await workspace.rename(second, renamed);
    await api.idle();
    expect(api.recorded({ method: 'PATCH', path: /^\/api\/proxy\/api\/me\/dashboard-widgets\/[^/]+$/ })).toHaveLength(
      1,
    );

    // Drag the third card onto the first one's place: it takes that position and the others close up.
    const own = [first, renamed, third];
    const before = await workspace.titlesInReadingOrder();
    api.reset();
    await workspace.dragOnto(third, first);
    await expect.poll(async () => mine(await workspace.titlesInReadingOrder(), own)).toEqual([third, first, renamed]);
    await api.idle();
    // One PATCH per widget whose slot (its position) changed, and nothing else.
    const after = await workspace.titlesInReadingOrder();
    const moved = after.filter((title, position) => before[position] !== title).length;
    expect(moved).toBeGreaterThanOrEqual(3);
    expect(api.recorded({ method: 'PATCH', path: /^\/api\/proxy\/api\/me\/dashboard-widgets\/[^/]+$/ })).toHaveLength(
      moved,
    );
    expect(api.writes()).toHaveLength(moved);
    await session.screenshot('workspace-reordered');

    // The order is stored: a reload shows it again.
    await page.reload();
    await workspace.waitLoaded();
    await workspace.card(third).waitFor();
    await expect.poll(async () => mine(await workspace.titlesInReadingOrder(), own)).toEqual([third, first, renamed]);
    await session.screenshot('workspace-reloaded');

    // Remove the flow's cards.
    for (const title of own) await workspace.remove(title);
    await api.idle();
    await page.reload();
    await workspace.waitLoaded();
    expect(mine(await workspace.titlesInReadingOrder(), own)).toEqual([]);
    await session.screenshot('workspace-removed');
  });

  it('shows the categories the API names in English (document types) in Thai on a chart', async () => {
    const { page, baseUrl } = session;
    // The operator's demo workspace holds a pie of the amounts waiting per document type; no flow changes it.
    await signInAs(page, baseUrl, ACCOUNTS.operator);
    await switchConsoleLanguage(page, 'th');
    const chart = new WorkspacePage(page, baseUrl).card('Amount to approve');
    await chart.getByText('ใบขอซื้อ', { exact: true }).first().waitFor();
    await chart.getByText('ใบสั่งซื้อ', { exact: true }).first().waitFor();
    for (const english of ['Purchase Request', 'Purchase Order', 'Store Requisition'])
      expect(await chart.getByText(english).count(), english).toBe(0);
    await session.screenshot('workspace-chart-thai');
  });
});
