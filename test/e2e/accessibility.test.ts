// Every screen of the console (the SSO, import, service-account and webhook pages too), checked by axe-core (WCAG 2.0/2.1 A and AA rules) in the light and the dark theme, at
// 1440, 1024 and 768 px (the narrow layout folds the side menu and the app bar): no serious or critical violation may
// remain. Moderate and minor findings are printed, not failed.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './support/session.js';
import { ACCOUNTS, LoginPage, signInAs } from './pages/LoginPage.js';
import { AppShell } from './pages/AppShell.js';
import { ForcedEnrolmentPage, SecondFactorStep, SecondFactorsCard, StepUpDialog } from './pages/SecondFactorPages.js';
import { apiOk, apiSignIn } from './support/api.js';
import { createPerson, enrolTotp } from './support/people.js';
import { storeInBrowser } from './support/browserStorage.js';

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** Runs axe on what the page shows now; returns the serious and critical violations, described for a failure message. */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  // Evaluated through the devtools protocol: the console's Content-Security-Policy rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // Only the violations are read: axe then skips collecting the nodes of every rule that passed.
      resultTypes: ['violations'],
    });
    return result.violations;
  });
  const found = violations as Violation[];
  const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = found.filter((v) => !serious.includes(v));
  if (minor.length) console.info(`${screen}: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
  return serious.map(
    (v) =>
      `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`)
        .join(' | ')}`,
  );
}

/** The ids the record screens need, read through the API with the signed-in admin's token. */
async function recordIds(
  page: Page,
): Promise<{ cluster: string; businessUnit: string; mapping: string; user: string }> {
  return page.evaluate(async () => {
    const storage = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
    const headers = { Authorization: `Bearer ${storage.getItem('auth.access_token')}` };
    const first = async (path: string) => {
      const body = (await (await fetch(path, { headers })).json()) as { data: Array<{ id: string }> };
      return body.data[0]!.id;
    };
    return {
      cluster: await first('/api-system/clusters?search=CL-A&perpage=1'),
      businessUnit: await first('/api-system/business-units?perpage=1'),
      mapping: await first('/api-system/print-template-mappings?perpage=1'),
      user: await first('/api-system/users?search=viewer&perpage=1'),
    };
  });
}

/**
 * Waits until the screen has finished loading: no progress indicator and no skeleton left, three readings in a row
 * (a record page loads its cards one after another, so a single empty reading can fall between two of them).
 */
async function settled(page: Page): Promise<void> {
  await page.locator('main, [role="main"], form').first().waitFor();
  const loading = () => page.locator('[role="progressbar"], .MuiSkeleton-root').count();
  let quiet = 0;
  await expect
    .poll(
      async () => {
        quiet = (await loading()) === 0 ? quiet + 1 : 0;
        return quiet;
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBeGreaterThanOrEqual(3);
}

const WIDTHS = [1440, 1024, 768] as const;

/** The theme the console opens in next (react-admin keeps it in the browser). */
const setConsoleTheme = (page: Page, theme: 'light' | 'dark') =>
  storeInBrowser(page, 'RaStore.theme', JSON.stringify(theme));

/**
 * Checks what the page shows at each width in turn: the layout follows a resize (the side menu folds below 900 px).
 * `ready` says when the screen is there to check (by default, once nothing loads any more).
 */
async function checkAtEveryWidth(
  page: Page,
  screen: string,
  theme: string,
  problems: string[],
  ready: () => Promise<void> = () => settled(page),
): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await ready();
    problems.push(...(await seriousViolations(page, `${screen} (${theme}, ${width} px)`)));
  }
}

