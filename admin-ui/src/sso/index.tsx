import { Menu, useCanAccess, useTranslate } from 'react-admin';
// The user menu's icon, already in the first download (whose budget has no room for one more icon): an identity.
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { lazyPage } from '../components/lazyPage';

/** The route of the single sign-on screen (its group mappings). */
export const SSO_GROUP_MAPPINGS_PATH = '/sso/group-mappings';

/** The single sign-on screen, loaded on first use. */
export const SsoGroupMappingsPage = lazyPage(async () => (await import('./SsoGroupMappingsPage')).SsoGroupMappings);

/** The menu entry of single sign-on, shown to those who may manage grants (the mappings give grants). */
export const SsoMenuItem = () => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: 'list', resource: 'sso-group-mappings' });
  if (!canAccess) return null;
  return (
    <Menu.Item to={SSO_GROUP_MAPPINGS_PATH} primaryText={translate('app.sso.title')} leftIcon={<AccountCircleIcon />} />
  );
};
