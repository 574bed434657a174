import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { apiOk, apiSignIn } from './support/api.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { AddClusterUserDialog, ClusterEditPage } from './pages/ClusterEditPage.js';
import { AddBusinessUnitUserDialog, MembersCard } from './pages/MembersCards.js';
import { MemberImportPage } from './pages/MemberImportPage.js';

describe('cluster members', () => {
  const session = useBrowserSession();

  it('adds a user to the cluster from the global search, then removes them after a yes/no confirmation', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const code = uniqueCode('E2E-MEM');
    const clusterId = await new ClusterCreatePage(page, baseUrl).create({ code, name: `Members ${code}` });
    const cluster = new ClusterEditPage(page, baseUrl);
    await cluster.waitLoaded();
    await cluster.noMembers().waitFor();

    const api = new ApiRecorder(page);
    const dialog = await cluster.openAddUser();
    expect(await dialog.role().textContent()).toBe('User');
    await dialog.pickUser('kenji', 'Kenji Tanaka');
    await session.screenshot('member-add-dialog');
    await dialog.submit();

    const row = cluster.memberRow('Kenji Tanaka');
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('kenji@example.com');
    expect(api.recorded({ method: 'POST', path: /^\/api-system\/user\/clusters$/ })).toHaveLength(1);
    await session.screenshot('member-added');

    // A member is not offered again by the add dialog's search.
    const again = await cluster.openAddUser();
    await again.search().fill('kenji');
    await again.root().getByText('No users found').waitFor();
    await again.root().getByRole('button', { name: 'Cancel' }).click();
    await again.root().waitFor({ state: 'hidden' });

    await cluster.removeMember('Kenji Tanaka');
    await cluster.noMembers().waitFor();
    expect(api.recorded({ method: 'DELETE', path: /^\/api-system\/user\/clusters\/[^/]+$/ })).toHaveLength(1);

    // Gone on the server too.
    await cluster.open(clusterId);
    await cluster.noMembers().waitFor();
    await session.screenshot('member-removed');
  });
});

describe('business unit members come from the cluster', () => {
  const session = useBrowserSession();
  const code = uniqueCode('E2E-BUM');
  const ids = { cluster: '', bu: '' };

  beforeAll(async () => {
    const baseUrl = inject('baseUrl');
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    ids.cluster = (
      await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/clusters', { code, name: `No users ${code}` })
    ).id;
    ids.bu = (
      await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/business-units', {
        cluster_id: ids.cluster,
        code: `${code}-B`,
        name: `Unit ${code}`,
      })
    ).id;
  });

  it('a unit of a cluster with no users says so and links to adding one there; the role shows and changes on the cluster card; the import refuses a non-member', async () => {
    const { page, baseUrl } = session;
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/business-units/${ids.bu}`);
    const buCard = new MembersCard(page, 'bu-users-card');
    await buCard.empty().waitFor();
    await buCard.addButton().click();
    const add = new AddBusinessUnitUserDialog(page);
    await add.none().waitFor();
    expect(await add.none().getAttribute('data-reason')).toBe('cluster_has_no_users');
    expect(await add.none().textContent()).toContain(`No users ${code} has no users yet`);
    await add.root().getByText(`Only users of No users ${code} can join this business unit.`).waitFor();
    await session.screenshot('bu-add-user-cluster-has-no-users');

    // The link leads to the cluster, with its own Add user open: it searches every account.
    await add.addToClusterLink().click();
    await page.waitForURL(new RegExp(`#/clusters/${ids.cluster}`));
    const cluster = new AddClusterUserDialog(page);
    await cluster.root().waitFor();
    await cluster.pickUser('kenji', 'Kenji Tanaka');
    await cluster.submit();

    // The cluster's card names the role and changes it.
    const members = new MembersCard(page, 'cluster-users-card');
    await members.row('Kenji Tanaka').waitFor();
    expect(await members.headers().allTextContents()).toContain('Role');
    expect(await (await members.cell('Kenji Tanaka', 'Role')).textContent()).toBe('User');
    await members.changeRole('Kenji Tanaka', 'Admin');
    await expect.poll(async () => (await members.cell('Kenji Tanaka', 'Role')).textContent()).toBe('Admin');
    await session.screenshot('cluster-user-role-changed');

    // The unit's dialog now offers the cluster's user; the import applies the same rule to someone who is not one.
    await page.goto(`${baseUrl}/#/business-units/${ids.bu}`);
    await buCard.addButton().click();
    await expect.poll(() => add.options().allTextContents()).toEqual([expect.stringContaining('Kenji Tanaka')]);
    await page.keyboard.press('Escape');
    const screen = new MemberImportPage(page, baseUrl);
    await screen.open();
    await screen.check('members.csv', `user,business_unit\nkenji,${code}-B\nemma,${code}-B\n`);
    expect(await screen.summary('added').textContent()).toBe('1 added');
    expect(await screen.summary('refused').textContent()).toBe('1 refused');
    const refused = screen.rows().filter({ hasText: 'emma' });
    expect(await refused.textContent()).toContain('Not a user of the cluster');
    expect(await refused.textContent()).toContain(`add the row "emma,,${code}"`);
  });

  it('an edit of a membership someone else changed meanwhile says so instead of saving over it', async () => {
    const { page, baseUrl } = session;
    session.expectConsole(/Failed to load resource: the server responded with a status of 412/);
    session.expectConsole(/The resource was changed by someone else \(If-Match does not match the current ETag\)/);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const user = (await apiOk<{ data: Array<{ id: string }> }>(baseUrl, admin, 'GET', '/api-system/user?search=emma'))
      .data[0]!;
    const member = await apiOk<{ id: string }>(baseUrl, admin, 'POST', '/api-system/user/clusters', {
      user_id: user.id,
      cluster_id: ids.cluster,
    });
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/clusters/${ids.cluster}`);
    const members = new MembersCard(page, 'cluster-users-card');
    await members.row('Emma Brown').waitFor();
    // Someone else makes her an admin after the card was read.
    await apiOk(baseUrl, admin, 'PUT', `/api-system/user/clusters/${member.id}`, { role: 'admin' });
    await members.row('Emma Brown').getByRole('button', { name: 'Change role' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Emma Brown' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const stale = page.getByRole('dialog', { name: 'Changed by someone else' });
    await stale.waitFor();
    await session.screenshot('member-stale-edit');
    await stale.getByRole('button', { name: 'Show their version' }).click();
    await expect.poll(async () => (await members.cell('Emma Brown', 'Role')).textContent()).toBe('Admin');
  });

  it('a members card shows placeholder rows while it loads, and a failed load with a Retry that recovers', async () => {
    const { page, baseUrl } = session;
    session.expectConsole(/Failed to load resource: the server responded with a status of 503/);
    session.expectConsole(/The member list is resting/);
    await signInAs(page, baseUrl, ACCOUNTS.admin);
    const path = `**/api-system/user/clusters/${ids.cluster}`;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(path, async (route) => {
      await held;
      await route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: 'The member list is resting',
        }),
      });
    });
    await page.goto(`${baseUrl}/#/clusters/${ids.cluster}`);
    const members = new MembersCard(page, 'cluster-users-card');
    await members.loading().waitFor();
    release();
    await members.error().waitFor();
    await session.screenshot('members-card-error');
    await page.unroute(path);
    await members.error().getByRole('button', { name: 'Retry' }).click();
    // The card reads again: its members (a row with an email: neither the header nor a placeholder) or that it has
    // none, no longer the error. Which members it has depends on the flows before this one.
    await members.row('@').first().or(members.empty()).waitFor();
    expect(await members.error().count()).toBe(0);
  });
});
