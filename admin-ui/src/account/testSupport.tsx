import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import {
  AdminContext,
  Notification,
  type AuthProvider,
  type DataProvider,
  type I18nProvider,
  type TranslationMessages,
} from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { QueryClient } from '@tanstack/react-query';
import { messages, thaiOnly } from '../i18n/thai';
import type { PlatformPermissions } from '../types';

/** The console's messages in one language; with `strict`, every key a screen asks for and the language lacks is recorded. */
export function accountI18n(locale: 'en' | 'th', strict = false) {
  const missing = new Set<string>();
  const tree = strict && locale === 'th' ? thaiOnly : messages[locale]!;
  // react-admin's English only where the tree has no `ra` of its own (the strict Thai tree has one).
  const catalog: TranslationMessages = { ...englishMessages, ...tree };
  const provider: I18nProvider = polyglotI18nProvider(() => catalog, locale, [{ locale, name: locale }], {
    allowMissing: true,
    onMissingKey: (key: string) => {
      missing.add(key);
      return key;
    },
  });
  return { provider, missing };
}

export const owner: PlatformPermissions = {
  user: { id: 'u1', username: 'somchai', email: 'somchai@example.com', display_name: 'Somchai' },
  platform: [],
  clusters: {},
  is_super_admin: false,
  must_change_password: false,
  must_enrol_second_factor: false,
};

export const authFor = (perms: PlatformPermissions): AuthProvider => ({
  login: () => Promise.resolve(),
  logout: () => Promise.resolve(),
  checkAuth: () => Promise.resolve(),
  checkError: () => Promise.resolve(),
  getPermissions: () => Promise.resolve(perms),
  getIdentity: () => Promise.resolve({ id: perms.user.id, fullName: perms.user.display_name }),
});

/** Renders a screen at `path` inside react-admin's contexts, with the console's own messages. */
export function renderScreen(
  ui: ReactElement,
  options: {
    dataProvider: Partial<DataProvider> & Record<string, unknown>;
    authProvider?: AuthProvider;
    locale?: 'en' | 'th';
    strict?: boolean;
    path?: string;
  },
) {
  const { provider, missing } = accountI18n(options.locale ?? 'en', options.strict);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const admin = (element: ReactElement) => (
    <AdminContext
      dataProvider={options.dataProvider as DataProvider}
      authProvider={options.authProvider ?? authFor(owner)}
      i18nProvider={provider}
      queryClient={queryClient}
    >
      {element}
      <Notification />
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      { path: options.path ?? '/account', element: admin(ui) },
      { path: '/', element: admin(<div data-testid="dashboard" />) },
    ],
    { initialEntries: [options.path ?? '/account'] },
  );
  const view = render(<RouterProvider router={router} />);
  return { ...view, router, missing, queryClient };
}
