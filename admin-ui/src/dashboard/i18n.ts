import type { Messages } from '../lib/messages';

export const en: Messages = {
  dashboard: {
    // The dataset catalog in the console's words, by dataset id (the API names them in English).
    datasets: {
      tenancy: {
        'active-clusters': { name: 'Active clusters', description: 'Live clusters whose status is active.' },
        'active-business-units': {
          name: 'Active business units',
          description: 'Live business units whose status is active, over all clusters.',
        },
        'new-business-units': {
          name: 'New business units',
          description: 'Business units created in the last 30 days, against the 30 days before.',
        },
        'licence-use-by-cluster': {
          name: 'Licence use by cluster',
          description: 'Licensed users (business-unit memberships of live business units) per cluster.',
        },
      },
      users: {
        'by-role': {
          name: 'Users by role',
          description: 'Active users by their highest role: super admin, cluster admin, cluster user or none.',
        },
      },
      printing: {
        'mappings-by-document-type': {
          name: 'Print mappings by document type',
          description: 'Live print template mappings for each of the ten document types.',
        },
      },
      approvals: {
        'my-pending-count': { name: 'Waiting for me', description: 'Pending documents now waiting on your approval.' },
        'my-pending-amount': {
          name: 'Amount waiting for me',
          description: 'Total amount of the pending documents waiting on your approval.',
        },
        'pending-by-type': {
          name: 'My pending approvals by type',
          description: 'Pending purchase requests, purchase orders and store requisitions waiting on you.',
        },
        'amount-by-type': {
          name: 'My approval amount by type',
          description: 'Total amount waiting on your approval, per document type.',
        },
      },
    },
    categories: { tenancy: 'Tenancy', users: 'Users', printing: 'Printing', approvals: 'Approvals' },
    // The fixed categories the API names in English in a chart (roles, document types), by their label's key.
    chart_labels: {
      super_admin: 'Super admin',
      cluster_admin: 'Cluster admin',
      cluster_user: 'Cluster user',
      no_cluster: 'No cluster',
      purchase_request: 'Purchase Request',
      purchase_order: 'Purchase Order',
      store_requisition: 'Store Requisition',
    },
    units: {
      clusters: 'clusters',
      business_units: 'business units',
      users: 'users',
      mappings: 'mappings',
      documents: 'documents',
      amount: 'amount',
    },
    title: 'My workspace',
    add_widget: 'Add widget',
    loading: 'Loading widgets',
    load_failed: 'The widgets could not be loaded.',
    empty: {
      title: 'Your workspace is empty',
      body: 'Pin a dataset to see it here as a KPI or chart card.',
    },
    card: {
      loading: 'Loading values',
      error: 'The values of this dataset could not be loaded.',
      retry: 'Retry',
      no_data: 'No data',
      other: 'Other',
      unsupported: 'These values cannot be shown on this card.',
      delta_up: 'Up',
      delta_down: 'Down',
      delta_flat: 'Unchanged',
      vs_previous: 'vs %{prev} before',
      currency: 'Currency',
      amounts_in: 'Amounts in %{currency}',
      rename: 'Rename',
      title_input: 'Widget title',
      remove: 'Remove',
      drag: 'Drag to reorder',
    },
    remove: {
      title: 'Remove widget',
      content: 'Remove "%{name}" from your workspace?',
    },
    widget_types: { kpi: 'KPI', gauge: 'Gauge', pie: 'Pie', bar: 'Bar' },
    shapes: { scalar: 'Number', scalar_delta: 'Number with change', categorical: 'Categories' },
    picker: {
      title: 'Add a widget',
      search: 'Search datasets',
      loading: 'Loading datasets',
      error: 'The dataset catalog could not be loaded.',
      no_match: 'No dataset matches your search.',
      none_left: 'Every dataset is already on your workspace.',
      datasets: 'Datasets',
      widget_type: 'Show as',
      widget_title: 'Title',
      widget_title_help: "Optional; the dataset's name is used when blank.",
      add: 'Add',
    },
    notifications: {
      reorder_failed: 'The new order could not be saved.',
      rename_failed: 'The widget could not be renamed.',
      removed: 'Widget removed',
      remove_failed: 'The widget could not be removed.',
      added: 'Widget added',
      add_failed: 'The widget could not be added: %{reason}',
    },
  },
};

