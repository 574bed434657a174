import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { createQueryClient } from './dataProvider/queryClient';
import { i18nProvider } from './i18n';
import { AppLayout } from './layout/AppLayout';
import { darkTheme, lightTheme } from './layout/themes';
import { lazyPage } from './components/lazyPage';
import { AccessDeniedPage } from './pages/AccessDeniedPage';
import { UnknownAddressPage } from './pages/NotFoundPage';
import { CreateRedirect, RecordRoute } from './pages/RecordRoute';
import { RESOURCES } from './resources/registry';
import { Dashboard } from './dashboard';
import { domainDashboardRoutes } from './domain-dashboards';
import { AccountPage } from './account';
import { AUDIT_LOG_PATH, AuditLogPage } from './audit-log';
import { MEMBER_IMPORT_PATH, MemberImportPage } from './member-import';
import { SSO_GROUP_MAPPINGS_PATH, SsoGroupMappingsPage } from './sso';
import { SERVICE_ACCOUNTS_PATH, ServiceAccountListPage, ServiceAccountPage } from './resources/service-accounts';
import { WEBHOOKS_PATH, WebhooksPage } from './resources/webhooks';
import { SECURITY_PATH, SecurityPage } from './security';

const queryClient = createQueryClient();
// The sign-in form is needed once per session: it loads on its own.
const LoginPage = lazyPage(async () => (await import('./pages/LoginPage')).LoginPage);

/**
 * Resources with the product's routes (`/create`, `/:id`, `/:id/edit`) declare them as child routes; each of those
 * pages checks its own access and shows the access-denied screen on failure. The older `/new` addresses lead to
 * `/create`; an id that is malformed or unknown, and any unknown address, show the Not-found page. Every screen is
 * loaded on first use.
 */
export const App = () => (
  <Admin
    disableTelemetry
    title="app.title"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    queryClient={queryClient}
    layout={AppLayout}
    loginPage={LoginPage}
    accessDenied={AccessDeniedPage}
    dashboard={Dashboard}
    theme={lightTheme}
    darkTheme={darkTheme}
    catchAll={UnknownAddressPage}
    requireAuth
  >
    {RESOURCES.map((r) =>
      r.routes === 'product' ? (
        <Resource key={r.name} name={r.name} list={r.list} icon={r.icon} recordRepresentation={r.recordRepresentation}>
          <Route path="create" element={<r.create />} />
          <Route path="new" element={<CreateRedirect />} />
          <Route
            path=":id"
            element={
              <RecordRoute resource={r.name}>
                <r.show />
              </RecordRoute>
            }
          />
          <Route
            path=":id/edit"
            element={
              <RecordRoute resource={r.name}>
                <r.edit />
              </RecordRoute>
            }
          />
        </Resource>
      ) : (
        <Resource
          key={r.name}
          name={r.name}
          list={r.list}
          create={r.create}
          edit={
            <RecordRoute resource={r.name}>
              <r.edit />
            </RecordRoute>
          }
          show={
            <RecordRoute resource={r.name}>
              <r.show />
            </RecordRoute>
          }
          icon={r.icon}
          recordRepresentation={r.recordRepresentation}
        />
      ),
    )}
    <CustomRoutes>
      {domainDashboardRoutes}
      {/* Every signed-in user's own page: no permission beyond being signed in. */}
      <Route path="/account" element={<AccountPage />} />
      <Route path={AUDIT_LOG_PATH} element={<AuditLogPage />} />
      <Route path={MEMBER_IMPORT_PATH} element={<MemberImportPage />} />
      <Route path={SSO_GROUP_MAPPINGS_PATH} element={<SsoGroupMappingsPage />} />
      <Route path={SERVICE_ACCOUNTS_PATH} element={<ServiceAccountListPage />} />
      <Route path={`${SERVICE_ACCOUNTS_PATH}/:id`} element={<ServiceAccountPage />} />
      <Route path={WEBHOOKS_PATH} element={<WebhooksPage />} />
      <Route path={SECURITY_PATH} element={<SecurityPage />} />
    </CustomRoutes>
  </Admin>
);
