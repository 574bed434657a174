import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';
import { SessionExpiredDialog, expireSession } from './pages/SessionExpiredDialog.js';

describe('an expired session during a save', () => {
  const session = useBrowserSession();

  it('keeps the form, asks to sign in again in place, then saves and names the record', async () => {
    const { page, baseUrl } = session;
    // The PUT with the dead token and the refresh with the revoked token are refused on purpose.
    session.expectConsole(/Failed to load resource: the server responded with a status of 401/);
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const code = uniqueCode('E2E-EXP');
    const id = await new ClusterCreatePage(page, baseUrl).create({ code, name: `Before ${code}` });
    const edit = new ClusterEditPage(page, baseUrl);
    await edit.waitLoaded();
    await edit.startEditing();
    await edit.name().fill(`After ${code}`);

    // The session dies while the form is open: the refresh token is revoked and the access token no longer valid.
    await expireSession(page);
    const api = new ApiRecorder(page);
    await edit.saveButton().click();

    const dialog = new SessionExpiredDialog(page);
    await dialog.waitShown();
    await session.screenshot('session-expired-dialog');
    // Nothing claimed success, and the form is still there with what was typed.
    expect(await page.getByText(/saved$/).count()).toBe(0);
    expect(await page.getByText('Element updated').count()).toBe(0);
    expect(await edit.mode()).toBe('edit');
    expect(await edit.nameInput().inputValue()).toBe(`After ${code}`);
    expect(page.url()).toContain(`#/clusters/${id}/edit`);
    expect(api.recorded({ method: 'PUT' })).toHaveLength(1);
    expect(api.recorded({ method: 'POST', path: /^\/api\/auth\/refresh-token$/ })).toHaveLength(1);

    expect(await dialog.username().inputValue()).toBe(ACCOUNTS.admin.username);
    await dialog.signIn(ACCOUNTS.admin.password);

    await page.getByText(`Cluster ${code} saved`).waitFor();
    await expect.poll(() => edit.mode()).toBe('view');
    expect(api.recorded({ method: 'PUT', path: new RegExp(`^/api-system/clusters/${id}$`) })).toHaveLength(2);
    expect(await edit.name().inputValue()).toBe(`After ${code}`);
    await session.screenshot('session-expired-saved');

    // The server holds the new name, and the new session carries on.
    await page.reload();
    await edit.waitLoaded();
    expect(await edit.name().inputValue()).toBe(`After ${code}`);
  });
});
