import type { Messages } from '../lib/messages';

// The menu entry, the page title and what the login page says; the screens' own words are in ./messages.ts.

export const en: Messages = {
  account: {
    title: 'My account',
    menu: 'My account',
    // Said on the login page when the server ended the session, by the problem type of its answer.
    ended: {
      account_deactivated: 'Your account has been deactivated. Ask an administrator to reactivate it.',
      session_ended: 'You were signed out of this device.',
    },
  },
};

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
