import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { QueryClient } from '@tanstack/react-query';
import { fromRaMessages, mergeMessages } from '../lib/messages';
import * as dashboard from '../dashboard/i18n';
import * as domainDashboards from '../domain-dashboards/i18n';
import * as mappings from '../resources/print-template-mappings/i18n';

/** English messages of the workspace, the domain dashboards and the mapping screens, for component tests. */
const testMessages = mergeMessages(fromRaMessages(englishMessages), dashboard.en, domainDashboards.en, mappings.en);

export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

/** Renders inside react-admin's contexts with a stub data provider (custom methods included) and no retries. */
export function renderWithAdmin(
  ui: ReactElement,
  dataProvider: Partial<DataProvider> & Record<string, unknown>,
  queryClient = testQueryClient(),
) {
  const i18nProvider = polyglotI18nProvider(
    () => ({ ...englishMessages, ...testMessages }),
    'en',
    [{ locale: 'en', name: 'English' }],
    {
      allowMissing: true,
    },
  );
  return render(
    <AdminContext dataProvider={dataProvider as DataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
      {ui}
    </AdminContext>,
  );
}
