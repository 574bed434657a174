import { Menu, useCanAccess, useTranslate } from 'react-admin';
import { lazyPage } from '../../components/lazyPage';

/** The route of the webhooks screen. */
export const WEBHOOKS_PATH = '/webhooks';

/** The webhooks screen, loaded on first use. */
export const WebhooksPage = lazyPage(async () => (await import('./WebhooksPage')).Webhooks);

/** The menu entry, shown to those who may read the audit trail of some cluster (a webhook delivers its events). */
export const WebhooksMenuItem = () => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: 'list', resource: 'webhooks' });
  if (!canAccess) return null;
  return <Menu.Item to={WEBHOOKS_PATH} primaryText={translate('app.webhooks.title')} />;
};
