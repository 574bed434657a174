import type { Messages } from '../../lib/messages';

export const en: Messages = {
  resources: {
    clusters: {
      name: 'Cluster |||| Clusters',
      create_title: 'New cluster',
      edit_title: 'Cluster %{name}',
      fields: {
        logo: 'Logo',
        code: 'Code',
        alias_name: 'Alias',
        name: 'Name',
        max_license_bu: 'Max licensed BUs',
        is_active: 'Active',
        bu_count: 'BUs',
        users_count: 'Users',
      },
      cards: {
        details: 'Cluster Details',
        business_units: 'Business units',
        users: 'Users',
      },
      licensed: '%{count} of %{max} licensed',
      bu_cap_reached: 'The cluster has reached its business unit licence limit',
      no_business_units: 'This cluster has no business units yet',
      users_at_limit: 'Users have reached the licensed total (%{max})',
      alias_help: 'Up to %{max} characters (%{count}/%{max})',
      validation: { alias_too_long: 'At most %{max} characters: shorten the alias' },
      cap_below_use:
        'This cluster already has %{count} business units, more than a cap of %{max}. They stay, but no business unit can be added until the count is below the cap.',
    },
  },
  // The record pages' shared parts (the stale-save dialog, image removal), with the clusters they first served.
  app: {
    record_changed: { title: 'Changed by someone else', ok: 'Show their version' },
    branding: {
      remove: 'Remove',
      remove_title: 'Remove the %{kind}?',
      remove_message: 'The %{kind} is removed at once, apart from Save Changes. Upload a new one to replace it.',
      removed: '%{kind} removed',
      remove_failed: '%{kind} was not removed: %{reason}',
    },
  },
};

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
