// The words only the members cards and their dialogs say; they load with those cards (see ScreenMessages).
import type { MessageModule, Messages } from '../../lib/messages';

const en: Messages = {
  members: {
    edit: 'Change role',
    actions: 'Actions',
    stale:
      'Someone else changed this membership after you opened it. The list now shows their version: open it again to make your change.',
    from_cluster: 'Only users of %{cluster} can join this business unit.',
    cluster_has_no_users: '%{cluster} has no users yet. Add the person to the cluster first; then they can join here.',
    all_are_members:
      'Every user of %{cluster} is already a member here. To add someone else, add them to the cluster first.',
    no_match: 'No user of %{cluster} matches "%{search}".',
    add_to_cluster: 'Add a user to %{cluster}',
    this_cluster: 'the cluster',
  },
};

const th: Messages = {
  members: {
    edit: 'เปลี่ยนบทบาท',
    actions: 'การดำเนินการ',
    stale: 'มีผู้อื่นแก้ไขสมาชิกภาพนี้หลังจากที่คุณเปิด รายการแสดงฉบับของเขาแล้ว กรุณาเปิดอีกครั้งเพื่อแก้ไข',
    from_cluster: 'เฉพาะผู้ใช้ของ %{cluster} เท่านั้นที่เข้าร่วมหน่วยธุรกิจนี้ได้',
    cluster_has_no_users: '%{cluster} ยังไม่มีผู้ใช้ เพิ่มบุคคลนั้นเข้าคลัสเตอร์ก่อน แล้วจึงเพิ่มเข้าหน่วยธุรกิจนี้ได้',
    all_are_members: 'ผู้ใช้ทุกคนของ %{cluster} เป็นสมาชิกที่นี่แล้ว หากต้องการเพิ่มผู้อื่น ให้เพิ่มเข้าคลัสเตอร์ก่อน',
    no_match: 'ไม่มีผู้ใช้ของ %{cluster} ที่ตรงกับ "%{search}"',
    add_to_cluster: 'เพิ่มผู้ใช้เข้า %{cluster}',
    this_cluster: 'คลัสเตอร์',
  },
};

export const memberScreenMessages: MessageModule = { en, th };
