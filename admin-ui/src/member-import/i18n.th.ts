import type { Messages } from '../lib/messages';

export const th: Messages = {
  app: { member_import: { title: 'นำเข้าสมาชิก' } },
};
