// The messages only the lists with bulk actions show; they load with those lists (see ScreenMessages), not with the
// console's first download.
import type { TranslateFunction } from 'react-admin';
import type { MessageModule, Messages } from '../../lib/messages';
import { useScreenTranslate } from '../history/ScreenMessages';

const en: Messages = {
  bulk: {
    select_all: 'Select every row on this page',
    select_row: 'Select %{name}',
    selected: '%{smart_count} selected',
    clear: 'Clear selection',
    running: 'Applying to %{smart_count} row… |||| Applying to %{smart_count} rows…',
    done: '%{action}: done for %{smart_count} row |||| %{action}: done for %{smart_count} rows',
    failed: 'The bulk action failed: %{reason}',
    actions: {
      deactivate: 'Deactivate',
      activate: 'Activate',
      reactivate: 'Reactivate',
      delete: 'Delete',
      restore: 'Restore',
    },
    confirm: {
      delete_title: 'Delete %{smart_count} row? |||| Delete %{smart_count} rows?',
      delete_content:
        'The selected rows are soft-deleted and hidden from the default list. Each is checked against your permissions.',
      deactivate_title: 'Deactivate %{smart_count} row? |||| Deactivate %{smart_count} rows?',
      deactivate_content: 'The selected rows are deactivated. Each is checked against your permissions.',
    },
    results: {
      title: '%{action}: some rows were not changed',
      summary: '%{succeeded} succeeded, %{failed} failed.',
      row: 'Row',
      reason: 'Reason',
      unknown_reason: 'Refused (HTTP %{status})',
    },
  },
};

const th: Messages = {
  bulk: {
    select_all: 'เลือกทุกแถวในหน้านี้',
    select_row: 'เลือก %{name}',
    selected: 'เลือกแล้ว %{smart_count} รายการ',
    clear: 'ล้างการเลือก',
    running: 'กำลังดำเนินการกับ %{smart_count} รายการ…',
    done: '%{action}: สำเร็จ %{smart_count} รายการ',
    failed: 'การดำเนินการแบบกลุ่มล้มเหลว: %{reason}',
    actions: { deactivate: 'ปิดใช้งาน', activate: 'เปิดใช้งาน', reactivate: 'เปิดใช้งานอีกครั้ง', delete: 'ลบ', restore: 'กู้คืน' },
    confirm: {
      delete_title: 'ลบ %{smart_count} รายการหรือไม่?',
      delete_content: 'รายการที่เลือกจะถูกลบแบบซ่อนและไม่แสดงในรายการปกติ ระบบจะตรวจสิทธิ์ของคุณทีละรายการ',
      deactivate_title: 'ปิดใช้งาน %{smart_count} รายการหรือไม่?',
      deactivate_content: 'รายการที่เลือกจะถูกปิดใช้งาน ระบบจะตรวจสิทธิ์ของคุณทีละรายการ',
    },
    results: {
      title: '%{action}: บางรายการไม่ได้ถูกเปลี่ยนแปลง',
      summary: 'สำเร็จ %{succeeded} รายการ ไม่สำเร็จ %{failed} รายการ',
      row: 'รายการ',
      reason: 'เหตุผล',
      unknown_reason: 'ถูกปฏิเสธ (HTTP %{status})',
    },
  },
};

export const bulkScreenMessages: MessageModule = { en, th };

const BULK_MODULES = [bulkScreenMessages];

/** Translates the bulk keys from this module and every other key as the console does. */
export const useBulkTranslate = (): TranslateFunction => useScreenTranslate(BULK_MODULES);
