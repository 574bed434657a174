import { Menu, useCanAccess, useTranslate } from 'react-admin';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import { lazyPage } from '../components/lazyPage';

/** The route of the membership import. */
export const MEMBER_IMPORT_PATH = '/memberships/import';

/** The import screen (`/memberships/import`), loaded on first use. */
export const MemberImportPage = lazyPage(async () => (await import('./MemberImportPage')).MemberImport);

/**
 * Whether the caller may import: the server wants `cluster.update` on each row's cluster, so a grant on any cluster
 * opens the screen (react-admin's "edit a cluster" before a record is known asks exactly that).
 */
const useCanImportMembers = (): boolean => useCanAccess({ action: 'edit', resource: 'clusters' }).canAccess === true;

/** The menu entry of the import, shown only to those who may import. */
export const MemberImportMenuItem = () => {
  const translate = useTranslate();
  if (!useCanImportMembers()) return null;
  return (
    <Menu.Item to={MEMBER_IMPORT_PATH} primaryText={translate('app.member_import.title')} leftIcon={<GroupAddIcon />} />
  );
};
