import { Route } from 'react-router-dom';
import { DOMAIN_DASHBOARDS, domainDashboardPath } from './domains';
import { DomainDashboardPage } from './DomainDashboardPage';

/** One route per domain dashboard (`/dashboards/<domain>`), as linked from the menu. */
export const domainDashboardRoutes = DOMAIN_DASHBOARDS.map((domain) => (
  <Route key={domain} path={domainDashboardPath(domain)} element={<DomainDashboardPage domain={domain} />} />
));
