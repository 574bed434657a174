import type { Messages } from '../../lib/messages';

// The menu's and the list title's name; everything the account screens say is in ./messages.ts, loaded with them.
export const en: Messages = {
  resources: { users: { name: 'User |||| Users' } },
};
