import SecurityIcon from '@mui/icons-material/Security';
import { PageMenuItem } from '../components/PageMenuItem';
import { lazyPage } from '../components/lazyPage';

/** The route of the security screen (the second-factor policy). */
export const SECURITY_PATH = '/security';

/** The security screen, loaded on first use. */
export const SecurityPage = lazyPage(async () => (await import('./SecurityPage')).SecurityPage);

/** The menu entry, shown to super admins only (the policy covers the whole platform). */
export const SecurityMenuItem = () => (
  <PageMenuItem resource="security" to={SECURITY_PATH} label="app.security.title" icon={<SecurityIcon />} />
);
