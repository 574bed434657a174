// The words of the second step of a sign-in and of the step-up dialog; they load with those (see ScreenMessages), not
// with the console's first download.
import type { MessageModule, Messages } from '../lib/messages';

const en: Messages = {
  second_factor: {
    proof: {
      totp: 'Code from your authenticator app',
      totp_help: 'The six digits the app shows now.',
      recovery: 'Recovery code',
      recovery_help: 'One of the ten codes you saved, like abcd-efgh-ijkl. Each works once.',
      use_recovery: 'Use a recovery code instead',
      use_totp: 'Use the authenticator app instead',
      or: 'or',
      use_passkey: 'Use a passkey',
    },
    sign_in: {
      title: 'Second step',
      intro: 'The password of %{username} is right. Confirm it is you with your second factor.',
      intro_sso: 'Your organisation signed you in. This console also asks for your second factor: confirm it is you.',
      verify: 'Verify',
      start_again: 'Start again',
      with_passkey: 'Sign in with a passkey',
    },
    step_up: {
      title: 'Confirm it is you',
      intro:
        'This action needs a second factor used in the last 10 minutes. Once confirmed, it goes on where you left it.',
      confirm: 'Confirm',
      confirmed: 'Confirmed: the action goes on',
    },
    errors: {
      invalid:
        'The code is wrong or has been used. Enter the code your authenticator app shows now, or an unused recovery code.',
      passkey_invalid: 'This passkey is not registered here. Use another passkey, or sign in with your password.',
      passkey_cancelled: 'The passkey was not used (the prompt was closed or timed out). Try again, or use a code.',
      throttled_seconds:
        'Too many tries. Wait %{smart_count} second, then try again. |||| Too many tries. Wait %{smart_count} seconds, then try again.',
      throttled_minutes:
        'Too many tries. Wait %{smart_count} minute, then try again. |||| Too many tries. Wait %{smart_count} minutes, then try again.',
      expired: 'This sign-in has expired (it lasts five minutes). Start again with your password.',
      unreachable: 'The server cannot be reached. Check the connection and try again.',
      other: 'That did not work: %{reason}',
    },
  },
};

const th: Messages = {
  second_factor: {
    proof: {
      totp: 'รหัสจากแอปยืนยันตัวตน',
      totp_help: 'ตัวเลขหกหลักที่แอปแสดงอยู่ตอนนี้',
      recovery: 'รหัสกู้คืน',
      recovery_help: 'หนึ่งในสิบรหัสที่คุณบันทึกไว้ เช่น abcd-efgh-ijkl แต่ละรหัสใช้ได้ครั้งเดียว',
      use_recovery: 'ใช้รหัสกู้คืนแทน',
      use_totp: 'ใช้แอปยืนยันตัวตนแทน',
      or: 'หรือ',
      use_passkey: 'ใช้พาสคีย์',
    },
    sign_in: {
      title: 'ขั้นตอนที่สอง',
      intro: 'รหัสผ่านของ %{username} ถูกต้อง โปรดยืนยันว่าเป็นคุณด้วยปัจจัยที่สอง',
      intro_sso: 'องค์กรของคุณให้คุณเข้าสู่ระบบแล้ว คอนโซลนี้ยังขอปัจจัยที่สองของคุณด้วย โปรดยืนยันว่าเป็นคุณ',
      verify: 'ยืนยัน',
      start_again: 'เริ่มใหม่',
      with_passkey: 'เข้าสู่ระบบด้วยพาสคีย์',
    },
    step_up: {
      title: 'ยืนยันว่าเป็นคุณ',
      intro: 'การดำเนินการนี้ต้องใช้ปัจจัยที่สองภายใน 10 นาทีที่ผ่านมา เมื่อยืนยันแล้ว การดำเนินการจะทำต่อจากที่ค้างไว้',
      confirm: 'ยืนยัน',
      confirmed: 'ยืนยันแล้ว การดำเนินการกำลังทำต่อ',
    },
    errors: {
      invalid: 'รหัสไม่ถูกต้องหรือถูกใช้ไปแล้ว โปรดกรอกรหัสที่แอปยืนยันตัวตนแสดงอยู่ตอนนี้ หรือรหัสกู้คืนที่ยังไม่เคยใช้',
      passkey_invalid: 'พาสคีย์นี้ไม่ได้ลงทะเบียนไว้ที่นี่ โปรดใช้พาสคีย์อื่น หรือเข้าสู่ระบบด้วยรหัสผ่าน',
      passkey_cancelled: 'ไม่ได้ใช้พาสคีย์ (หน้าต่างถูกปิดหรือหมดเวลา) โปรดลองอีกครั้ง หรือใช้รหัส',
      throttled_seconds: 'ลองหลายครั้งเกินไป โปรดรอ %{smart_count} วินาที แล้วลองอีกครั้ง',
      throttled_minutes: 'ลองหลายครั้งเกินไป โปรดรอ %{smart_count} นาที แล้วลองอีกครั้ง',
      expired: 'การเข้าสู่ระบบนี้หมดอายุแล้ว (มีอายุห้านาที) โปรดเริ่มใหม่ด้วยรหัสผ่าน',
      unreachable: 'ติดต่อเซิร์ฟเวอร์ไม่ได้ โปรดตรวจสอบการเชื่อมต่อแล้วลองอีกครั้ง',
      other: 'ไม่สำเร็จ: %{reason}',
    },
  },
};

/** The second step's and the step-up's words, given to them by ScreenMessages. */
export const secondFactorSignInMessages: MessageModule = { en, th };
export const SECOND_FACTOR_SIGN_IN_MESSAGES = [secondFactorSignInMessages] as const;
