// The second factor from an administrator's side: a sensitive action asks "Confirm it is you" in place and then
// completes; the policy leads a super admin to enrolment before anything else; another person's session is ended from
// their page.
import { describe, expect, it } from 'vitest';
import { STEP_TIMEOUT_MS, useBrowserSession } from './support/session.js';
import { apiCall, apiOk, apiSignIn } from './support/api.js';
import { createPerson, enrolTotp } from './support/people.js';
import { Authenticator } from '../support/totp.js';
import { ACCOUNTS, LoginPage, signInAs } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';
import { UserViewPage } from './pages/UserPages.js';
import { ForcedEnrolmentPage, StepUpDialog, UserSessionsCard } from './pages/SecondFactorPages.js';

/**
 * The machine is shared: a screen may take seconds to show what the server answered, and a code may wait for the next
 * 30-second step (the flows have three minutes each).
 */
const POLL = { timeout: STEP_TIMEOUT_MS };

describe('second factor for administrators', { timeout: 180_000 }, () => {
  const session = useBrowserSession();

  it('asks to confirm it is you in place when resetting a password, then completes the reset', async () => {
    const { page, baseUrl } = session;
    // The first reset is refused until the step-up, on purpose.
    session.expectConsole(/Failed to load resource: the server responded with a status of 403/);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const manager = await createPerson(baseUrl, admin, 'e2e-stepup', ['user.read', 'user.manage']);
    const target = await createPerson(baseUrl, admin, 'e2e-target');

    // The console's session is opened with the password alone; the authenticator is set up elsewhere afterwards, so
    // this session has never used a second factor and the next sensitive action must ask for one.
    const login = new LoginPage(page, baseUrl);
    await login.open();
    await login.signIn(manager.username, manager.password);
    await new AppShell(page).workspaceHeading().waitFor();
    const { app } = await enrolTotp(baseUrl, await apiSignIn(baseUrl, manager.username, manager.password));

    await page.goto(`${baseUrl}/#/users/${target.id}`);
    const view = new UserViewPage(page);
    await view.waitLoaded();
    await view.accountCard().getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByTestId('reset-password-dialog');
    await reset.getByTestId('reset-password-input').fill('Chiang-Mai-Lantern-44');
    await reset.getByTestId('reset-password-submit').click();

    const stepUp = new StepUpDialog(page);
    await stepUp.root().waitFor();
    // What was typed is still there behind the dialog.
    expect(await reset.getByTestId('reset-password-input').inputValue()).toBe('Chiang-Mai-Lantern-44');
    await session.screenshot('second-factor-step-up');
    await stepUp.code().fill(await app.nextCode());
    await stepUp.confirm().click();
    await page.getByText(`Password of ${target.username} reset`).waitFor();
    await stepUp.root().waitFor({ state: 'hidden' });
    await reset.waitFor({ state: 'hidden' });

    // The server took the new password: the person signs in with it (and must change it).
    const signedIn = await apiSignIn(baseUrl, target.username, 'Chiang-Mai-Lantern-44');
    const perms = await apiOk<{ must_change_password: boolean }>(
      baseUrl,
      signedIn,
      'GET',
      '/api/user/permission/platform',
    );
    expect(perms.must_change_password).toBe(true);
  });

  it('ends one session of another person from their page, then all of them', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const person = await createPerson(baseUrl, admin, 'e2e-sessions');
    const laptop = await apiSignIn(baseUrl, person.username, person.password);
    const phone = await apiSignIn(baseUrl, person.username, person.password);

    await signInAs(page, baseUrl, ACCOUNTS.admin);
    await page.goto(`${baseUrl}/#/users/${person.id}`);
    const view = new UserViewPage(page);
    await view.waitLoaded();
    const card = new UserSessionsCard(page);
    // The device the person changed the password on, and the two above.
    await expect.poll(() => card.rows().count(), POLL).toBe(3);
    const before = 3;
    expect(await card.rows().first().textContent()).toContain('Password');
    await session.screenshot('second-factor-user-sessions');

    await card
      .rows()
      .first()
      .getByRole('button', { name: /^End the session of / })
      .click();
    await page
      .getByRole('dialog', { name: `End this session of ${person.username}?` })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.getByText(new RegExp(`^The session of ${person.username} on .+ was ended$`)).waitFor();
    await expect.poll(() => card.rows().count(), POLL).toBe(before - 1);
    // Exactly one of the three devices is signed out; which one depends on the order of equal times.
    const statuses = await Promise.all(
      [person.session, laptop, phone].map(
        async (s) => (await apiCall(baseUrl, s, 'GET', '/api/user/permission/platform')).status,
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);

    await card.endAll().click();
    await page
      .getByRole('dialog', { name: `End every session of ${person.username}?` })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await card.empty().waitFor();
    for (const device of [person.session, laptop, phone])
      expect((await apiCall(baseUrl, device, 'GET', '/api/user/permission/platform')).status).toBe(401);
  });

  it('leads a super admin to set up a second factor when the policy asks it, and nothing else opens until done', async () => {
    const { page, baseUrl } = session;
    // The screens the console opens before it learns the account must enrol are refused meanwhile.
    session.expectConsole(/Failed to load resource: the server responded with a status of 403/);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await apiOk(baseUrl, admin, 'PUT', '/api-system/second-factor-policy', {
      required_for: 'privileged',
      sso_sign_ins: 'trusted',
    });
    let app: Authenticator | null = null;
    try {
      const login = new LoginPage(page, baseUrl);
      await login.open();
      await login.signIn(ACCOUNTS.admin.username, ACCOUNTS.admin.password);
      const forced = new ForcedEnrolmentPage(page);
      await forced.heading().waitFor();
      expect(await page.locator('.RaUserMenu-userButton').count()).toBe(0);
      // Another address shows the same screen.
      await page.goto(`${baseUrl}/#/users`);
      await forced.heading().waitFor();
      expect(await page.getByRole('heading', { name: 'Users' }).count()).toBe(0);
      await session.screenshot('second-factor-forced-enrolment');

      const setup = forced.totp();
      await setup.qr().waitFor();
      app = new Authenticator(await setup.secret());
      await setup.confirm(await app.nextCode());
      const recovery = forced.recovery();
      await recovery.root().waitFor();
      expect(await recovery.codes().count()).toBe(10);
      await recovery.acknowledge().check();
      await recovery.continueButton().click();
      const shell = new AppShell(page);
      await shell.workspaceHeading().waitFor();
      expect(await shell.identityName()).not.toBe('');
      expect(await forced.root().count()).toBe(0);
    } finally {
      // The demo's admin is every other flow's: the policy goes back to none and its authenticator is removed. Had the
      // flow stopped before the admin enrolled, the admin enrols here first (the policy allows nothing else).
      app ??= (await enrolTotp(baseUrl, admin)).app;
      await apiOk(baseUrl, admin, 'POST', '/api-system/me/step-up', { method: 'totp', code: await app.nextCode() });
      await apiOk(baseUrl, admin, 'PUT', '/api-system/second-factor-policy', {
        required_for: 'none',
        sso_sign_ins: 'trusted',
      });
      await apiOk(baseUrl, admin, 'DELETE', '/api-system/me/second-factors/totp');
    }
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ACCOUNTS.admin),
    });
    expect(res.status).toBe(200);
  });
});
