import type { Messages } from '../lib/messages';

export const th: Messages = {
  app: {
    feedback: {
      saved: 'บันทึก%{resource} %{name} แล้ว',
      created: 'สร้าง%{resource} %{name} แล้ว',
      deleted: 'ลบ%{resource} %{name} แล้ว',
      restored: 'กู้คืน%{resource} %{name} แล้ว',
      save_failed: 'บันทึก%{resource} %{name} ไม่สำเร็จ: %{reason}',
      create_failed: 'สร้าง%{resource} %{name} ไม่สำเร็จ: %{reason}',
      delete_failed: 'ลบ%{resource} %{name} ไม่สำเร็จ: %{reason}',
      restore_failed: 'กู้คืน%{resource} %{name} ไม่สำเร็จ: %{reason}',
    },
    common: {
      retry: 'ลองใหม่',
      failed: '%{reason}',
      close: 'ปิด',
      load_error: 'โหลดข้อมูลไม่สำเร็จ',
      save_changes: 'บันทึกการเปลี่ยนแปลง',
      unlimited: 'ไม่จำกัด',
      none: 'ไม่ระบุ',
      stale_record: 'มีผู้อื่นบันทึกรายการนี้หลังจากที่คุณเปิด ระบบแสดงฉบับของเขาแล้ว กรุณาแก้ไขอีกครั้งเพื่อบันทึกการเปลี่ยนแปลงของคุณ',
    },
    status: { active: 'ใช้งาน', inactive: 'ไม่ใช้งาน' },
    autocomplete: {
      open: 'เปิดรายการ',
      close: 'ปิดรายการ',
      clear: 'ล้าง',
      no_options: 'ไม่พบรายการที่ตรงกัน',
      loading: 'กำลังโหลด…',
    },
  },
};
