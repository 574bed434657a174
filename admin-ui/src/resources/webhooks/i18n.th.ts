import type { Messages } from '../../lib/messages';

export const th: Messages = {
  app: { webhooks: { title: 'เว็บฮุก' } },
};
