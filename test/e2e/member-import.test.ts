import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { MemberImportPage } from './pages/MemberImportPage.js';

interface Created {
  id: string;
}

describe('membership import', () => {
  const session = useBrowserSession();
  const prefix = uniqueCode('E2E-IMP');
  const clusterCode = `${prefix}-C`;
  // One business unit with a licence cap well above the rows it gets, one with no cap at all.
  const capped = { code: `${prefix}-A`, id: '' };
  const uncapped = { code: `${prefix}-B`, id: '' };
  const usernames = Array.from({ length: 200 }, (_, i) => `${prefix.toLowerCase()}-u${String(i).padStart(3, '0')}`);

  beforeAll(async () => {
    const baseUrl = inject('baseUrl');
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const cluster = await apiOk<Created>(baseUrl, admin, 'POST', '/api-system/clusters', {
      code: clusterCode,
      name: `Import ${clusterCode}`,
    });
    capped.id = (
      await apiOk<Created>(baseUrl, admin, 'POST', '/api-system/business-units', {
        cluster_id: cluster.id,
        code: capped.code,
        name: 'Import capped',
        max_license_users: 500,
      })
    ).id;
    uncapped.id = (
      await apiOk<Created>(baseUrl, admin, 'POST', '/api-system/business-units', {
        cluster_id: cluster.id,
        code: uncapped.code,
        name: 'Import uncapped',
      })
    ).id;
    // There is no bulk path for accounts: a few at a time over HTTP keeps it quick without swamping the server.
    for (let i = 0; i < usernames.length; i += 10) {
      await Promise.all(
        usernames.slice(i, i + 10).map((username) =>
          apiOk(baseUrl, admin, 'POST', '/api-system/users', {
            username,
            email: `${username}@example.com`,
            password: 'Initial-Pass-2026!',
          }),
        ),
      );
    }
  }, 180_000);

  it('checks a 399-row file with 4 bad rows, applies the valid rows, and the members and audit events show', async () => {
    const { page, baseUrl } = session;
    // The file: the users join the cluster first (all but one), then alternate between its two units; four rows are
    // bad in four different ways.
    const lines = ['user,business_unit,cluster,role,active'];
    usernames.forEach((u, i) => {
      if (i !== 60) lines.push(`${u},,${clusterCode},user,true`);
    });
    usernames.forEach((u, i) => {
      if (i === 50) lines.push(`${prefix.toLowerCase()}-nobody,${capped.code},,user,true`);
      else if (i === 100) lines.push(`${u},${prefix}-NO-SUCH-BU,,user,true`);
      else if (i === 150) lines.push(`${u},${uncapped.code},,superuser,true`);
      else
        lines.push(
          `${i % 2 === 0 ? `${u}@example.com` : u},${i % 2 === 0 ? capped.code : uncapped.code},,${i % 10 === 0 ? 'admin' : 'user'},true`,
        );
    });
    const csv = lines.join('\n') + '\n';
    // Line of user 60's unit row: no cluster row names them, so the unit refuses them.
    const bad = [50, 60, 100, 150];
    const expectedInCapped = usernames.filter((_, i) => i % 2 === 0 && !bad.includes(i)).length;
    const expectedInUncapped = 196 - expectedInCapped;

    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const screen = new MemberImportPage(page, baseUrl);
    await screen.open();
    await screen.check('members.csv', csv);
    expect(await screen.summary('added').textContent()).toBe('395 added');
    expect(await screen.summary('refused').textContent()).toBe('4 refused');
    expect(await screen.rows().count()).toBe(50);

    await screen.filterBy('refused');
    await expect.poll(() => screen.rows().count()).toBe(4);
    const refusedText = (await screen.rows().allTextContents()).join('\n');
    expect(refusedText).toContain('Not a user of the cluster');
    expect(refusedText).toContain('Unknown user');
    expect(refusedText).toContain('Unknown business unit');
    expect(refusedText).toContain('Malformed row');
    await session.screenshot('member-import-plan');

    const applied = await screen.applyConfirmed('Apply valid rows');
    expect(await applied.textContent()).toBe('The import was applied: 395 memberships changed.');
    await session.screenshot('member-import-applied');

    // The audit log opens on this import's events alone.
    await screen.auditLink().click();
    await page.getByTestId('filter-import').waitFor();
    await page.getByTestId('audit-row').first().waitFor();
    await expect.poll(() => page.locator('.MuiTablePagination-displayedRows').textContent()).toBe('1–25 of 395');
    expect(await page.getByTestId('audit-row').first().textContent()).toContain('Added a business unit member');
    await session.screenshot('member-import-audit-log');

    // The members are on the business units' pages.
    await page.goto(`${baseUrl}/#/business-units/${capped.id}`);
    await expect
      .poll(() => page.getByTestId('bu-users-card').getByTestId('bu-user-row').count(), { timeout: 15_000 })
      .toBe(expectedInCapped);
    await page.goto(`${baseUrl}/#/business-units/${uncapped.id}`);
    await expect
      .poll(() => page.getByTestId('bu-users-card').getByTestId('bu-user-row').count(), { timeout: 15_000 })
      .toBe(expectedInUncapped);
    await page.getByTestId('bu-users-card').getByText(`${usernames[1]}@example.com`).waitFor();
  });
});
