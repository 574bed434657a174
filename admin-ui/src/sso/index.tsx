// The user menu's icon, already in the first download (whose budget has no room for one more icon): an identity.
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { PageMenuItem } from '../components/PageMenuItem';
import { lazyPage } from '../components/lazyPage';

/** The route of the single sign-on screen (its group mappings). */
export const SSO_GROUP_MAPPINGS_PATH = '/sso/group-mappings';

/** The single sign-on screen, loaded on first use. */
export const SsoGroupMappingsPage = lazyPage(async () => (await import('./SsoGroupMappingsPage')).SsoGroupMappings);

/** The menu entry of single sign-on, shown to those who may manage grants (the mappings give grants). */
export const SsoMenuItem = () => (
  <PageMenuItem
    resource="sso-group-mappings"
    to={SSO_GROUP_MAPPINGS_PATH}
    label="app.sso.title"
    icon={<AccountCircleIcon />}
  />
);
