import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode, solidPng } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';

describe('clusters', () => {
  const session = useBrowserSession();

  it('creates a cluster and lands on its edit page', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const api = new ApiRecorder(page);
    const create = new ClusterCreatePage(page, baseUrl);
    await create.open();
    expect(await create.maxLicenseBu().getAttribute('placeholder')).toBe('Unlimited');
    const code = uniqueCode('E2E-CL');
    await create.fill({ code, alias: 'E2E', name: `Created ${code}`, maxLicenseBu: 3 });
    const id = await create.submit();

    expect(api.recorded({ method: 'POST', path: /^\/api-system\/clusters$/ })).toHaveLength(1);
    const edit = new ClusterEditPage(page, baseUrl);
    await edit.waitLoaded();
    expect(await edit.mode()).toBe('view');
    expect(await edit.details()).toEqual({ code, alias: 'E2E', name: `Created ${code}`, maxLicenseBu: '3' });
    // Branding and the BU and user cards exist only once the cluster does.
    await edit.logo().waitFor();
    await edit.buCard().waitFor();
    await edit.usersCard().waitFor();
    expect(await edit.buLicence().textContent()).toBe('0 of 3 licensed');
    expect(page.url()).toContain(`#/clusters/${id}/edit`);
    await session.screenshot('cluster-created');
  });

  it('edits and cancels: the remembered values come back and nothing is sent', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const code = uniqueCode('E2E-CL');
    const original = { code, alias: 'ORG', name: `Original ${code}`, maxLicenseBu: '4' };
    await new ClusterCreatePage(page, baseUrl).create({ ...original, maxLicenseBu: 4 });
    const edit = new ClusterEditPage(page, baseUrl);
    await edit.waitLoaded();

    const api = new ApiRecorder(page);
    await edit.startEditing();
    expect(await edit.mode()).toBe('edit');
    await edit.name().fill('Changed but not saved');
    await edit.alias().fill('CHG');
    await edit.maxLicenseBu().fill('9');
    expect(await edit.name().inputValue()).toBe('Changed but not saved');
    await session.screenshot('cluster-edit-dirty');

    await edit.cancelEditing();
    expect(await edit.mode()).toBe('view');
    expect(await edit.details()).toEqual(original);
    expect(api.writes()).toEqual([]);

    // The server still holds the original values.
    await page.reload();
    await edit.waitLoaded();
    expect(await edit.details()).toEqual(original);
    expect(api.writes()).toEqual([]);
    await session.screenshot('cluster-edit-cancelled');
  });

  it('uploads from read mode, keeps a logo uploaded before Cancel on the next visit, and removes it', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const code = uniqueCode('E2E-CL');
    const id = await new ClusterCreatePage(page, baseUrl).create({ code, name: `Logo ${code}` });
    const edit = new ClusterEditPage(page, baseUrl);
    await edit.waitLoaded();
    // An upload saves at once, apart from Save Changes: it needs no edit mode.
    expect(await edit.mode()).toBe('view');
    expect(await edit.logoUpload().isEnabled()).toBe(true);

    const api = new ApiRecorder(page);
    // A type outside JPEG, PNG and WebP is refused in the browser: an error, no request.
    await edit.uploadLogo({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByText('Only JPEG, PNG or WebP images are accepted').waitFor();
    expect(api.writes()).toEqual([]);
    await edit.uploadLogo({ name: 'a.png', mimeType: 'image/png', buffer: solidPng(16, 16, [0, 0, 0]) }, edit.avatar());
    await edit.avatarPreview().waitFor();

    // In edit mode: upload, then Cancel the form. The logo stays stored.
    await edit.startEditing();
    await edit.uploadLogo({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(48, 16, [32, 96, 200]) });
    await edit.logoPreview().waitFor();
    await page.getByText('Logo uploaded').first().waitFor();
    expect(api.recorded({ method: 'POST', path: new RegExp(`^/api-system/clusters/${id}/logo$`) })).toHaveLength(1);
    expect(api.recorded({ method: 'PUT' })).toEqual([]);
    await edit.cancelEditing();

    // To the list and back, without a reload: the record shows the stored logo.
    await page.goto(`${baseUrl}/#/clusters`);
    await page.getByRole('row').filter({ hasText: code }).waitFor();
    await page.goto(`${baseUrl}/#/clusters/${id}/edit`);
    await edit.waitLoaded();
    await expect.poll(() => edit.logoWidth()).toBe(48);
    await session.screenshot('cluster-logo-uploaded');

    // Removal asks first, then clears the logo at once.
    await edit.removeLogo();
    await edit.noLogo().waitFor();
    expect(api.recorded({ method: 'DELETE', path: new RegExp(`^/api-system/clusters/${id}/logo$`) })).toHaveLength(1);
    await page.reload();
    await edit.waitLoaded();
    await edit.noLogo().waitFor();
    expect(await edit.logoPreview().count()).toBe(0);
    await edit.avatarPreview().waitFor();
  });

  it('shows the alias limit instead of cutting, and warns before a BU cap below the units it has', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const code = uniqueCode('E2E-CAP');
    const { id } = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/clusters', { code, name: code });
    for (const n of [1, 2])
      await apiOk(baseUrl, admin, 'POST', '/api-system/business-units', {
        cluster_id: id,
        code: `${code}-${n}`,
        name: `BU ${n}`,
      });
    const edit = new ClusterEditPage(page, baseUrl);
    await edit.open(id);
    await edit.startEditing();
    const api = new ApiRecorder(page);

    await edit.maxLicenseBu().fill('1');
    await expect
      .poll(() => page.getByTestId('cap-below-use-max_license_bu').textContent())
      .toContain('already has 2 business units, more than a cap of 1');

    await edit.alias().fill('ABCD');
    expect(await edit.alias().inputValue()).toBe('ABCD');
    await page.getByText('Up to 3 characters (4/3)').waitFor();
    await edit.saveButton().click();
    await page.getByText('At most 3 characters: shorten the alias').waitFor();
    expect(api.writes()).toEqual([]);
    await session.screenshot('cluster-alias-and-cap');
  });
});
