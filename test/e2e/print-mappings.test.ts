import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { PrintMappingFormPage, TestResolvePanel } from './pages/PrintMappingPages.js';

describe('print template mappings', () => {
  const session = useBrowserSession();

  it('creates a mapping as a mapper and tests resolve for an allowed and another business unit', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.mapper);
    const form = new PrintMappingFormPage(page, baseUrl);
    await form.openCreate();

    await form.chooseDocumentType('RFQ — Request For Quotation');
    // Print templates of the chosen type come first.
    const options = await form.templateOptions();
    expect(options.map((o) => o.matches).slice(0, 3)).toEqual(['true', 'true', 'false']);
    expect(
      options
        .slice(0, 2)
        .map((o) => o.name)
        .sort(),
    ).toEqual(['Request For Quotation — compact', 'Request For Quotation — standard A4']);
    await form.chooseTemplate('Request For Quotation — compact');

    const buCode = uniqueCode('E2E-BU');
    const label = `E2E compact for ${buCode}`;
    expect(await form.isDefault().isChecked()).toBe(true);
    await form.label().fill(label);
    await form.order().fill('5');
    await form.addCodes(form.allowList(), [buCode]);
    await expect.poll(() => form.chipsOf('allow_business_unit').allTextContents()).toEqual([buCode]);
    await session.screenshot('print-mapping-create');

    const api = new ApiRecorder(page);
    const id = await form.saveNew();
    expect(api.recorded({ method: 'POST', path: /^\/api-system\/print-template-mappings$/ })).toHaveLength(1);

    // The resolve panel on the edit page starts on the mapping's document type.
    const panel = new TestResolvePanel(page);
    await panel.root().waitFor();
    await expect.poll(() => panel.documentType().textContent()).toBe('RFQ — Request For Quotation');

    // The allowed BU gets the new default mapping.
    await panel.resolve(buCode);
    await expect.poll(() => panel.winner().textContent()).toContain('Prints with: Request For Quotation — compact');
    // The winner is the new mapping (named by its template in words; its id is no longer printed).
    expect(await panel.winner().getAttribute('data-mapping-id')).toBe(id);
    expect(await panel.candidate(label).getAttribute('data-outcome')).toBe('selected');
    await session.screenshot('print-mapping-resolve-allowed');

    // Another BU is outside the allow list: the explanation says so and another mapping wins.
    await panel.resolve(`${buCode}-OTHER`);
    await expect.poll(() => panel.candidate(label).getAttribute('data-outcome')).toBe('not_in_allow_list');
    expect(await panel.winner().getAttribute('data-mapping-id')).not.toBe(id);
    await session.screenshot('print-mapping-resolve-other');
  });
});
