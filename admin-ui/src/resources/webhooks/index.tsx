import WebhookIcon from '@mui/icons-material/Webhook';
import { PageMenuItem } from '../../components/PageMenuItem';
import { lazyPage } from '../../components/lazyPage';

/** The route of the webhooks screen. */
export const WEBHOOKS_PATH = '/webhooks';

/** The webhooks screen, loaded on first use. */
export const WebhooksPage = lazyPage(async () => (await import('./WebhooksPage')).Webhooks);

/** The menu entry, shown to those who may read the audit trail of some cluster (a webhook delivers its events). */
export const WebhooksMenuItem = () => (
  <PageMenuItem resource="webhooks" to={WEBHOOKS_PATH} label="app.webhooks.title" icon={<WebhookIcon />} />
);
