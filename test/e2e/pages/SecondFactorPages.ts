import type { Locator, Page } from 'playwright-core';

/** The login page's second step, after a right password. */
export class SecondFactorStep {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('second-factor-step');
  readonly code = () => this.root().getByLabel('Code from your authenticator app');
  readonly recoveryCode = () => this.root().getByLabel('Recovery code');
  readonly useRecovery = () => this.root().getByRole('button', { name: 'Use a recovery code instead' });
  readonly usePasskey = () => this.root().getByRole('button', { name: 'Use a passkey' });
  readonly verify = () => this.root().getByRole('button', { name: 'Verify' });
  readonly error = () => this.page.getByTestId('second-factor-error');
}

/** Where a setup shows the key, the first code and its confirmation (My account's dialog or the forced screen). */
export class TotpSetup {
  constructor(private readonly scope: Locator) {}

  readonly root = () => this.scope.getByTestId('totp-setup');
  readonly qr = () => this.root().getByRole('img', { name: 'QR code of the key for your authenticator app' });
  /** The key as the app would take it (without the spaces it is shown with). */
  async secret(): Promise<string> {
    return (await this.root().getByTestId('totp-secret').getAttribute('data-secret')) ?? '';
  }
  async confirm(code: string): Promise<void> {
    await this.root().getByLabel('First code from the app').fill(code);
    await this.root().getByRole('button', { name: 'Confirm' }).click();
  }
}

/** The ten recovery codes, shown once, with the acknowledgement before going on. */
export class RecoveryCodesView {
  constructor(private readonly scope: Locator) {}

  readonly root = () => this.scope.getByTestId('recovery-codes');
  readonly codes = () => this.root().getByTestId('recovery-code');
  readonly acknowledge = () => this.root().getByLabel('I have saved these codes somewhere safe');
  readonly continueButton = () => this.root().getByRole('button', { name: 'Continue' });

  async texts(): Promise<string[]> {
    return (await this.codes().allTextContents()).map((t) => t.trim());
  }
}

/** My account's Second factors card. */
export class SecondFactorsCard {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('second-factors-card');
  readonly totpStatus = () => this.root().getByTestId('totp-section-status');
  readonly recoveryStatus = () => this.root().getByTestId('recovery-section-status');
  readonly setUpTotp = () => this.root().getByTestId('totp-section').getByRole('button', { name: 'Set up' });
  readonly addPasskey = () => this.root().getByRole('button', { name: 'Add a passkey' });
  readonly passkeyRows = () => this.root().getByTestId('passkey-row');
  readonly totpDialog = () => this.page.getByRole('dialog', { name: 'Set up an authenticator app' });
  readonly passkeyDialog = () => this.page.getByRole('dialog', { name: 'Add a passkey' });
  readonly recoveryDialog = () => this.page.getByRole('dialog', { name: 'Recovery codes' });
}

/** "Confirm it is you", asked in place before a sensitive action. */
export class StepUpDialog {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByRole('dialog', { name: 'Confirm it is you' });
  readonly code = () => this.root().getByLabel('Code from your authenticator app');
  readonly confirm = () => this.root().getByRole('button', { name: 'Confirm' });
}

/** The only screen of an account that must set up a second factor. */
export class ForcedEnrolmentPage {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('forced-enrolment');
  readonly heading = () => this.root().getByRole('heading', { name: 'Set up a second factor' });
  readonly totp = () => new TotpSetup(this.root());
  readonly recovery = () => new RecoveryCodesView(this.root());
}

/** The Sessions card of a user's page. */
export class UserSessionsCard {
  constructor(private readonly page: Page) {}

  readonly root = () => this.page.getByTestId('user-sessions');
  readonly rows = () => this.root().getByTestId('user-session-row');
  readonly endAll = () => this.root().getByRole('button', { name: 'End all sessions' });
  readonly empty = () => this.root().getByTestId('user-sessions-empty');
}

/**
 * A virtual authenticator in the page's browser, through the DevTools protocol: a platform authenticator with
 * user verification that keeps discoverable credentials, so a passkey can sign in without a username.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ credentials: () => Promise<number> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
  };
}
