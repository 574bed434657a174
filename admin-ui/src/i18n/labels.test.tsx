import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import {
  AdminContext,
  ResourceContextProvider,
  ResourceDefinitionContextProvider,
  testDataProvider,
  type AuthProvider,
} from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { messages } from './thai';
import type { Messages } from '../lib/messages';
import { RESOURCES } from '../resources/registry';
import { DOMAIN_DASHBOARDS } from '../domain-dashboards/domains';
import { AppMenu } from '../layout/AppMenu';
import { ClusterList } from '../resources/clusters/ClusterList';
import { BusinessUnitList } from '../resources/business-units/BusinessUnitList';
import { PrintTemplateMappingList } from '../resources/print-template-mappings/PrintTemplateMappingList';
import { DomainDashboardPage } from '../domain-dashboards/DomainDashboardPage';
import { UserList } from '../resources/users/UserList';
import { AuditLog } from '../audit-log/AuditLogPage';
import { MemberImport } from '../member-import/MemberImportPage';
import { SsoGroupMappings } from '../sso/SsoGroupMappingsPage';
import { Webhooks } from '../resources/webhooks/WebhooksPage';
import { createQueryClient } from '../dataProvider/queryClient';

vi.mock('@mui/x-charts/BarChart', () => ({ BarChart: () => <div /> }));
vi.mock('@mui/x-charts/PieChart', () => ({ PieChart: () => <div /> }));

const LOCALES = ['en', 'th'] as const;

const lookup = (tree: Messages, key: string): string => {
  const v = key
    .split('.')
    .reduce<unknown>((n, p) => (n && typeof n === 'object' ? (n as Messages)[p] : undefined), tree);
  if (typeof v !== 'string') throw new Error(`no message ${key}`);
  return v;
};
/** The plural form of a `singular |||| plural` message (a language without plurals has one form). */
const plural = (message: string) => (message.split('||||')[1] ?? message).trim();
function leaves(tree: Messages, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`),
  );
}

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

/** Renders a page with react-admin's title slot, and the menu, in a locale; returns the title and the menu items. */
async function titleAndMenu(locale: 'en' | 'th', path: string, page: React.ReactNode, resource?: string) {
  const i18nProvider = polyglotI18nProvider(
    () => ({ ...englishMessages, ...messages[locale] }),
    locale,
    [{ locale, name: locale }],
    { allowMissing: true },
  );
  const definitions = Object.fromEntries(RESOURCES.map((r) => [r.name, { name: r.name, hasList: true, icon: r.icon }]));
  const dataProvider = testDataProvider({
    getList: async () => ({ data: [], total: 0 }),
    getDocumentTypes: async () => [],
    getMyPendingCount: async () => ({ pending: 0 }),
    getApprovalSummary: async () => ({ groups: [] }),
    getPendingApprovals: async () => ({ groups: [] }),
    listAuditEvents: async () => ({ data: [], paginate: { total: 0, page: 1, perpage: 25, pages: 1 } }),
    listSsoProviders: async () => [],
    listSsoGroupMappings: async () => [],
    listWebhooks: async () => [],
  });
  const element = (
    <AdminContext
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      <ResourceDefinitionContextProvider definitions={definitions}>
        <div id="react-admin-title" data-testid="page-title" />
        <AppMenu />
        {resource ? <ResourceContextProvider value={resource}>{page}</ResourceContextProvider> : page}
      </ResourceDefinitionContextProvider>
    </AdminContext>
  );
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  await waitFor(() => expect(screen.getByTestId('page-title').textContent).not.toBe(''));
  // The workspace, the resources (once their access is known), the audit log, the member import, single sign-on,
  // service accounts, webhooks, the super admin's Security page, the dashboards' toggle and the six domain dashboards.
  await waitFor(() =>
    expect(screen.getAllByRole('menuitem')).toHaveLength(
      1 + RESOURCES.length + 1 + 1 + 1 + 1 + 1 + 1 + 1 + DOMAIN_DASHBOARDS.length,
    ),
  );
  const title = screen.getByTestId('page-title').textContent ?? '';
  const menu = screen.getAllByRole('menuitem').map((m) => m.textContent ?? '');
  view.unmount();
  return { title, menu };
}

beforeEach(() => localStorage.clear());

describe('one label per concept', { timeout: 60_000 }, () => {
  it('names each resource the same in its menu entry and its list page title (the tables)', () => {
    for (const locale of LOCALES) {
      const tree = messages[locale]!;
      for (const r of RESOURCES) {
        const menu = plural(lookup(tree, r.menuLabel));
        // react-admin's list title is its `ra.page.list` message around the same resource name.
        expect(lookup(tree, 'ra.page.list').replace('%{name}', menu), `${locale} ${r.name}`).toBe(menu);
      }
      // The domain dashboards have one label each, used by the menu and by the page; no second table of titles.
      for (const d of DOMAIN_DASHBOARDS) expect(lookup(tree, `app.menu.domains.${d}`)).toBeTruthy();
      expect(() => lookup(tree, 'domain_dashboards.titles.main')).toThrow();
    }
  });

  for (const locale of LOCALES) {
    it(`shows the menu label as the page title of every list and domain dashboard (${locale})`, async () => {
      const pages: [string, React.ReactNode, string?][] = [
        ['/clusters', <ClusterList key="c" />, 'clusters'],
        ['/business-units', <BusinessUnitList key="b" />, 'business-units'],
        ['/print-template-mappings', <PrintTemplateMappingList key="m" />, 'print-template-mappings'],
        ['/users', <UserList key="u" />, 'users'],
        ['/audit-log', <AuditLog key="a" />],
        ['/memberships/import', <MemberImport key="i" />],
        ['/sso/group-mappings', <SsoGroupMappings key="s" />],
        ['/webhooks', <Webhooks key="w" />],
        ...DOMAIN_DASHBOARDS.map((d): [string, React.ReactNode] => [
          `/dashboards/${d}`,
          <DomainDashboardPage key={d} domain={d} />,
        ]),
      ];
      for (const [path, page, resource] of pages) {
        const { title, menu } = await titleAndMenu(locale, path, page, resource);
        expect(menu, `${locale} ${path}: "${title}" is not a menu label`).toContain(title);
      }
    });
  }

  it("names business units and the Good Received Note in the product's wording", () => {
    const en = messages.en!;
    expect(plural(lookup(en, 'resources.business-units.name'))).toBe('Business units');
    expect(lookup(en, 'resources.clusters.cards.business_units')).toBe('Business units');
    expect(lookup(en, 'resources.print-template-mappings.document_types.GRN')).toBe('Good Received Note');
    expect(lookup(en, 'app.menu.domains.grn')).toBe('Good Received Note');
  });

  it('has no anonymous "Element …" message, no "minute(s)" and no repeated wording', () => {
    for (const locale of LOCALES) {
      for (const [key, text] of leaves(messages[locale]!)) {
        if (
          !key.startsWith('app.') &&
          !key.startsWith('resources.') &&
          !key.startsWith('dashboard.') &&
          !key.startsWith('domain_dashboards.') &&
          !key.startsWith('ra.notification.')
        )
          continue;
        expect(text, key).not.toMatch(/\bElement\b/);
        expect(text, key).not.toMatch(/\(s\)/);
        expect(text, key).not.toMatch(/\b(\w+) \1\b/i);
      }
    }
  });
});
