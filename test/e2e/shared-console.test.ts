import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { AddClusterUserDialog } from './pages/ClusterEditPage.js';
import { AddBusinessUnitUserDialog, MembersCard } from './pages/MembersCards.js';
import { RecordForm } from './pages/RecordForm.js';

/** Records made through the API for a flow: two clusters, and two units of the first. */
async function seed(prefix: string) {
  const baseUrl = inject('baseUrl');
  const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  const code = uniqueCode(prefix);
  const post = (path: string, body: object) => apiOk<{ id: string }>(baseUrl, admin, 'POST', path, body);
  const a = { code: `${code}-A`, name: `Shared ${code} A` };
  const b = { code: `${code}-B`, name: `Shared ${code} B` };
  const clusterA = (await post('/api-system/clusters', a)).id;
  const clusterB = (await post('/api-system/clusters', b)).id;
  const unit = (suffix: string) => ({
    cluster_id: clusterA,
    code: `${code}-U${suffix}`,
    name: `Unit ${code} ${suffix}`,
  });
  const [u1, u2] = [unit('1'), unit('2')];
  const bu1 = (await post('/api-system/business-units', u1)).id;
  const bu2 = (await post('/api-system/business-units', u2)).id;
  return { a, b, u1, u2, ids: { clusterA, clusterB, bu1, bu2 } };
}

describe('one notification path', () => {
  const session = useBrowserSession();
  let data: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    data = await seed('E2E-NTC');
  });

  it('a save and a refused save read alike on a cluster and on a business unit, in English and in Thai', async () => {
    const { page, baseUrl } = session;
    // Each refused save is a 409 the server sends on purpose: a code (and name) another record already has.
    session.expectConsole(/Failed to load resource: the server responded with a status of 409/);
    // react-admin logs a refused mutation too, with the server's reason as the error's message.
    session.expectConsole(/^error: \S+: A live (business unit|cluster) with code /);
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const form = new RecordForm(page);
    const { a, u1, ids } = data;

    // English: the cluster's save names it by its code; the unit's refusal names it and gives the server's reason.
    await page.goto(`${baseUrl}/#/clusters/${ids.clusterA}`);
    await form.edit();
    await form.fill({ name: `${a.name} renamed` });
    await form.save();
    await form.notice(`Cluster ${a.code} saved`).waitFor();

    await page.goto(`${baseUrl}/#/business-units/${ids.bu2}`);
    await form.edit();
    await form.fill({ code: u1.code });
    await form.save();
    const refusedUnit = form.notice(`Business unit ${u1.code} was not saved: `);
    await refusedUnit.waitFor();
    expect(await refusedUnit.textContent()).toContain(`A live business unit with code "${u1.code}" already exists`);
    await session.screenshot('notice-refused-unit-en');
    await form.cancel();

    // Thai: the same two sentences, the other way round: the unit saved, the cluster refused.
    await form.useLanguage('th');
    await page.goto(`${baseUrl}/#/business-units/${ids.bu1}`);
    await form.edit();
    await form.fill({ name: `${u1.name} ใหม่` });
    await form.save();
    await form.notice(`บันทึกหน่วยธุรกิจ ${u1.code} แล้ว`).waitFor();

    await page.goto(`${baseUrl}/#/clusters/${ids.clusterB}`);
    await form.edit();
    await form.fill({ code: a.code, name: `${a.name} renamed` });
    await form.save();
    const refusedCluster = form.notice(`บันทึกคลัสเตอร์ ${a.code} ไม่สำเร็จ: `);
    await refusedCluster.waitFor();
    expect(await refusedCluster.textContent()).toContain(`A live cluster with code "${a.code}"`);
    await session.screenshot('notice-refused-cluster-th');
    await form.cancel();
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: /\b(app|resources)\.[a-z_]+\./ })
        .count(),
    ).toBe(0);
  });
});

