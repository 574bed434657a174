// The sentences that name what an event did ("Granted Read clusters on CL-S to nok"), the revert's words and the
// pictures' captions: part of the audit log's and the History's messages (see audit-log/messages.ts).
import type { MessageModule } from '../../lib/messages';

export const sentenceMessages: MessageModule = {
  en: {
    audit: {
      sentence: {
        record: '%{action} %{target}',
        grant_added: 'Granted %{permission} on %{scope} to %{user}',
        grant_removed: 'Removed %{permission} on %{scope} from %{user}',
        all_clusters: 'all clusters',
        member_added: 'Added %{user} to %{place} as %{role}',
        member_removed: 'Removed %{user} from %{place}',
        member_role: 'Changed the role of %{user} in %{place} to %{role}',
        member_changed: 'Changed the membership of %{user} in %{place}',
        activated: 'Activated the %{kind} %{target}',
        deactivated: 'Deactivated the %{kind} %{target}',
        reverted: 'Reverted a change to the %{kind} %{target}',
        someone: 'an account',
        somewhere: 'a record',
      },
      roles: { admin: 'admin', user: 'user' },
      images: {
        before: 'Image before',
        after: 'Image after',
        none: 'No image',
        gone: 'No longer stored',
      },
      revert: {
        button: 'Revert',
        title: 'Revert this change?',
        intro: 'This puts back the values this change replaced, as a new change you make:',
        field: '%{field}: %{after} → %{before}',
        confirm: 'Revert',
        cancel: 'Cancel',
        done: 'Change reverted',
        stale:
          'The record was changed by someone else after this change, so it was not reverted. Its History now shows the latest changes: revert the newest one instead.',
      },
    },
  },
  th: {
    audit: {
      sentence: {
        record: '%{action} %{target}',
        grant_added: 'ให้สิทธิ์ %{permission} ใน %{scope} แก่ %{user}',
        grant_removed: 'ถอนสิทธิ์ %{permission} ใน %{scope} จาก %{user}',
        all_clusters: 'ทุกคลัสเตอร์',
        member_added: 'เพิ่ม %{user} เข้า %{place} ในบทบาท %{role}',
        member_removed: 'นำ %{user} ออกจาก %{place}',
        member_role: 'เปลี่ยนบทบาทของ %{user} ใน %{place} เป็น %{role}',
        member_changed: 'แก้ไขสมาชิกภาพของ %{user} ใน %{place}',
        activated: 'เปิดใช้งาน%{kind} %{target}',
        deactivated: 'ปิดใช้งาน%{kind} %{target}',
        reverted: 'ย้อนการเปลี่ยนแปลงของ%{kind} %{target}',
        someone: 'บัญชีหนึ่ง',
        somewhere: 'รายการหนึ่ง',
      },
      roles: { admin: 'ผู้ดูแล', user: 'ผู้ใช้' },
      images: {
        before: 'รูปก่อน',
        after: 'รูปหลัง',
        none: 'ไม่มีรูป',
        gone: 'ไม่ได้เก็บไว้แล้ว',
      },
      revert: {
        button: 'ย้อนกลับ',
        title: 'ย้อนการเปลี่ยนแปลงนี้หรือไม่?',
        intro: 'ระบบจะใส่ค่าเดิมที่การเปลี่ยนแปลงนี้แทนที่กลับคืน เป็นการเปลี่ยนแปลงใหม่โดยคุณ:',
        field: '%{field}: %{after} → %{before}',
        confirm: 'ย้อนกลับ',
        cancel: 'ยกเลิก',
        done: 'ย้อนการเปลี่ยนแปลงแล้ว',
        stale: 'มีผู้อื่นแก้ไขรายการนี้หลังการเปลี่ยนแปลงนี้ จึงไม่ได้ย้อนกลับ ประวัติแสดงการเปลี่ยนแปลงล่าสุดแล้ว: ให้ย้อนรายการล่าสุดแทน',
      },
    },
  },
};
