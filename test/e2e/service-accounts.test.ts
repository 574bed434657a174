import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ServiceAccountPages } from './pages/ServiceAccountPages.js';

describe('service accounts', () => {
  const session = useBrowserSession();

  it('creates a service account and a token, shows the token once with a copy button, and never again', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const screens = new ServiceAccountPages(page, baseUrl);
    await screens.openList();
    const name = uniqueCode('e2e-svc').toLowerCase();
    await screens.create(name, 'Nightly point-of-sale sync');
    expect(page.url()).toMatch(/#\/service-accounts\/[0-9a-f-]{36}$/);
    await page.getByTestId('tokens-empty').waitFor();
    // Every word on the page is translated: no message key shows through.
    expect(await page.locator('body').innerText()).not.toMatch(/service_accounts\.|resources\.users\./);
    await session.screenshot('service-account-created');

    const api = new ApiRecorder(page);
    const dialog = await screens.createToken('POS nightly sync');
    const token = await screens.shownToken();
    expect(token).toMatch(/^pa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(await dialog.textContent()).toContain('This is the only time the token is shown');
    expect(api.recorded({ method: 'POST', path: /^\/api-system\/service-accounts\/[^/]+\/tokens$/ })).toHaveLength(1);
    await page.getByTestId('token-copy').click();
    // Headless browsers may refuse the clipboard: then the dialog says to copy by hand; either way it answers.
    await page.getByText(/^(Copied|The browser did not allow copying)/).waitFor();
    await session.screenshot('token-copy-once');

    // The token is real: the API answers it with the service account's permissions.
    const res = await fetch(`${baseUrl}/api/user/permission/platform`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { username: string } }).user.username).toBe(name);

    await page.getByTestId('token-done').click();
    await dialog.waitFor({ state: 'hidden' });
    await screens.tokenRows().first().waitFor();
    expect(await screens.tokenRows().count()).toBe(1);
    const row = screens.tokenRows().first();
    expect(await row.textContent()).toContain(token.slice(0, 15));
    expect(await row.getByTestId('token-status').textContent()).toBe('Active');
    // Shown once: neither the list nor the page after a reload carries the secret.
    const secret = token.slice(16);
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await screens.tokenRows().first().waitFor();
    expect(await page.content()).not.toContain(secret);
    await session.screenshot('token-listed');
  });
});
