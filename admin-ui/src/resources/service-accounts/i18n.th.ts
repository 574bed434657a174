import type { Messages } from '../../lib/messages';

export const th: Messages = {
  app: { service_accounts: { title: 'บัญชีบริการ' } },
};
