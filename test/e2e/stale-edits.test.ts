// A save over someone else's newer save is refused: the page says so in a dialog and shows their version.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn, type ApiSession } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';

interface Flow {
  /** The record's page, ready to edit. */
  url: string;
  /** Switches the form to edit mode (record pages open in view mode; the mapping form is always editable). */
  edit?: (page: Page) => Promise<void>;
  field: (page: Page) => Locator;
  save: (page: Page) => Locator;
  /** Someone else's save, through the API, after the page read the record. */
  theirSave: (admin: ApiSession) => Promise<unknown>;
  theirValue: string;
}

const byModeButtons = async (page: Page) => {
  await page.getByTestId('mode-edit').click();
  await page.getByTestId('mode-save').waitFor();
};

describe('stale edits', () => {
  const session = useBrowserSession();

  /** Opens the page, edits the field, lets someone else save, saves: the dialog, then their value. */
  async function expectStaleDialog(flow: Flow) {
    const { page, baseUrl } = session;
    // The refused PUT is answered 412, which the browser logs.
    session.expectConsole(/Failed to load resource: the server responded with a status of 412/);
    session.expectConsole(/If-Match does not match the current ETag/);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto(`${baseUrl}/#${flow.url}`);
    await flow.field(page).waitFor();
    if (flow.edit) await flow.edit(page);
    await flow.field(page).fill('Mine, saved too late');
    await flow.theirSave(admin);
    const put = page.waitForRequest((r) => r.method() === 'PUT');
    await flow.save(page).click();
    expect((await put).headers()['if-match']).toMatch(/^W\/"/);
    const dialog = page.getByRole('dialog', { name: 'Changed by someone else' });
    await dialog.waitFor();
    await session.screenshot(`stale-edit-${flow.url.split('/')[1]}`);
    await dialog.getByRole('button', { name: 'Show their version' }).click();
    await expect.poll(() => flow.field(page).inputValue()).toBe(flow.theirValue);
  }

  it('a cluster', async () => {
    await signInAs(session.page, session.baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(session.baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const code = uniqueCode('E2E-ST');
    const { id } = await apiOk<{ id: string }>(session.baseUrl, admin, 'POST', '/api-system/clusters', {
      code,
      name: `Stale ${code}`,
    });
    await expectStaleDialog({
      url: `/clusters/${id}/edit`,
      edit: byModeButtons,
      field: (page) => page.getByRole('textbox', { name: /^Name/ }),
      save: (page) => page.getByTestId('mode-save'),
      theirSave: (s) => apiOk(session.baseUrl, s, 'PUT', `/api-system/clusters/${id}`, { code, name: 'Theirs' }),
      theirValue: 'Theirs',
    });
  });

  it('a business unit', async () => {
    await signInAs(session.page, session.baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(session.baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const code = uniqueCode('E2E-ST');
    const cluster = await apiOk<{ id: string }>(session.baseUrl, admin, 'POST', '/api-system/clusters', {
      code,
      name: `Stale ${code}`,
    });
    const bu = { cluster_id: cluster.id, code: `${code}-BU`, name: `Stale BU ${code}` };
    const { id } = await apiOk<{ id: string }>(session.baseUrl, admin, 'POST', '/api-system/business-units', bu);
    await expectStaleDialog({
      url: `/business-units/${id}/edit`,
      edit: byModeButtons,
      field: (page) => page.getByTestId('bu-section-general').getByRole('textbox', { name: /^Name/ }),
      save: (page) => page.getByTestId('mode-save'),
      theirSave: (s) => apiOk(session.baseUrl, s, 'PUT', `/api-system/business-units/${id}`, { ...bu, name: 'Theirs' }),
      theirValue: 'Theirs',
    });
  });

  it('a user', async () => {
    await signInAs(session.page, session.baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(session.baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const username = uniqueCode('e2e-st').toLowerCase();
    const identity = {
      username,
      email: `${username}@example.com`,
      firstname: 'Stale',
      middlename: '',
      lastname: 'Edit',
    };
    const { id } = await apiOk<{ id: string }>(session.baseUrl, admin, 'POST', '/api-system/users', {
      ...identity,
      password: 'Initial-Andaman-2026',
    });
    await expectStaleDialog({
      url: `/users/${id}`,
      edit: byModeButtons,
      field: (page) => page.getByRole('textbox', { name: /^First name/ }),
      save: (page) => page.getByTestId('mode-save'),
      theirSave: (s) =>
        apiOk(session.baseUrl, s, 'PUT', `/api-system/users/${id}`, { ...identity, firstname: 'Theirs' }),
      theirValue: 'Theirs',
    });
  });

  it('a print mapping', async () => {
    await signInAs(session.page, session.baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(session.baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const templates = await apiOk<{ data: { id: string }[] }>(
      session.baseUrl,
      admin,
      'GET',
      '/api-system/report-templates?perpage=1',
    );
    const { id } = await apiOk<{ id: string }>(session.baseUrl, admin, 'POST', '/api-system/print-template-mappings', {
      document_type: 'RFQ',
      report_template_id: templates.data[0]!.id,
      is_default: false,
      display_label: `Stale ${uniqueCode('E2E')}`,
      display_order: 90,
    });
    await expectStaleDialog({
      url: `/print-template-mappings/${id}`,
      field: (page) => page.getByRole('textbox', { name: 'Menu label' }),
      save: (page) => page.getByRole('button', { name: 'Save', exact: true }),
      theirSave: (s) =>
        apiOk(session.baseUrl, s, 'PUT', `/api-system/print-template-mappings/${id}`, { display_label: 'Theirs' }),
      theirValue: 'Theirs',
    });
  });
});
