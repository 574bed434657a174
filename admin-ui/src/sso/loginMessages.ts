// The login page's words for single sign-on; they load with the login page (see ScreenMessages), not with the
// console's first download.
import type { MessageModule, Messages } from '../lib/messages';

/** Why the provider's callback sent the browser back without a session (the login page's `sso_error`). */
export const SSO_ERRORS = [
  'state',
  'denied',
  'token',
  'email_unverified',
  'domain_not_allowed',
  'no_account',
  'not_linked',
  'link_refused',
  'inactive',
  'provider_unavailable',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

export const isSsoError = (value: string | null): value is SsoError =>
  (SSO_ERRORS as readonly (string | null)[]).includes(value);

const en: Messages = {
  sso: {
    login: {
      or: 'or',
      providers: 'Single sign-on',
      sign_in_with: 'Sign in with %{name}',
      exchanging: 'Signing you in…',
      exchange_expired: 'This sign-in has expired or was already used. Sign in with your identity provider again.',
      exchange_failed: 'The single sign-on could not be completed (%{reason}). Try again.',
      reauth_hint: 'Or sign in again with your organisation. This leaves the page: changes not yet saved are lost.',
      errors: {
        state: 'The sign-in took too long, or was started in another browser or window. Start it again here.',
        denied:
          'The identity provider did not let you sign in, or the sign-in was cancelled. Try again, or sign in with your password.',
        token:
          'The answer of the identity provider could not be verified. Try again; if it keeps happening, tell an administrator.',
        email_unverified:
          'Your email address is not verified at the identity provider. Verify it there, then try again.',
        domain_not_allowed: 'Accounts of your email domain may not sign in to this console. Ask an administrator.',
        no_account: 'No account of this console belongs to your identity. Ask an administrator to create one for you.',
        not_linked:
          'An account with your email already exists, but it is not linked to this identity provider. Sign in with your username and password, or ask an administrator to allow linking.',
        link_refused:
          'An account with your email already exists, and it holds permissions that are never linked to an identity provider by email. Sign in with your username and password.',
        inactive: 'Your account has been deactivated. Ask an administrator to reactivate it.',
        provider_unavailable:
          'The identity provider cannot be reached right now. Try again in a moment, or sign in with your password.',
        unknown: 'The single sign-on did not complete. Try again, or sign in with your password.',
      },
    },
  },
};

const th: Messages = {
  sso: {
    login: {
      or: 'หรือ',
      providers: 'การลงชื่อเข้าใช้ครั้งเดียว (SSO)',
      sign_in_with: 'เข้าสู่ระบบด้วย %{name}',
      exchanging: 'กำลังเข้าสู่ระบบ…',
      exchange_expired: 'การเข้าสู่ระบบนี้หมดอายุหรือถูกใช้ไปแล้ว โปรดเข้าสู่ระบบกับผู้ให้บริการยืนยันตัวตนอีกครั้ง',
      exchange_failed: 'ไม่สามารถเข้าสู่ระบบแบบ SSO ให้เสร็จสมบูรณ์ได้ (%{reason}) โปรดลองอีกครั้ง',
      reauth_hint: 'หรือเข้าสู่ระบบอีกครั้งด้วยบัญชีขององค์กร การทำเช่นนี้จะออกจากหน้านี้ และการเปลี่ยนแปลงที่ยังไม่ได้บันทึกจะสูญหาย',
      errors: {
        state: 'การเข้าสู่ระบบใช้เวลานานเกินไป หรือเริ่มจากเบราว์เซอร์หรือหน้าต่างอื่น โปรดเริ่มใหม่อีกครั้งที่นี่',
        denied: 'ผู้ให้บริการยืนยันตัวตนไม่อนุญาตให้คุณเข้าสู่ระบบ หรือการเข้าสู่ระบบถูกยกเลิก โปรดลองอีกครั้ง หรือเข้าสู่ระบบด้วยรหัสผ่าน',
        token: 'ไม่สามารถตรวจสอบคำตอบของผู้ให้บริการยืนยันตัวตนได้ โปรดลองอีกครั้ง หากยังเกิดขึ้นอีก โปรดแจ้งผู้ดูแลระบบ',
        email_unverified: 'อีเมลของคุณยังไม่ได้รับการยืนยันที่ผู้ให้บริการยืนยันตัวตน โปรดยืนยันอีเมลที่นั่นแล้วลองอีกครั้ง',
        domain_not_allowed: 'บัญชีที่ใช้โดเมนอีเมลของคุณไม่ได้รับอนุญาตให้เข้าสู่คอนโซลนี้ โปรดติดต่อผู้ดูแลระบบ',
        no_account: 'ไม่มีบัญชีของคอนโซลนี้ที่เป็นของตัวตนของคุณ โปรดขอให้ผู้ดูแลระบบสร้างบัญชีให้',
        not_linked:
          'มีบัญชีที่ใช้อีเมลของคุณอยู่แล้ว แต่ยังไม่ได้เชื่อมโยงกับผู้ให้บริการยืนยันตัวตนนี้ โปรดเข้าสู่ระบบด้วยชื่อผู้ใช้และรหัสผ่าน หรือขอให้ผู้ดูแลระบบอนุญาตการเชื่อมโยง',
        link_refused:
          'มีบัญชีที่ใช้อีเมลของคุณอยู่แล้ว และบัญชีนั้นมีสิทธิ์ที่ไม่สามารถเชื่อมโยงกับผู้ให้บริการยืนยันตัวตนด้วยอีเมลได้ โปรดเข้าสู่ระบบด้วยชื่อผู้ใช้และรหัสผ่าน',
        inactive: 'บัญชีของคุณถูกปิดใช้งานแล้ว โปรดขอให้ผู้ดูแลระบบเปิดใช้งานอีกครั้ง',
        provider_unavailable: 'ไม่สามารถติดต่อผู้ให้บริการยืนยันตัวตนได้ในขณะนี้ โปรดลองอีกครั้งในอีกสักครู่ หรือเข้าสู่ระบบด้วยรหัสผ่าน',
        unknown: 'การเข้าสู่ระบบแบบ SSO ไม่สำเร็จ โปรดลองอีกครั้ง หรือเข้าสู่ระบบด้วยรหัสผ่าน',
      },
    },
  },
};

/** The login page's single sign-on words, given to it by ScreenMessages. */
export const ssoLoginScreenMessages: MessageModule = { en, th };
