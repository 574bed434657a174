import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';
import { BusinessUnitCreatePage } from './pages/BusinessUnitCreatePage.js';
import { apiOk, apiSignIn } from './support/api.js';

describe('business units under a licence cap', () => {
  const session = useBrowserSession();

  it('adds BUs from the cluster page until the cap blocks the next create, with no request sent', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const clusterCode = uniqueCode('E2E-CAP');
    const clusterName = `Capped ${clusterCode}`;
    const clusterId = await new ClusterCreatePage(page, baseUrl).create({
      code: clusterCode,
      name: clusterName,
      maxLicenseBu: 2,
    });
    const cluster = new ClusterEditPage(page, baseUrl);
    const form = new BusinessUnitCreatePage(page, baseUrl);

    for (const n of [1, 2]) {
      await cluster.waitLoaded();
      await expect.poll(() => cluster.buLicence().textContent()).toBe(`${n - 1} of 2 licensed`);
      await cluster.buAdd().click();
      await page.waitForURL(new RegExp(`#/business-units/create\\?cluster_id=${clusterId}$`));
      await form.waitLoaded();
      // The query's cluster_id pre-selects the cluster.
      await expect.poll(() => form.selectedClusterName()).toBe(clusterName);
      await form.fill({ code: `${clusterCode}-BU${n}`, name: `BU ${n} of ${clusterCode}` });
      await form.submitAndWaitForEdit();
      await cluster.open(clusterId);
    }

    // At the cap the card says so and its Add is disabled.
    await expect.poll(() => cluster.buLicence().textContent()).toBe('2 of 2 licensed');
    await expect.poll(() => cluster.buRows().count()).toBe(2);
    expect(await cluster.buAdd().isDisabled()).toBe(true);
    await session.screenshot('bu-cap-reached-card');

    // The create route itself still refuses: the pre-check counts the cluster's BUs and sends no create.
    await form.open(clusterId);
    await expect.poll(() => form.selectedClusterName()).toBe(clusterName);
    await form.fill({ code: `${clusterCode}-BU3`, name: `BU 3 of ${clusterCode}` });
    const api = new ApiRecorder(page);
    await form.createButton().click();
    const message = 'Cannot create business unit: cluster has reached its license limit (2/2)';
    await page.getByText(message).first().waitFor();
    expect(api.recorded({ method: 'POST' })).toEqual([]);
    expect(page.url()).toContain('#/business-units/create');
    await session.screenshot('bu-cap-blocked');

    // Still two BUs.
    await cluster.open(clusterId);
    await expect.poll(() => cluster.buRows().count()).toBe(2);
  });

  it('shows all nine sections open at 768 px, and warns before saving a user cap below the members', async () => {
    const { page, baseUrl } = session;
    await page.setViewportSize({ width: 768, height: 1000 });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const code = uniqueCode('E2E-BUC');
    const cluster = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/clusters', { code, name: code });
    const bu = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/business-units', {
      cluster_id: cluster.id,
      code: `${code}-BU`,
      name: `Members of ${code}`,
    });
    for (const n of [1, 2]) {
      const username = `${code}-u${n}`.toLowerCase();
      const user = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/users', {
        username,
        email: `${username}@example.com`,
        firstname: 'Member',
        lastname: String(n),
        password: 'Initial-Andaman-2026',
      });
      await apiOk(baseUrl, admin, 'POST', '/api-system/user/clusters', { user_id: user.id, cluster_id: cluster.id });
      await apiOk(baseUrl, admin, 'POST', '/api-system/user/business-units', {
        user_id: user.id,
        business_unit_id: bu.id,
      });
    }

    await page.goto(`${baseUrl}/#/business-units/${bu.id}/edit`);
    const sections = page.getByRole('region').and(page.locator('[data-testid^="bu-section-"]'));
    await expect.poll(() => sections.count()).toBe(9);
    // Open, not folded: the last section's field is on the page, and nothing scrolls sideways.
    await page.getByTestId('db-connection').scrollIntoViewIfNeeded();
    expect(await page.getByTestId('db-connection').isVisible()).toBe(true);
    const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(768);
    await session.screenshot('bu-sections-768');

    await page.getByTestId('mode-edit').click();
    const cap = page.getByRole('spinbutton', { name: /^Max licensed users/ });
    await cap.fill('1');
    const warning = page.getByTestId('cap-below-use-max_license_users');
    await expect.poll(() => warning.textContent()).toContain('already has 2 members, more than a cap of 1');
    await cap.fill('2');
    await warning.waitFor({ state: 'detached' });
  });
});
