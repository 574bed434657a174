import { useState } from 'react';
import { Menu, useTranslate, useSidebarState } from 'react-admin';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import InsightsIcon from '@mui/icons-material/Insights';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import BarChartIcon from '@mui/icons-material/BarChart';
import { DOMAIN_DASHBOARDS, domainDashboardPath } from '../domain-dashboards/domains';
import { RESOURCES } from '../resources/registry';

/** Resource items are hidden when canAccess denies their list; the domain dashboards need only a session. */
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
      <ListItemButton onClick={() => setOpen((o) => !o)} dense aria-expanded={open}>
        <ListItemIcon sx={{ minWidth: 40 }}>
          <InsightsIcon fontSize="small" />
        </ListItemIcon>
        {sidebarOpen && <ListItemText primary={translate('app.menu.domain_dashboards')} />}
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} unmountOnExit>
        <List disablePadding sx={{ pl: sidebarOpen ? 2 : 0 }}>
          {DOMAIN_DASHBOARDS.map((d) => (
            <Menu.Item
              key={d}
              to={domainDashboardPath(d)}
              primaryText={translate(`app.menu.domains.${d}`)}
              leftIcon={<BarChartIcon fontSize="small" />}
            />
          ))}
        </List>
      </Collapse>
    </Menu>
  );
};
