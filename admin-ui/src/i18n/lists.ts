import type { Messages } from '../lib/messages';

/** The list screens' shared words: search, filters, columns, paging. */
export const en: Messages = {
  app: {
    list: {
      search: 'Search',
      filters: 'Filters',
      status: 'Status',
      show_deleted: 'Show soft-deleted',
      clear_filters: 'Clear',
      deleted_badge: 'Deleted',
      deleted_column: 'Deleted',
      created: 'Created',
      updated: 'Updated',
      actions: 'Actions',
      open: 'Open',
      no_actions: 'No actions available',
      restore: 'Restore',
      delete_title: 'Delete "%{name}"?',
      delete_content: 'The record is soft-deleted and hidden from the default list.',
      empty: 'Nothing here yet',
      no_results: 'No records match the search or filters',
      range: '%{from}–%{to} of %{count}',
      go_to_first: 'Go to the first page',
      go_to_last: 'Go to the last page',
      go_to_next: 'Go to the next page',
      go_to_previous: 'Go to the previous page',
    },
  },
};

export const th: Messages = {
  app: {
    list: {
      search: 'ค้นหา',
      filters: 'ตัวกรอง',
      status: 'สถานะ',
      show_deleted: 'แสดงรายการที่ถูกลบ',
      clear_filters: 'ล้าง',
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
