// The words of the security screen; they load with it (see ScreenMessages), not with the console's first download.
import type { MessageModule, Messages } from '../lib/messages';

const en: Messages = {
  security: {
    policy: {
      title: 'Second factor',
      intro:
        'Who must set up a second factor (an authenticator app or a passkey). An account it covers is led to set one up right after signing in, and can do nothing else until it has.',
      required_for: 'Required for',
      required: {
        none: 'Nobody (each person chooses)',
        privileged: 'Privileged accounts: super admins and holders of a platform-wide permission',
        everyone: 'Everyone',
      },
      sso_sign_ins: 'Single sign-on',
      sso: {
        trusted: 'Trusted: the identity provider’s sign-in is enough',
        'second-factor':
          'Asked: accounts with a second factor use it after single sign-on too, unless the provider asked for one',
      },
      source_configuration: 'Now as configured on the server (%{configured}). Saving here overrides it.',
      source_console: 'Set here, over the server’s configuration (%{configured}).',
      save: 'Save',
      saved: 'Second-factor policy saved',
      save_failed: 'The policy was not saved: %{reason}',
      loading: 'Loading the policy',
    },
  },
};

const th: Messages = {
  security: {
    policy: {
      title: 'ปัจจัยที่สอง',
      intro:
        'ผู้ที่ต้องตั้งค่าปัจจัยที่สอง (แอปยืนยันตัวตนหรือพาสคีย์) บัญชีที่อยู่ในนโยบายจะถูกนำไปตั้งค่าทันทีหลังเข้าสู่ระบบ และทำอย่างอื่นไม่ได้จนกว่าจะตั้งค่าเสร็จ',
      required_for: 'บังคับสำหรับ',
      required: {
        none: 'ไม่มีใคร (แต่ละคนเลือกเอง)',
        privileged: 'บัญชีที่มีสิทธิ์สูง: ผู้ดูแลระบบสูงสุดและผู้ที่มีสิทธิ์ระดับแพลตฟอร์ม',
        everyone: 'ทุกคน',
      },
      sso_sign_ins: 'การลงชื่อเข้าใช้ครั้งเดียว',
      sso: {
        trusted: 'เชื่อถือ: การเข้าสู่ระบบของผู้ให้บริการยืนยันตัวตนเพียงพอ',
        'second-factor': 'ถาม: บัญชีที่มีปัจจัยที่สองต้องใช้หลังการลงชื่อเข้าใช้ครั้งเดียวด้วย เว้นแต่ผู้ให้บริการได้ขอปัจจัยที่สองแล้ว',
      },
      source_configuration: 'ตอนนี้เป็นไปตามการตั้งค่าของเซิร์ฟเวอร์ (%{configured}) การบันทึกที่นี่จะใช้แทน',
      source_console: 'ตั้งค่าที่นี่ แทนการตั้งค่าของเซิร์ฟเวอร์ (%{configured})',
      save: 'บันทึก',
      saved: 'บันทึกนโยบายปัจจัยที่สองแล้ว',
      save_failed: 'บันทึกนโยบายไม่สำเร็จ: %{reason}',
      loading: 'กำลังโหลดนโยบาย',
    },
  },
};

export const securityScreenMessages: MessageModule = { en, th };
export const SECURITY_MESSAGES = [securityScreenMessages] as const;