describe('one member dialog for clusters and business units', () => {
  const session = useBrowserSession();
  let data: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    data = await seed('E2E-MDL');
  });

  it('a unit of a cluster with no users points to the cluster; the same dialogs then add and edit the member on both', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const { a, ids } = data;
    const form = new RecordForm(page);

    // The unit's empty state: nobody can join before they are a user of the cluster, and the link goes there.
    await page.goto(`${baseUrl}/#/business-units/${ids.bu1}`);
    const unitCard = new MembersCard(page, 'bu-users-card');
    await unitCard.empty().waitFor();
    await unitCard.addButton().click();
    const unitAdd = new AddBusinessUnitUserDialog(page);
    await unitAdd.none().waitFor();
    expect(await unitAdd.none().getAttribute('data-reason')).toBe('cluster_has_no_users');
    expect(await unitAdd.root().getByRole('combobox', { name: 'Role' }).textContent()).toBe('User');
    await session.screenshot('shared-dialog-unit-empty');
    await unitAdd.addToClusterLink().click();
    await page.waitForURL(new RegExp(`#/clusters/${ids.clusterA}`));

    // Add on the cluster: its dialog opened by the link, the same frame (search, role, Add).
    const clusterAdd = new AddClusterUserDialog(page);
    await clusterAdd.root().waitFor();
    expect(await clusterAdd.role().textContent()).toBe('User');
    await clusterAdd.pickUser('kenji', 'Kenji Tanaka');
    await clusterAdd.submit();
    await form.notice('Kenji Tanaka added').waitFor();
    const clusterCard = new MembersCard(page, 'cluster-users-card');
    await clusterCard.row('Kenji Tanaka').waitFor();

    // Edit on the cluster: role, and the parent BU a cluster membership holds.
    await clusterCard.row('Kenji Tanaka').getByRole('button', { name: 'Change role' }).click();
    const clusterEdit = page.getByRole('dialog', { name: 'Edit Kenji Tanaka' });
    await clusterEdit.getByRole('combobox', { name: /Parent Business Unit/ }).waitFor();
    await page.keyboard.press('Escape');
    await clusterEdit.waitFor({ state: 'hidden' });
    await clusterCard.changeRole('Kenji Tanaka', 'Admin');
    await form.notice('Membership of Kenji Tanaka updated').waitFor();
    await expect.poll(async () => (await clusterCard.cell('Kenji Tanaka', 'Role')).textContent()).toBe('Admin');

    // Add on the unit: now the cluster's user is offered, through the same frame.
    await page.goto(`${baseUrl}/#/business-units/${ids.bu1}`);
    await unitCard.addButton().click();
    await expect.poll(() => unitAdd.options().allTextContents()).toEqual([expect.stringContaining('Kenji Tanaka')]);
    await unitAdd.root().getByText(`Only users of ${a.name} can join this business unit.`).waitFor();
    await unitAdd.options().first().click();
    await unitAdd.root().getByTestId('add-bu-user-submit').click();
    await form.notice('Kenji Tanaka added').waitFor();
    await unitCard.row('Kenji Tanaka').waitFor();

    // Edit on the unit: the same edit dialog, with the membership's status in place of the parent BU.
    await unitCard.row('Kenji Tanaka').getByRole('button', { name: 'Change role' }).click();
    const unitEdit = page.getByRole('dialog', { name: 'Edit Kenji Tanaka' });
    await unitEdit.getByLabel('Membership active').waitFor();
    expect(await unitEdit.getByRole('combobox', { name: /Parent Business Unit/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await unitEdit.waitFor({ state: 'hidden' });
    await unitCard.changeRole('Kenji Tanaka', 'Admin');
    await form.notice('Membership of Kenji Tanaka updated').waitFor();
    await expect.poll(async () => (await unitCard.cell('Kenji Tanaka', 'Role')).textContent()).toBe('Admin');
    await session.screenshot('shared-dialog-unit-edited');
  });
});
