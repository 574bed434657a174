// Already in the first download (the user menu's icon), whose budget has no room for one more.
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { PageMenuItem } from '../../components/PageMenuItem';
import { lazyPage } from '../../components/lazyPage';

import { SERVICE_ACCOUNTS_PATH } from './paths';

export { SERVICE_ACCOUNTS_PATH };

/** The screens, each loaded on first use. */
export const ServiceAccountListPage = lazyPage(async () => (await import('./ServiceAccountList')).ServiceAccountList);
export const ServiceAccountPage = lazyPage(async () => (await import('./ServiceAccountEdit')).ServiceAccountEdit);

/** The menu entry, shown to those who may read accounts. */
export const ServiceAccountsMenuItem = () => (
  <PageMenuItem
    resource="service-accounts"
    to={SERVICE_ACCOUNTS_PATH}
    label="app.service_accounts.title"
    icon={<AccountCircleIcon />}
  />
);
