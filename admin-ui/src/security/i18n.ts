import type { Messages } from '../lib/messages';

// The menu entry, which is also the page title. Everything the screen itself says is in ./messages.ts, loaded with it.
export const en: Messages = {
  app: { security: { title: 'Security' } },
};
