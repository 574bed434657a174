import type { Messages } from '../../lib/messages';

export const th: Messages = {
  resources: {
    clusters: {
      name: 'คลัสเตอร์',
      create_title: 'สร้างคลัสเตอร์',
      edit_title: 'คลัสเตอร์ %{name}',
      fields: {
        logo: 'โลโก้',
        code: 'รหัส',
        alias_name: 'ชื่อย่อ',
        name: 'ชื่อ',
        max_license_bu: 'จำนวนหน่วยธุรกิจสูงสุด',
        is_active: 'ใช้งาน',
        bu_count: 'หน่วยธุรกิจ',
        users_count: 'ผู้ใช้',
      },
      cards: {
        details: 'รายละเอียดคลัสเตอร์',
        business_units: 'หน่วยธุรกิจ',
        users: 'ผู้ใช้',
      },
      licensed: 'ใช้สิทธิ์ %{count} จาก %{max}',
      bu_cap_reached: 'คลัสเตอร์มีหน่วยธุรกิจครบตามสิทธิ์แล้ว',
      no_business_units: 'คลัสเตอร์นี้ยังไม่มีหน่วยธุรกิจ',
      users_at_limit: 'จำนวนผู้ใช้ครบตามสิทธิ์รวมแล้ว (%{max})',
      alias_help: 'ไม่เกิน %{max} ตัวอักษร (%{count}/%{max})',
      validation: { alias_too_long: 'ไม่เกิน %{max} ตัวอักษร กรุณาย่อชื่อย่อ' },
      cap_below_use:
        'คลัสเตอร์นี้มีหน่วยธุรกิจอยู่แล้ว %{count} หน่วย เกินสิทธิ์ %{max} ที่ตั้งไว้ หน่วยเดิมยังอยู่ แต่จะเพิ่มหน่วยธุรกิจใหม่ไม่ได้จนกว่าจำนวนจะต่ำกว่าสิทธิ์',
    },
  },
  app: {
    record_changed: { title: 'มีผู้อื่นแก้ไขรายการนี้', ok: 'แสดงฉบับของเขา' },
    branding: {
      remove: 'ลบ',
      remove_title: 'ลบ%{kind}หรือไม่?',
      remove_message: 'ระบบจะลบ%{kind}ทันที โดยไม่ต้องกดบันทึกการเปลี่ยนแปลง อัปโหลดรูปใหม่เพื่อแทนที่ได้',
      removed: 'ลบ%{kind}แล้ว',
      remove_failed: 'ลบ%{kind}ไม่สำเร็จ: %{reason}',
    },
  },
};
