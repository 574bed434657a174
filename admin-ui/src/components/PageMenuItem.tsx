import type { ReactElement } from 'react';
import { Menu, useCanAccess, useTranslate } from 'react-admin';

/**
 * The menu entry of a page outside the resources: shown only when the page rules let the caller list `resource`
 * (the same rule the page's own guard applies), under the page's title.
 */
export const PageMenuItem = ({
  resource,
  to,
  label,
  icon,
}: {
  resource: string;
  to: string;
  label: string;
  icon?: ReactElement;
}) => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: 'list', resource });
  if (!canAccess) return null;
  return <Menu.Item to={to} primaryText={translate(label)} leftIcon={icon} />;
};
