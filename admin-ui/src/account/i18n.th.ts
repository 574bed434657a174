import type { Messages } from '../lib/messages';

export const th: Messages = {
  account: {
    title: 'บัญชีของฉัน',
    menu: 'บัญชีของฉัน',
    ended: {
      account_deactivated: 'บัญชีของคุณถูกปิดการใช้งานแล้ว กรุณาติดต่อผู้ดูแลระบบเพื่อเปิดใช้งานอีกครั้ง',
      session_ended: 'อุปกรณ์นี้ถูกออกจากระบบแล้ว',
    },
  },
};
