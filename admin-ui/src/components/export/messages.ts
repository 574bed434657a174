// The messages only the export dialog shows; they load with it (see ScreenMessages), not with the console's first
// download.
import type { TranslateFunction } from 'react-admin';
import type { MessageModule, Messages } from '../../lib/messages';
import { useScreenTranslate } from '../history/ScreenMessages';

const en: Messages = {
  export: {
    title: 'Export to CSV',
    hint: 'The file holds the rows of the list with its search, filters and sort.',
    this_page: 'This page (%{count} row) |||| This page (%{count} rows)',
    all: 'All %{count} matching row |||| All %{count} matching rows',
    progress: 'Exporting… %{count} row |||| Exporting… %{count} rows',
    failed: 'The export failed: %{reason}',
  },
};

const th: Messages = {
  export: {
    title: 'ส่งออกเป็น CSV',
    hint: 'ไฟล์จะมีรายการตามการค้นหา ตัวกรอง และการเรียงลำดับของรายการนี้',
    this_page: 'หน้านี้ (%{count} รายการ)',
    all: 'ทั้งหมดที่ตรงกัน %{count} รายการ',
    progress: 'กำลังส่งออก… %{count} รายการ',
    failed: 'ส่งออกไม่สำเร็จ: %{reason}',
  },
};

export const exportScreenMessages: MessageModule = { en, th };

const EXPORT_MODULES = [exportScreenMessages];

/** Translates the export keys from this module and every other key as the console does. */
export const useExportTranslate = (): TranslateFunction => useScreenTranslate(EXPORT_MODULES);
