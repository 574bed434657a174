import type { Messages } from '../../lib/messages';

// The menu entry, which is also the list's title. Everything the screens say is in ./messages.ts, loaded with them.
export const en: Messages = {
  app: { service_accounts: { title: 'Service accounts' } },
};
