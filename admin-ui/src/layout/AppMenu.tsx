import { useState } from 'react';
import { Menu, useTranslate, useSidebarState } from 'react-admin';
import { Box, Collapse, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import InsightsIcon from '@mui/icons-material/Insights';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import BarChartIcon from '@mui/icons-material/BarChart';
import { DOMAIN_DASHBOARDS, domainDashboardPath } from '../domain-dashboards/domains';
import { RESOURCES } from '../resources/registry';
import { AuditLogMenuItem } from '../audit-log';
import { MemberImportMenuItem } from '../member-import';
import { SsoMenuItem } from '../sso';
import { ServiceAccountsMenuItem } from '../resources/service-accounts';
import { WebhooksMenuItem } from '../resources/webhooks';
import { SecurityMenuItem } from '../security';

/**
 * Resource items are hidden when canAccess denies their list, the audit log when its page is refused, the member import
 * without `cluster.update` on some cluster, single sign-on without `grant.manage`, security to all but super admins; the domain
 * dashboards need only a session.
 */
export const AppMenu = () => {
  const translate = useTranslate();
  const [open, setOpen] = useState(true);
  const [sidebarOpen] = useSidebarState();
  return (
    <Menu>
      <Menu.DashboardItem primaryText={translate('app.menu.workspace')} />
      {RESOURCES.map((r) => (
        <Menu.ResourceItem key={r.name} name={r.name} primaryText={translate(r.menuLabel, { smart_count: 2 })} />
      ))}
      <AuditLogMenuItem />
      <MemberImportMenuItem />
      <SsoMenuItem />
      <ServiceAccountsMenuItem />
      <WebhooksMenuItem />
      <SecurityMenuItem />
      {/* The menu is an ARIA menu: the toggle is one of its items and the dashboards a group of items within it. */}
      <MenuItem
        onClick={() => setOpen((o) => !o)}
        dense
        aria-expanded={open}
        aria-label={translate('app.menu.domain_dashboards')}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>
          <InsightsIcon fontSize="small" />
        </ListItemIcon>
        {sidebarOpen && <ListItemText primary={translate('app.menu.domain_dashboards')} />}
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </MenuItem>
      <Collapse in={open} unmountOnExit>
        <Box role="group" aria-label={translate('app.menu.domain_dashboards')} sx={{ pl: sidebarOpen ? 2 : 0 }}>
          {DOMAIN_DASHBOARDS.map((d) => (
            <Menu.Item
              key={d}
              to={domainDashboardPath(d)}
              primaryText={translate(`app.menu.domains.${d}`)}
              leftIcon={<BarChartIcon fontSize="small" />}
            />
          ))}
        </Box>
      </Collapse>
    </Menu>
  );
};
