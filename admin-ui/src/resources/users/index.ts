import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { lazyPage } from '../../components/lazyPage';

/** The account screens, each loaded on first use. */
export const users = {
  list: lazyPage(async () => (await import('./UserList')).UserList),
  create: lazyPage(async () => (await import('./UserCreate')).UserCreate),
  edit: lazyPage(async () => (await import('./UserEdit')).UserEdit),
  show: lazyPage(async () => (await import('./UserEdit')).UserShow),
  icon: ManageAccountsIcon,
};