describe('accessibility', () => {
  const session = useBrowserSession();

  // Each screen is opened once per theme and checked at every width there, instead of once per width: the widths
  // are what the layout answers to, and opening 23 screens six times was most of this file's time.
  it.each(['light', 'dark'] as const)(
    `finds no serious axe violation on any screen in the %s theme at ${WIDTHS.join(', ')} px`,
    async (theme) => {
      const { page, baseUrl } = session;
      const problems: string[] = [];
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });

      const login = new LoginPage(page, baseUrl);
      await login.open();
      await setConsoleTheme(page, theme);
      await page.reload();
      await login.username().waitFor();
      await checkAtEveryWidth(page, 'login', theme, problems);

      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await signInAs(page, baseUrl, ACCOUNTS.admin);
      const ids = await recordIds(page);
      const screens: Array<[name: string, hash: string]> = [
        ['workspace', '/'],
        ['clusters list', '/clusters'],
        ['cluster read view', `/clusters/${ids.cluster}`],
        ['cluster edit', `/clusters/${ids.cluster}/edit`],
        ['cluster create', '/clusters/create'],
        ['business units list', '/business-units'],
        ['business unit read view', `/business-units/${ids.businessUnit}`],
        ['business unit edit', `/business-units/${ids.businessUnit}/edit`],
        ['business unit create', '/business-units/create'],
        ['print mappings list', '/print-template-mappings'],
        ['print mapping read view', `/print-template-mappings/${ids.mapping}/show`],
        ['print mapping edit', `/print-template-mappings/${ids.mapping}`],
        ['print mapping create', '/print-template-mappings/create'],
        ['main dashboard', '/dashboards/main'],
        ['purchase requests dashboard', '/dashboards/pr'],
        ['inventory dashboard', '/dashboards/inventory'],
        ['users list', '/users'],
        ['user read view', `/users/${ids.user}`],
        ['user edit', `/users/${ids.user}/edit`],
        ['user create', '/users/create'],
        ['audit log', '/audit-log'],
        ['membership import', '/memberships/import'],
        ['SSO group mappings', '/sso/group-mappings'],
        ['service accounts', '/service-accounts'],
        ['webhooks', '/webhooks'],
        // With the second-factor card; the user read view above has the sessions and second-factor cards.
        ['my account', '/account'],
        ['security', '/security'],
        ['not found', '/no-such-screen'],
      ];

      for (const [name, hash] of screens) {
        await page.goto(`${baseUrl}/#${hash}`);
        await checkAtEveryWidth(page, name, theme, problems);
      }
      expect(problems, problems.join('\n')).toEqual([]);
    },
    600_000,
  );

  // The second factor's screens, which only an account in that state sees: "Confirm it is you" over My account, the
  // sign-in's second step, and the enrolment an account must go through after an administrator reset its factors.
  it.each(['light', 'dark'] as const)(
    `finds no serious axe violation on the second factor's screens in the %s theme at ${WIDTHS.join(', ')} px`,
    async (theme) => {
      const { page, baseUrl } = session;
      // New recovery codes are refused until the step-up, on purpose.
      session.expectConsole(/Failed to load resource: the server responded with a status of 403/);
      const problems: string[] = [];
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      const admin = await apiSignIn(baseUrl, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
      const person = await createPerson(baseUrl, admin, `e2e-a11y-${theme}`);
      const login = new LoginPage(page, baseUrl);
      // The login page of a browser that holds nothing but the theme.
      const freshLoginPage = async () => {
        if (!page.url().startsWith(baseUrl)) await login.open();
        await page.evaluate(() => (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear());
        await setConsoleTheme(page, theme);
        // Read anew: a second step still on screen is the login page's own state, which only a reload forgets.
        await page.goto(`${baseUrl}/#/login`);
        await page.reload();
        await login.username().waitFor();
      };
      const passwordStep = async () => {
        await freshLoginPage();
        await login.username().fill(person.username);
        await login.password().fill(person.password);
        await login.signInButton().click();
      };

      // Signed in with the password alone, then an authenticator set up elsewhere: the next sensitive action asks.
      await passwordStep();
      await new AppShell(page).workspaceHeading().waitFor();
      await enrolTotp(baseUrl, await apiSignIn(baseUrl, person.username, person.password));
      await page.goto(`${baseUrl}/#/account`);
      const card = new SecondFactorsCard(page);
      await card.root().getByRole('button', { name: 'New codes' }).click();
      await page
        .getByRole('dialog', { name: 'Make new recovery codes?' })
        .getByRole('button', { name: 'Confirm' })
        .click();
      // The request it stands for waits behind it, so the page keeps its progress indicator: the dialog is the screen.
      const stepUp = new StepUpDialog(page);
      await checkAtEveryWidth(page, 'step-up dialog', theme, problems, () => stepUp.code().waitFor());

      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await passwordStep();
      const step = new SecondFactorStep(page);
      await step.root().waitFor();
      await checkAtEveryWidth(page, 'second step of sign-in', theme, problems);

      // The administrator resets the person's factors (which ends their sessions): at the next sign-in the person
      // sees the enrolment, and nothing else.
      await apiOk(baseUrl, admin, 'DELETE', `/api-system/users/${person.id}/second-factors`);
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await passwordStep();
      await new ForcedEnrolmentPage(page).heading().waitFor();
      await checkAtEveryWidth(page, 'forced enrolment', theme, problems);
      expect(problems, problems.join('\n')).toEqual([]);
    },
    300_000,
  );
});
