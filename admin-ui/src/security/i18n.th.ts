import type { Messages } from '../lib/messages';

export const th: Messages = {
  app: { security: { title: 'ความปลอดภัย' } },
};
