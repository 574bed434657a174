// The messages only the single sign-on screen shows; they load with it (see ScreenMessages), not with the console's
// first download.
import type { MessageModule, Messages } from '../lib/messages';

const en: Messages = {
  sso: {
    mappings: {
      intro:
        'An account that an identity provider creates at its first sign-in gets the grants of its groups. Later sign-ins change nothing, and existing accounts keep their grants.',
      provider: 'Identity provider',
      group: 'Group',
      group_help: 'A value of the provider’s groups claim, exactly as the provider sends it',
      permission: 'Permission',
      cluster: 'Cluster',
      all_clusters: 'All clusters',
      all_clusters_help: 'Leave empty for all clusters',
      platform_only: 'This permission holds on all clusters only.',
      created_at: 'Added at',
      not_configured: '%{id} (not configured)',
      add: 'Add mapping',
      add_title: 'Map a group to a grant',
      empty: 'No group gives grants yet',
      no_providers: 'No identity provider is configured on the server: there is nothing to map.',
      remove: 'Delete mapping',
      remove_title: 'Delete the mapping of "%{group}"?',
      remove_content:
        'Accounts created from now on no longer get "%{permission}" on %{scope}. Existing accounts keep their grants.',
      added: 'Group "%{group}" now gives "%{permission}"',
      removed: 'The mapping of "%{group}" was deleted',
      caption: 'Grants that single sign-on gives new accounts, by group',
      not_granting: 'Grants nothing',
      not_granting_help:
        'Its author may no longer grant this permission here (the permission was taken away, or the account deactivated), so new accounts do not get it. Delete the mapping and add it again as someone who holds the permission.',
    },
  },
};

const th: Messages = {
  sso: {
    mappings: {
      intro:
        'บัญชีที่ผู้ให้บริการยืนยันตัวตนสร้างขึ้นเมื่อเข้าสู่ระบบครั้งแรกจะได้รับสิทธิ์ตามกลุ่มของบัญชีนั้น การเข้าสู่ระบบครั้งต่อไปจะไม่เปลี่ยนแปลงอะไร และบัญชีที่มีอยู่แล้วจะคงสิทธิ์เดิมไว้',
      provider: 'ผู้ให้บริการยืนยันตัวตน',
      group: 'กลุ่ม',
      group_help: 'ค่าหนึ่งใน groups claim ของผู้ให้บริการ ตรงตามที่ผู้ให้บริการส่งมา',
      permission: 'สิทธิ์',
      cluster: 'คลัสเตอร์',
      all_clusters: 'ทุกคลัสเตอร์',
      all_clusters_help: 'เว้นว่างไว้เพื่อใช้กับทุกคลัสเตอร์',
      platform_only: 'สิทธิ์นี้ใช้ได้กับทุกคลัสเตอร์เท่านั้น',
      created_at: 'เพิ่มเมื่อ',
      not_configured: '%{id} (ไม่ได้ตั้งค่าไว้)',
      add: 'เพิ่มการจับคู่',
      add_title: 'จับคู่กลุ่มกับสิทธิ์',
      empty: 'ยังไม่มีกลุ่มใดที่ให้สิทธิ์',
      no_providers: 'ยังไม่ได้ตั้งค่าผู้ให้บริการยืนยันตัวตนบนเซิร์ฟเวอร์ จึงไม่มีสิ่งใดให้จับคู่',
      remove: 'ลบการจับคู่',
      remove_title: 'ลบการจับคู่ของ "%{group}" หรือไม่?',
      remove_content: 'บัญชีที่สร้างขึ้นต่อจากนี้จะไม่ได้รับ "%{permission}" บน %{scope} อีก บัญชีที่มีอยู่แล้วจะคงสิทธิ์เดิมไว้',
      added: 'กลุ่ม "%{group}" ให้สิทธิ์ "%{permission}" แล้ว',
      removed: 'ลบการจับคู่ของ "%{group}" แล้ว',
      caption: 'สิทธิ์ที่การลงชื่อเข้าใช้ครั้งเดียวให้กับบัญชีใหม่ ตามกลุ่ม',
      not_granting: 'ไม่ให้สิทธิ์',
      not_granting_help:
        'ผู้สร้างการจับคู่นี้ไม่สามารถให้สิทธิ์นี้ที่นี่ได้อีกแล้ว (สิทธิ์ถูกเพิกถอน หรือบัญชีถูกปิดใช้งาน) บัญชีใหม่จึงไม่ได้รับสิทธิ์นี้ โปรดลบการจับคู่แล้วเพิ่มใหม่โดยผู้ที่มีสิทธิ์นี้',
    },
  },
};

/** The single sign-on screen's messages, given to it by ScreenMessages. */
export const ssoScreenMessages: MessageModule = { en, th };