export const th: Messages = {
  dashboard: {
    datasets: {
      tenancy: {
        'active-clusters': { name: 'คลัสเตอร์ที่ใช้งาน', description: 'คลัสเตอร์ที่ยังไม่ถูกลบและมีสถานะใช้งาน' },
        'active-business-units': {
          name: 'หน่วยธุรกิจที่ใช้งาน',
          description: 'หน่วยธุรกิจที่ยังไม่ถูกลบและมีสถานะใช้งาน จากทุกคลัสเตอร์',
        },
        'new-business-units': { name: 'หน่วยธุรกิจใหม่', description: 'หน่วยธุรกิจที่สร้างใน 30 วันล่าสุด เทียบกับ 30 วันก่อนหน้า' },
        'licence-use-by-cluster': {
          name: 'การใช้สิทธิ์ตามคลัสเตอร์',
          description: 'ผู้ใช้ที่ใช้สิทธิ์ (สมาชิกของหน่วยธุรกิจที่ยังใช้งาน) ของแต่ละคลัสเตอร์',
        },
      },
      users: {
        'by-role': {
          name: 'ผู้ใช้ตามบทบาท',
          description: 'ผู้ใช้ที่ใช้งานตามบทบาทสูงสุด: ผู้ดูแลระบบสูงสุด ผู้ดูแลคลัสเตอร์ ผู้ใช้คลัสเตอร์ หรือไม่มี',
        },
      },
      printing: {
        'mappings-by-document-type': {
          name: 'การจับคู่แม่แบบพิมพ์ตามประเภทเอกสาร',
          description: 'การจับคู่แม่แบบพิมพ์ที่ใช้อยู่ของเอกสารแต่ละประเภททั้งสิบ',
        },
      },
      approvals: {
        'my-pending-count': { name: 'รอฉันอนุมัติ', description: 'เอกสารที่กำลังรอการอนุมัติของคุณ' },
        'my-pending-amount': { name: 'ยอดเงินที่รอฉันอนุมัติ', description: 'ยอดรวมของเอกสารที่รอการอนุมัติของคุณ' },
        'pending-by-type': { name: 'รายการรออนุมัติของฉันตามประเภท', description: 'ใบขอซื้อ ใบสั่งซื้อ และใบเบิกสินค้าที่รอคุณอนุมัติ' },
        'amount-by-type': {
          name: 'ยอดเงินรออนุมัติของฉันตามประเภท',
          description: 'ยอดเงินรวมที่รอการอนุมัติของคุณ แยกตามประเภทเอกสาร',
        },
      },
    },
    categories: { tenancy: 'การเช่าใช้', users: 'ผู้ใช้', printing: 'การพิมพ์', approvals: 'การอนุมัติ' },
    chart_labels: {
      super_admin: 'ผู้ดูแลระบบสูงสุด',
      cluster_admin: 'ผู้ดูแลคลัสเตอร์',
      cluster_user: 'ผู้ใช้คลัสเตอร์',
      no_cluster: 'ไม่มีคลัสเตอร์',
      purchase_request: 'ใบขอซื้อ',
      purchase_order: 'ใบสั่งซื้อ',
      store_requisition: 'ใบเบิกสินค้า',
    },
    units: {
      clusters: 'คลัสเตอร์',
      business_units: 'หน่วยธุรกิจ',
      users: 'ผู้ใช้',
      mappings: 'การจับคู่',
      documents: 'เอกสาร',
      amount: 'ยอดเงิน',
    },
    title: 'พื้นที่ทำงานของฉัน',
    add_widget: 'เพิ่มวิดเจ็ต',
    loading: 'กำลังโหลดวิดเจ็ต',
    load_failed: 'โหลดวิดเจ็ตไม่สำเร็จ',
    empty: {
      title: 'พื้นที่ทำงานของคุณยังว่างอยู่',
      body: 'ปักหมุดชุดข้อมูลเพื่อแสดงเป็นการ์ด KPI หรือแผนภูมิที่นี่',
    },
    card: {
      loading: 'กำลังโหลดค่า',
      error: 'โหลดค่าของชุดข้อมูลนี้ไม่สำเร็จ',
      retry: 'ลองอีกครั้ง',
      no_data: 'ไม่มีข้อมูล',
      other: 'อื่น ๆ',
      unsupported: 'ไม่สามารถแสดงค่าเหล่านี้บนการ์ดนี้ได้',
      delta_up: 'เพิ่มขึ้น',
      delta_down: 'ลดลง',
      delta_flat: 'ไม่เปลี่ยนแปลง',
      vs_previous: 'เทียบกับ %{prev} ก่อนหน้า',
      currency: 'สกุลเงิน',
      amounts_in: 'จำนวนเงินเป็น %{currency}',
      rename: 'เปลี่ยนชื่อ',
      title_input: 'ชื่อวิดเจ็ต',
      remove: 'นำออก',
      drag: 'ลากเพื่อจัดลำดับ',
    },
    remove: {
      title: 'นำวิดเจ็ตออก',
      content: 'นำ "%{name}" ออกจากพื้นที่ทำงานหรือไม่?',
    },
    widget_types: { kpi: 'KPI', gauge: 'มาตรวัด', pie: 'วงกลม', bar: 'แท่ง' },
    shapes: { scalar: 'ตัวเลข', scalar_delta: 'ตัวเลขพร้อมการเปลี่ยนแปลง', categorical: 'หมวดหมู่' },
    picker: {
      title: 'เพิ่มวิดเจ็ต',
      search: 'ค้นหาชุดข้อมูล',
      loading: 'กำลังโหลดชุดข้อมูล',
      error: 'โหลดแคตตาล็อกชุดข้อมูลไม่สำเร็จ',
      no_match: 'ไม่มีชุดข้อมูลที่ตรงกับคำค้นหา',
      none_left: 'ทุกชุดข้อมูลอยู่บนพื้นที่ทำงานของคุณแล้ว',
      datasets: 'ชุดข้อมูล',
      widget_type: 'แสดงเป็น',
      widget_title: 'ชื่อ',
      widget_title_help: 'ไม่บังคับ หากเว้นว่างจะใช้ชื่อชุดข้อมูล',
      add: 'เพิ่ม',
    },
    notifications: {
      reorder_failed: 'บันทึกลำดับใหม่ไม่สำเร็จ',
      rename_failed: 'เปลี่ยนชื่อวิดเจ็ตไม่สำเร็จ',
      removed: 'นำวิดเจ็ตออกแล้ว',
      remove_failed: 'นำวิดเจ็ตออกไม่สำเร็จ',
      added: 'เพิ่มวิดเจ็ตแล้ว',
      add_failed: 'เพิ่มวิดเจ็ตไม่สำเร็จ: %{reason}',
    },
  },
};
