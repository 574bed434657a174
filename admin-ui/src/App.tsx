import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n';
import { AppLayout } from './layout/AppLayout';
import { darkTheme, lightTheme } from './layout/themes';
import { LoginPage } from './pages/LoginPage';
import { AccessDeniedPage } from './pages/AccessDeniedPage';
import { clusters } from './resources/clusters';
import { businessUnits } from './resources/business-units';
import { printTemplateMappings } from './resources/print-template-mappings';
import { Dashboard } from './dashboard';
import { domainDashboardRoutes } from './domain-dashboards';

/**
 * Cluster and BU screens use the routes of the product (`/new`, `/:id/edit`), declared as
 * resource child routes; each page checks its own access and shows the access-denied screen on failure.
 */
export const App = () => (
  <Admin
    disableTelemetry
    title="app.title"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    layout={AppLayout}
    loginPage={LoginPage}
    accessDenied={AccessDeniedPage}
    dashboard={Dashboard}
    theme={lightTheme}
    darkTheme={darkTheme}
    requireAuth
  >
    <Resource name="clusters" list={clusters.list} icon={clusters.icon} recordRepresentation="name">
      <Route path="new" element={<clusters.create />} />
      <Route path=":id/edit" element={<clusters.edit />} />
    </Resource>
    <Resource name="business-units" list={businessUnits.list} icon={businessUnits.icon} recordRepresentation="name">
      <Route path="new" element={<businessUnits.create />} />
      <Route path=":id/edit" element={<businessUnits.edit />} />
    </Resource>
    <Resource
      name="print-template-mappings"
      list={printTemplateMappings.list}
      create={printTemplateMappings.create}
      edit={printTemplateMappings.edit}
      icon={printTemplateMappings.icon}
    />
    <CustomRoutes>{domainDashboardRoutes}</CustomRoutes>
  </Admin>
);
