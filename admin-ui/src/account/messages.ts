// The words of My account and of the forced password change; they load with those screens (see ScreenMessages), not
// with the console's first download.
import type { MessageModule, Messages } from '../lib/messages';
import { secondFactorScreenMessages } from '../second-factor/messages';

const en: Messages = {
  account: {
    password: {
      title: 'Change password',
      intro: 'Once the password is changed, your other devices are signed out; this one stays signed in.',
      current: 'Current password',
      new: 'New password',
      confirm: 'Confirm the new password',
      submit: 'Change password',
      changed: 'Password changed. Your other devices have been signed out.',
      mismatch: 'The two new passwords differ',
      failed: 'The password was not changed: %{reason}',
      rules: {
        title: 'The new password',
        length: 'has at least 12 characters',
        identity_contains: 'is not your email address, and does not contain your username',
        identity_equals: 'is not your username or email address',
        common: 'is not a common password',
        differs: 'differs from the current password',
      },
    },
    forced: {
      title: 'Choose a new password',
      message: 'Your password was set by an administrator. Choose your own to continue.',
      submit: 'Save and continue',
      sign_out: 'Sign out',
    },
    sessions: {
      title: 'Sessions',
      intro: 'The devices signed in to your account, most recently used first.',
      device: 'Device',
      ip: 'IP address',
      signed_in: 'Signed in',
      last_used: 'Last used',
      actions: 'Actions',
      this_device: 'This device',
      revoke: 'Revoke',
      revoke_label: 'Revoke the session of %{device}',
      revoke_title: 'Sign out %{device}?',
      revoke_content: 'That device is signed out at its next request and must sign in again.',
      revoked: '%{device} signed out',
      revoke_failed: '%{device} was not signed out: %{reason}',
      revoke_others: 'Sign out all other devices',
      revoke_others_title: 'Sign out all other devices?',
      revoke_others_content: 'Every device but this one is signed out at its next request.',
      revoked_others: '%{smart_count} other device signed out |||| %{smart_count} other devices signed out',
      revoke_others_failed: 'The other devices were not signed out: %{reason}',
      empty: 'No device is signed in.',
      load_failed: 'The sessions could not be loaded.',
      unknown_ip: 'Unknown',
      device_name: '%{browser} on %{os}',
      unknown_browser: 'Unknown browser',
      unknown_os: 'an unknown system',
      unknown_device: 'Unknown device',
    },
  },
};

const th: Messages = {
  account: {
    password: {
      title: 'เปลี่ยนรหัสผ่าน',
      intro: 'เมื่อเปลี่ยนรหัสผ่านแล้ว อุปกรณ์อื่นของคุณจะถูกออกจากระบบ ส่วนอุปกรณ์นี้ยังคงเข้าสู่ระบบอยู่',
      current: 'รหัสผ่านปัจจุบัน',
      new: 'รหัสผ่านใหม่',
      confirm: 'ยืนยันรหัสผ่านใหม่',
      submit: 'เปลี่ยนรหัสผ่าน',
      changed: 'เปลี่ยนรหัสผ่านแล้ว อุปกรณ์อื่นของคุณถูกออกจากระบบแล้ว',
      mismatch: 'รหัสผ่านใหม่ทั้งสองช่องไม่ตรงกัน',
      failed: 'เปลี่ยนรหัสผ่านไม่สำเร็จ: %{reason}',
      rules: {
        title: 'รหัสผ่านใหม่',
        length: 'มีอย่างน้อย 12 ตัวอักษร',
        identity_contains: 'ไม่ใช่อีเมลของคุณ และไม่มีชื่อผู้ใช้ของคุณอยู่ในรหัสผ่าน',
        identity_equals: 'ไม่ใช่ชื่อผู้ใช้หรืออีเมลของคุณ',
        common: 'ไม่ใช่รหัสผ่านที่ใช้กันทั่วไป',
        differs: 'ไม่ซ้ำกับรหัสผ่านปัจจุบัน',
      },
    },
    forced: {
      title: 'ตั้งรหัสผ่านใหม่',
      message: 'รหัสผ่านของคุณถูกตั้งโดยผู้ดูแลระบบ กรุณาตั้งรหัสผ่านของคุณเองเพื่อใช้งานต่อ',
      submit: 'บันทึกและดำเนินการต่อ',
      sign_out: 'ออกจากระบบ',
    },
    sessions: {
      title: 'เซสชัน',
      intro: 'อุปกรณ์ที่เข้าสู่ระบบด้วยบัญชีของคุณ เรียงจากที่ใช้งานล่าสุด',
      device: 'อุปกรณ์',
      ip: 'ที่อยู่ IP',
      signed_in: 'เข้าสู่ระบบเมื่อ',
      last_used: 'ใช้งานล่าสุด',
      actions: 'การดำเนินการ',
      this_device: 'อุปกรณ์นี้',
      revoke: 'เพิกถอน',
      revoke_label: 'เพิกถอนเซสชันของ %{device}',
      revoke_title: 'ออกจากระบบ %{device} หรือไม่?',
      revoke_content: 'อุปกรณ์นั้นจะถูกออกจากระบบเมื่อส่งคำขอครั้งถัดไป และต้องเข้าสู่ระบบใหม่',
      revoked: 'ออกจากระบบ %{device} แล้ว',
      revoke_failed: 'ออกจากระบบ %{device} ไม่สำเร็จ: %{reason}',
      revoke_others: 'ออกจากระบบอุปกรณ์อื่นทั้งหมด',
      revoke_others_title: 'ออกจากระบบอุปกรณ์อื่นทั้งหมดหรือไม่?',
      revoke_others_content: 'ทุกอุปกรณ์ยกเว้นอุปกรณ์นี้จะถูกออกจากระบบเมื่อส่งคำขอครั้งถัดไป',
      revoked_others: 'ออกจากระบบอุปกรณ์อื่น %{smart_count} เครื่องแล้ว',
      revoke_others_failed: 'ออกจากระบบอุปกรณ์อื่นไม่สำเร็จ: %{reason}',
      empty: 'ไม่มีอุปกรณ์ที่เข้าสู่ระบบอยู่',
      load_failed: 'โหลดเซสชันไม่สำเร็จ',
      unknown_ip: 'ไม่ทราบ',
      device_name: '%{browser} บน %{os}',
      unknown_browser: 'เบราว์เซอร์ที่ไม่รู้จัก',
      unknown_os: 'ระบบที่ไม่รู้จัก',
      unknown_device: 'อุปกรณ์ที่ไม่รู้จัก',
    },
  },
};

export const accountScreenMessages: MessageModule = { en, th };
/** As ScreenMessages wants them: a constant list. */
export const ACCOUNT_SCREEN_MESSAGES = [accountScreenMessages, secondFactorScreenMessages] as const;
