import type { Messages } from '../lib/messages';

export const th: Messages = {
  app: { sso: { title: 'การลงชื่อเข้าใช้ครั้งเดียว (SSO)' } },
};
