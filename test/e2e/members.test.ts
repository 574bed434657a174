import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { uniqueCode } from './support/data.js';
import { ApiRecorder } from './support/network.js';
import { ACCOUNTS, signInAs } from './pages/LoginPage.js';
import { ClusterCreatePage } from './pages/ClusterCreatePage.js';
import { ClusterEditPage } from './pages/ClusterEditPage.js';

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
