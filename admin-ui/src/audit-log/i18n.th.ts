import type { Messages } from '../lib/messages';

export const th: Messages = {
  app: { audit_log: { title: 'บันทึกการตรวจสอบ' } },
};
