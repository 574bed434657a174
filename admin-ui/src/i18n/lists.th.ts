import type { Messages } from '../lib/messages';

export const th: Messages = {
  app: {
    list: {
      search: 'ค้นหา',
      filters: 'ตัวกรอง',
      status: 'สถานะ',
      show_deleted: 'แสดงรายการที่ถูกลบ',
      clear_filters: 'ล้าง',
      any: 'ทั้งหมด',
      deleted_badge: 'ถูกลบ',
      deleted_column: 'ลบเมื่อ',
      created: 'สร้างเมื่อ',
      updated: 'แก้ไขเมื่อ',
      actions: 'การดำเนินการ',
      open: 'เปิด',
      no_actions: 'ไม่มีการดำเนินการที่ใช้ได้',
      restore: 'กู้คืน',
      delete_title: 'ลบ "%{name}" หรือไม่?',
      delete_content: 'รายการจะถูกลบแบบซ่อนและไม่แสดงในรายการปกติ',
      empty: 'ยังไม่มีข้อมูล',
      no_results: 'ไม่พบรายการที่ตรงกับการค้นหาหรือตัวกรอง',
      range: '%{from}–%{to} จาก %{count}',
      go_to_first: 'ไปหน้าแรก',
      go_to_last: 'ไปหน้าสุดท้าย',
      go_to_next: 'ไปหน้าถัดไป',
      go_to_previous: 'ไปหน้าก่อนหน้า',
    },
  },
};
