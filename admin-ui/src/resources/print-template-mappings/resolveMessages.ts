// The words of the resolve tester; they load with it (see ScreenMessages), not with the console's first download.
// Its title stays with the resource's messages: the list's toolbar button shows it.
import type { MessageModule, Messages } from '../../lib/messages';

const en: Messages = {
  resources: {
    'print-template-mappings': {
      resolve: {
        subtitle: 'Which mapping prints a document type for a business unit, and why.',
        bu_code: 'Business unit code',
        bu_code_help: 'Leave blank to test without a business unit.',
        unknown_bu:
          'No live business unit has the code %{code}: only allow and deny lists that name it decide, as for any code.',
        submit: 'Resolve',
        idle: 'Choose a document type and press Resolve.',
        loading: 'Resolving',
        winner: 'Prints with: %{template}',
        winner_for_bu: 'This is the template a %{document_type} of business unit %{bu} prints with.',
        winner_no_bu: 'This is the template a %{document_type} prints with when no business unit is given.',
        // English shows the server's own explanation of each outcome (%{server}); Thai says it in Thai.
        reasons: {
          selected: '%{server}',
          lower_rank: '%{server}',
          inactive: '%{server}',
          denied: '%{server}',
          not_in_allow_list: '%{server}',
        },
        none: 'No active mapping permits this business unit.',
        no_candidates: 'There are no mappings for this document type.',
        error: 'Resolve failed: %{message}',
        explanation: 'Explanation',
        yes: 'Yes',
        no: 'No',
        columns: {
          outcome: 'Outcome',
          template: 'Template',
          display_label: 'Menu label',
          is_default: 'Default',
          display_order: 'Order',
          is_active: 'Active',
          reason: 'Reason',
        },
        outcomes: {
          selected: 'Selected',
          lower_rank: 'Lower rank',
          inactive: 'Inactive',
          denied: 'Denied',
          not_in_allow_list: 'Not in allow list',
        },
      },
    },
  },
};

const th: Messages = {
  resources: {
    'print-template-mappings': {
      resolve: {
        subtitle: 'การจับคู่ใดใช้พิมพ์ประเภทเอกสารนี้สำหรับหน่วยธุรกิจ และเพราะเหตุใด',
        bu_code: 'รหัสหน่วยธุรกิจ',
        bu_code_help: 'เว้นว่างเพื่อทดสอบโดยไม่ระบุหน่วยธุรกิจ',
        unknown_bu: 'ไม่มีหน่วยธุรกิจที่ใช้งานอยู่ซึ่งมีรหัส %{code} ผลลัพธ์จึงขึ้นกับรายการอนุญาตและปฏิเสธที่ระบุรหัสนี้เท่านั้น',
        submit: 'ทดสอบ',
        idle: 'เลือกประเภทเอกสารแล้วกดทดสอบ',
        loading: 'กำลังตรวจสอบ',
        winner: 'พิมพ์ด้วย: %{template}',
        winner_for_bu: 'เอกสาร %{document_type} ของหน่วยธุรกิจ %{bu} จะพิมพ์ด้วยแม่แบบนี้',
        winner_no_bu: 'เอกสาร %{document_type} จะพิมพ์ด้วยแม่แบบนี้เมื่อไม่ระบุหน่วยธุรกิจ',
        reasons: {
          selected: 'อนุญาต และอยู่ลำดับแรก (ค่าเริ่มต้นมาก่อน แล้วตามลำดับการแสดง)',
          lower_rank: 'อนุญาต แต่อยู่ลำดับหลังการจับคู่ที่ถูกเลือก',
          inactive: 'ไม่ใช้งาน จึงถูกข้าม',
          denied: 'หน่วยธุรกิจ %{bu} อยู่ในรายการไม่อนุญาต (รายการไม่อนุญาตมีผลเหนือรายการอนุญาต)',
          not_in_allow_list: 'หน่วยธุรกิจ %{bu} ไม่อยู่ในรายการอนุญาต',
        },
        none: 'ไม่มีการจับคู่ที่ใช้งานซึ่งอนุญาตหน่วยธุรกิจนี้',
        no_candidates: 'ไม่มีการจับคู่สำหรับประเภทเอกสารนี้',
        error: 'ตรวจสอบไม่สำเร็จ: %{message}',
        explanation: 'คำอธิบาย',
        yes: 'ใช่',
        no: 'ไม่',
        columns: {
          outcome: 'ผลลัพธ์',
          template: 'แม่แบบ',
          display_label: 'ชื่อในเมนู',
          is_default: 'ค่าเริ่มต้น',
          display_order: 'ลำดับ',
          is_active: 'ใช้งาน',
          reason: 'เหตุผล',
        },
        outcomes: {
          selected: 'ถูกเลือก',
          lower_rank: 'ลำดับต่ำกว่า',
          inactive: 'ไม่ใช้งาน',
          denied: 'ไม่อนุญาต',
          not_in_allow_list: 'ไม่อยู่ในรายการอนุญาต',
        },
      },
    },
  },
};

export const resolveScreenMessages: MessageModule = { en, th };
/** As ScreenMessages wants them: a constant list. */
export const RESOLVE_SCREEN_MESSAGES = [resolveScreenMessages] as const;
