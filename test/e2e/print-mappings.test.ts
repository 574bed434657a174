import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { PrintMappingFormPage, TestResolvePanel } from './pages/PrintMappingPages.js';
import { apiOk, apiSignIn } from './support/api.js';

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
    // RFQ has a default already: the save names it and asks before taking the default over.
    const id = await form.saveNew({ takesDefault: true });
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

  it('names the mapping that loses its default, warns about unknown codes before the save, and resolves any case', async () => {
    const { page, baseUrl } = session;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const templates = await apiOk<{ data: { id: string }[] }>(baseUrl, admin, 'GET', '/api-system/report-templates');
    const oldLabel = `Old default ${uniqueCode('E2E')}`;
    await apiOk(baseUrl, admin, 'POST', '/api-system/print-template-mappings', {
      document_type: 'SC',
      report_template_id: templates.data[0]!.id,
      is_default: true,
      display_label: oldLabel,
    });

    const form = new PrintMappingFormPage(page, baseUrl);
    await form.openCreate();
    await form.chooseDocumentType('SC — Spot Check');
    const [first] = await form.templateOptions();
    await form.chooseTemplate(first!.name);
    await form.label().fill(`New default ${uniqueCode('E2E')}`);
    // Codes come from the live business units; a code none has is called out before the save.
    await form.allowList().fill('b-hq');
    await page.getByRole('option', { name: /^B-HQ/ }).waitFor();
    await page.keyboard.press('Escape');
    const unknown = uniqueCode('NOPE');
    await form.addCodes(form.allowList(), [unknown]);
    await expect.poll(() => page.getByTestId('unknown-bu-codes').textContent()).toContain(unknown);

    const api = new ApiRecorder(page);
    await form.saveButton().click();
    const confirm = page.getByRole('dialog', { name: `Take the default from SC · ${oldLabel}?` });
    await confirm.waitFor();
    expect(api.recorded({ method: 'POST' })).toEqual([]);
    await session.screenshot('print-mapping-default-takeover');
    await confirm.getByRole('button', { name: 'Save as default' }).click();
    await page.waitForURL(/#\/print-template-mappings\/[0-9a-f-]{36}$/);

    // Resolve says when a code names no business unit, and matches codes in any case.
    const panel = new TestResolvePanel(page);
    await panel.resolve(unknown.toLowerCase());
    await page.getByTestId('resolve-unknown-bu').waitFor();
    await expect.poll(() => panel.winner().textContent()).toContain(first!.name);
    // The explanation keeps to the panel's width: the reason wraps instead of being cut.
    const table = (await panel.explanation().boundingBox())!;
    const root = (await panel.root().boundingBox())!;
    expect(table.x + table.width).toBeLessThanOrEqual(root.x + root.width + 1);
  });
});
