// The second factor from the person's side: an authenticator app set up under My account and used at sign-in, a
// recovery code in its place, and a passkey on a virtual authenticator, after the password and without one.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { STEP_TIMEOUT_MS, useBrowserSession } from './support/session.js';
import { apiOk, apiSignIn } from './support/api.js';
import { createPerson, enrolTotp, type Person } from './support/people.js';
import { Authenticator } from '../support/totp.js';
import { ACCOUNTS, LoginPage } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';
import {
  RecoveryCodesView,
  SecondFactorStep,
  SecondFactorsCard,
  TotpSetup,
  addVirtualAuthenticator,
} from './pages/SecondFactorPages.js';

/** Signs in with the password only; resolves on the second step. */
async function passwordStep(page: Page, baseUrl: string, person: Person): Promise<SecondFactorStep> {
  const login = new LoginPage(page, baseUrl);
  await login.open();
  await login.username().fill(person.username);
  await login.password().fill(person.password);
  await login.signInButton().click();
  const step = new SecondFactorStep(page);
  await step.root().waitFor();
  return step;
}

async function openAccount(page: Page): Promise<SecondFactorsCard> {
  const shell = new AppShell(page);
  await shell.userMenu().click();
  await shell.menuItem('My account').click();
  const card = new SecondFactorsCard(page);
  await card.root().waitFor();
  return card;
}

async function signOut(page: Page): Promise<void> {
  const shell = new AppShell(page);
  await shell.userMenu().click();
  await shell.menuItem('Logout').click();
  await new LoginPage(page, '').username().waitFor();
}

/**
 * The machine is shared: a screen may take seconds to show what the server answered, and a code may wait for the next
 * 30-second step (the flows have three minutes each).
 */
const POLL = { timeout: STEP_TIMEOUT_MS };

describe('second factor', { timeout: 180_000 }, () => {
  const session = useBrowserSession();

  it('sets up an authenticator app under My account, shows the recovery codes once, and signs in with a code', async () => {
    const { page, baseUrl } = session;
    // The wrong code at the second step is refused on purpose.
    session.expectConsole(/Failed to load resource: the server responded with a status of 401/);
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const person = await createPerson(baseUrl, admin, 'e2e-totp');

    const login = new LoginPage(page, baseUrl);
    await login.open();
    await login.signIn(person.username, person.password);
    const card = await openAccount(page);
    await expect.poll(() => card.totpStatus().textContent(), POLL).toBe('Not set up.');
    await card.setUpTotp().click();
    const setup = new TotpSetup(card.totpDialog());
    await setup.qr().waitFor();
    // The QR code is an image of its own, never SVG markup in the page.
    expect(await setup.qr().getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
    expect(await card.totpDialog().locator('svg').count()).toBe(0);
    const app = new Authenticator(await setup.secret());
    await session.screenshot('second-factor-totp-setup');
    await setup.confirm(await app.nextCode());

    const recovery = new RecoveryCodesView(card.recoveryDialog());
    await recovery.root().waitFor();
    const codes = await recovery.texts();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
    expect(await recovery.continueButton().isDisabled()).toBe(true);
    await session.screenshot('second-factor-recovery-codes');
    await recovery.acknowledge().check();
    await recovery.continueButton().click();
    await card.recoveryDialog().waitFor({ state: 'hidden' });
    await expect.poll(() => card.totpStatus().textContent(), POLL).toMatch(/^Set up on .+ Last used: /);
    expect(await card.recoveryStatus().textContent()).toBe('10 of 10 left');

    // Shown once: the page read again says how many are left, never the codes.
    await page.reload();
    await card.root().waitFor();
    await expect.poll(() => card.recoveryStatus().textContent(), POLL).toBe('10 of 10 left');
    expect(await page.getByText(codes[0]!).count()).toBe(0);

    await signOut(page);
    const step = await passwordStep(page, baseUrl, person);
    await session.screenshot('second-factor-sign-in-step');
    await step.code().fill('000000');
    await step.verify().click();
    await step.error().waitFor();
    expect(await step.error().textContent()).toContain('The code is wrong or has been used.');
    await step.code().fill(await app.nextCode());
    await step.verify().click();
    await new AppShell(page).workspaceHeading().waitFor();
    expect(await new AppShell(page).identityName()).not.toBe('');
  });

  it('signs in with a recovery code, which then works no more', async () => {
    const { page, baseUrl } = session;
    const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const person = await createPerson(baseUrl, admin, 'e2e-recovery');
    const { recoveryCodes: codes } = await enrolTotp(
      baseUrl,
      await apiSignIn(baseUrl, person.username, person.password),
    );

    const step = await passwordStep(page, baseUrl, person);
    await step.useRecovery().click();
    await step.recoveryCode().fill(codes[3]!.toUpperCase());
    await step.verify().click();
    await new AppShell(page).workspaceHeading().waitFor();
    const card = await openAccount(page);
    await expect.poll(() => card.recoveryStatus().textContent(), POLL).toBe('9 of 10 left');

    // The code is used: a second sign-in with it is refused.
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: person.username, password: person.password }),
    });
    expect(res.status).toBe(202);
    const { second_factor_token } = (await res.json()) as { second_factor_token: string };
    const again = await fetch(`${baseUrl}/api/auth/second-factor`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ second_factor_token, method: 'recovery_code', code: codes[3] }),
    });
    expect(again.status).toBe(401);
  });

  it('adds a passkey on a virtual authenticator and signs in with it, after the password and without one', async () => {
    const { page } = session;
    // WebAuthn refuses an IP address as the relying party: the console is opened by name on the same server.
    const baseUrl = session.baseUrl.replace('127.0.0.1', 'localhost');
    const admin = await apiSignIn(session.baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const person = await createPerson(session.baseUrl, admin, 'e2e-passkey');
    const authenticator = await addVirtualAuthenticator(page);

    const login = new LoginPage(page, baseUrl);
    await login.open();
    await login.signIn(person.username, person.password);
    const card = await openAccount(page);
    await card.addPasskey().click();
    const dialog = card.passkeyDialog();
    await dialog.getByLabel(/^Name/).fill('Office laptop');
    await dialog.getByRole('button', { name: 'Create the passkey' }).click();
    // The first factor brings the recovery codes.
    const recovery = new RecoveryCodesView(card.recoveryDialog());
    await recovery.root().waitFor();
    expect(await recovery.codes().count()).toBe(10);
    await recovery.acknowledge().check();
    await recovery.continueButton().click();
    await expect.poll(() => card.passkeyRows().count(), POLL).toBe(1);
    expect(await card.passkeyRows().first().textContent()).toContain('Office laptop');
    expect(await authenticator.credentials()).toBe(1);
    await session.screenshot('second-factor-passkey-added');

    // After the password.
    await signOut(page);
    const step = await passwordStep(page, baseUrl, person);
    await step.usePasskey().click();
    await new AppShell(page).workspaceHeading().waitFor();

    // Without a username or password: the authenticator offers the passkey it keeps for this site.
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await new AppShell(page).workspaceHeading().waitFor();
    const again = await openAccount(page);
    await expect.poll(() => again.passkeyRows().first().textContent(), POLL).not.toContain('Never');

    // Signing out ended the browser's earlier sessions; the one open now was opened with the passkey alone.
    const sessions = await apiOk<{ data: Array<{ methods: string[] }> }>(
      session.baseUrl,
      admin,
      'GET',
      `/api-system/users/${person.id}/sessions`,
    );
    // Beside it, only the device the person changed the password on (through the API, with the password).
    expect(sessions.data.map((s) => s.methods.join('+')).sort()).toEqual(['passkey', 'password']);
  });
});
