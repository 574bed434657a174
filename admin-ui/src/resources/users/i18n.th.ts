import type { Messages } from '../../lib/messages';

export const th: Messages = {
  resources: { users: { name: 'ผู้ใช้' } },
};
