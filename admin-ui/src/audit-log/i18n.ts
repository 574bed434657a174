import type { Messages } from '../lib/messages';

// The menu entry, which is also the page title (one label per concept). Everything the audit log and the History tabs
// say is in ./messages.ts, loaded with them.
export const en: Messages = {
  app: { audit_log: { title: 'Audit log' } },
};
