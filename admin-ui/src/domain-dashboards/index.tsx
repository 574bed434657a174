import { Route } from 'react-router-dom';
import { lazyPage } from '../components/lazyPage';
import { DOMAIN_DASHBOARDS, domainDashboardPath } from './domains';

const DomainDashboardPage = lazyPage(async () => (await import('./DomainDashboardPage')).DomainDashboardPage);

/** One route per domain dashboard (`/dashboards/<domain>`), as linked from the menu; the charts load on first use. */
export const domainDashboardRoutes = DOMAIN_DASHBOARDS.map((domain) => (
  <Route key={domain} path={domainDashboardPath(domain)} element={<DomainDashboardPage domain={domain} />} />
));
