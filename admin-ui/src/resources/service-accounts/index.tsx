import { Menu, useCanAccess, useTranslate } from 'react-admin';
// Already in the first download (the user menu's icon), whose budget has no room for one more.
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { lazyPage } from '../../components/lazyPage';

import { SERVICE_ACCOUNTS_PATH } from './paths';

export { SERVICE_ACCOUNTS_PATH };

/** The screens, each loaded on first use. */
export const ServiceAccountListPage = lazyPage(async () => (await import('./ServiceAccountList')).ServiceAccountList);
export const ServiceAccountPage = lazyPage(async () => (await import('./ServiceAccountEdit')).ServiceAccountEdit);

/** The menu entry, shown to those who may read accounts. */
export const ServiceAccountsMenuItem = () => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: 'list', resource: 'service-accounts' });
  if (!canAccess) return null;
  return (
    <Menu.Item
      to={SERVICE_ACCOUNTS_PATH}
      primaryText={translate('app.service_accounts.title')}
      leftIcon={<AccountCircleIcon />}
    />
  );
};
