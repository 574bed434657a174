import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { apiOk, apiSignIn } from './support/api.js';
import { IDP_ACCOUNTS, SSO_PROVIDERS } from './support/idp.js';
import { ACCOUNTS, LoginPage } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';
import { ListPage } from './pages/ListPage.js';
import { IdentityProviderPages } from './pages/IdentityProviderPages.js';
import { SecondFactorStep } from './pages/SecondFactorPages.js';
import { Authenticator } from '../support/totp.js';

interface Page<T> {
  data: T[];
}

describe('single sign-on', () => {
  const session = useBrowserSession();

  it(
    'signs a new operator in at the provider with the grants of its group, and signs out at the provider too',
    { timeout: 120_000 },
    async () => {
      const { page, baseUrl } = session;
      // The administrator maps the operator's group to reading CL-A, before the operator's first sign-in.
      const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
      const [clusterA] = (
        await apiOk<Page<{ id: string; code: string }>>(
          baseUrl,
          admin,
          'GET',
          '/api-system/clusters?search=CL-A&perpage=5',
        )
      ).data.filter((c) => c.code === 'CL-A');
      expect(clusterA).toBeDefined();
      const mappings = await apiOk<
        Page<{ provider: string; group: string; permission_key: string; cluster_id: string | null }>
      >(baseUrl, admin, 'GET', '/api-system/sso/group-mappings');
      const mapped = mappings.data.some(
        (m) =>
          m.provider === SSO_PROVIDERS.testIdp.id && m.group === 'hotel-operators' && m.cluster_id === clusterA!.id,
      );
      // The flow may run again against a running console (E2E_BASE_URL): the mapping is then there already.
      if (!mapped) {
        await apiOk(baseUrl, admin, 'POST', '/api-system/sso/group-mappings', {
          provider: SSO_PROVIDERS.testIdp.id,
          group: 'hotel-operators',
          permission_key: 'cluster.read',
          cluster_id: clusterA!.id,
        });
      }

      // The login page offers the provider; its button leaves the console for the provider's sign-in form.
      const login = new LoginPage(page, baseUrl);
      await login.open();
      await login.ssoButton(SSO_PROVIDERS.testIdp.display_name).click();
      const idp = new IdentityProviderPages(page, baseUrl);
      await idp.waitForSignIn();
      await session.screenshot('sso-provider-sign-in');
      await idp.signIn('sso-operator');

      // Back in the console, signed in as the account the sign-in created, on the workspace.
      const shell = new AppShell(page);
      await shell.workspaceHeading().waitFor();
      expect(await shell.identityName()).toContain(
        `${IDP_ACCOUNTS['sso-operator'].given_name} ${IDP_ACCOUNTS['sso-operator'].family_name}`,
      );
      // The one-time code has left the address.
      expect(page.url()).not.toContain('sso_code');

      // The group's grant: CL-A is readable, CL-B is not.
      const clusters = new ListPage(page, baseUrl, 'clusters');
      await clusters.open();
      await clusters.rowWith('CL-A').waitFor();
      expect(await clusters.rowWith('CL-B').count()).toBe(0);
      await session.screenshot('sso-signed-in-clusters');

      // Signing out ends the provider's session too: its confirmation, then the console's login page.
      await shell.userMenu().click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await idp.confirmSignOut().waitFor();
      expect(page.url().startsWith(baseUrl)).toBe(false);
      await idp.confirmEndSession();
      await login.username().waitFor();
      expect(page.url()).toContain('#/login');
      expect(
        await page.evaluate(() =>
          (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
            'auth.access_token',
          ),
        ),
      ).toBeNull();

      // The administrator's audit log has the sign-in: the account it created, and the sign-in with its provider.
      const created = await apiOk<Page<{ changes: Record<string, { after: unknown }> | null }>>(
        baseUrl,
        admin,
        'GET',
        '/api-system/audit-events?action=completeSsoSignIn&perpage=50',
      );
      expect(created.data.some((e) => e.changes?.email?.after === IDP_ACCOUNTS['sso-operator'].email)).toBe(true);
      const signIns = await apiOk<Page<{ changes: Record<string, { after: unknown }> | null }>>(
        baseUrl,
        admin,
        'GET',
        '/api-system/audit-events?action=login&perpage=50',
      );
      expect(signIns.data.some((e) => e.changes?.provider?.after === SSO_PROVIDERS.testIdp.id)).toBe(true);
    },
  );

  it(
    'asks a single sign-on for the authenticator code when the policy says so, then opens the console',
    { timeout: 150_000 },
    async () => {
      const { page, baseUrl } = session;
      const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
      const login = new LoginPage(page, baseUrl);
      const idp = new IdentityProviderPages(page, baseUrl);
      const shell = new AppShell(page);
      const signInAtProvider = async () => {
        await login.open();
        await login.ssoButton(SSO_PROVIDERS.testIdp.display_name).click();
        await idp.waitForSignIn();
        await idp.signIn('sso-second-factor');
      };

      // A first sign-in (the provider is trusted), then an authenticator app set up for the account it opened.
      await signInAtProvider();
      await shell.workspaceHeading().waitFor();
      const accessToken = await page.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
          'auth.access_token',
        ),
      );
      const own = { accessToken: accessToken!, refreshToken: '' };
      const { secret } = await apiOk<{ secret: string }>(baseUrl, own, 'POST', '/api-system/me/second-factors/totp');
      const app = new Authenticator(secret);
      await apiOk(baseUrl, own, 'POST', '/api-system/me/second-factors/totp/confirm', { code: await app.nextCode() });
      await shell.userMenu().click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await idp.confirmSignOut().waitFor();
      await idp.confirmEndSession();
      await login.username().waitFor();

      await apiOk(baseUrl, admin, 'PUT', '/api-system/second-factor-policy', {
        required_for: 'none',
        sso_sign_ins: 'second-factor',
      });
      try {
        await signInAtProvider();
        const step = new SecondFactorStep(page);
        await step.root().waitFor();
        expect(await step.root().textContent()).toContain('Your organisation signed you in.');
        // The password form is gone: this step is all that is left of this sign-in.
        expect(await login.username().count()).toBe(0);
        await session.screenshot('sso-second-factor-step');
        await step.code().fill(await app.nextCode());
        await step.verify().click();
        await shell.workspaceHeading().waitFor();
        expect(await shell.identityName()).toContain('Kanya Twostep');
        expect(page.url()).not.toContain('sso_code');
      } finally {
        await apiOk(baseUrl, admin, 'PUT', '/api-system/second-factor-policy', {
          required_for: 'none',
          sso_sign_ins: 'trusted',
        });
      }
    },
  );

  it('says in words that a provider cannot be reached, and keeps the password form', async () => {
    const { page, baseUrl } = session;
    const login = new LoginPage(page, baseUrl);
    await login.open();
    await login.ssoButton(SSO_PROVIDERS.down.display_name).click();
    await login.ssoError().waitFor();
    expect(await login.ssoError().textContent()).toBe(
      'The identity provider cannot be reached right now. Try again in a moment, or sign in with your password.',
    );
    expect(page.url()).toContain('#/login?sso_error=provider_unavailable');
    await login.username().waitFor();
    await session.screenshot('sso-provider-unavailable');
  });
});
