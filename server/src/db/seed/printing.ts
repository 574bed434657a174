import { randomUUID } from 'node:crypto';
import { DOCUMENT_TYPES, type DocumentTypeCode } from '../../modules/print-template-mappings/document-types.js';
import { insertBatched, type SeedContext } from './context.js';
import { STORY_IDS } from './story.js';

type Template = {
  id: string;
  name: string;
  description: string;
  report_group: DocumentTypeCode;
  kind: 'print' | 'report';
  is_active?: boolean;
};

// Print forms every document type has, plus the registers and analyses the report service offers for some.
const PRINT_VARIANTS = [
  {
    suffix: 'standard A4',
    description: (l: string) => `A4 portrait ${l.toLowerCase()} with line items, totals and approval signatures`,
  },
  { suffix: 'compact', description: (l: string) => `One-page ${l.toLowerCase()} without line notes, for quick filing` },
] as const;

const EXTRA_PRINTS: Array<[DocumentTypeCode, string, string]> = [
  [
    'PO',
    'Purchase Order — supplier copy (no prices)',
    'Purchase order for the receiving dock: quantities only, prices hidden',
  ],
  ['PO', 'Purchase Order — bilingual TH/EN', 'Thai and English purchase order with VAT breakdown'],
  ['GRN', 'Good Received Note — with lot and expiry', 'Receiving note listing lot numbers and expiry dates per line'],
  ['INV', 'Invoice — tax invoice (full)', 'Full tax invoice with tax id and branch number'],
];

const REPORTS: Array<[DocumentTypeCode, string, string]> = [
  ['PR', 'Purchase Request register', 'All purchase requests of a period with status and requestor'],
  ['PR', 'Open purchase requests by department', 'Purchase requests not yet converted to an order, by department'],
  ['PO', 'Purchase Order register', 'Purchase orders of a period with supplier and amount'],
  ['PO', 'Spend by supplier', 'Ordered amount per supplier and month'],
  ['GRN', 'Receiving log', 'Goods received per day with variance against the order'],
  ['SR', 'Store issue summary', 'Items issued per store and outlet'],
  ['IA', 'Adjustment reasons analysis', 'Inventory adjustments by reason code and value'],
  ['PC', 'Count variance report', 'Physical count against book quantity per location'],
  ['INV', 'Accounts payable ageing', 'Open supplier invoices by age bucket'],
];

export async function seedPrinting(ctx: SeedContext): Promise<void> {
  const actor = ctx.users.admin ?? null;
  const templates: Template[] = [];
  for (const { code, label } of DOCUMENT_TYPES) {
    for (const v of PRINT_VARIANTS) {
      templates.push({
        id: ctx.config.seedDemo && code === 'PO' && v.suffix === 'standard A4' ? STORY_IDS.poTemplate : randomUUID(),
        name: `${label} — ${v.suffix}`,
        description: v.description(label),
        report_group: code,
        kind: 'print',
      });
    }
  }
  for (const [group, name, description] of EXTRA_PRINTS)
    templates.push({ id: randomUUID(), name, description, report_group: group, kind: 'print' });
  for (const [group, name, description] of REPORTS)
    templates.push({ id: randomUUID(), name, description, report_group: group, kind: 'report' });
  // A retired form: still stored, switched off.
  templates.push({
    id: randomUUID(),
    name: 'Credit Note — legacy dot-matrix',
    description: 'Continuous-paper credit note of the old system',
    report_group: 'CN',
    kind: 'print',
    is_active: false,
  });

  await insertBatched(
    ctx.trx,
    'report_templates',
    templates.map((t) => ({ is_active: true, ...t, created_by_id: actor, updated_by_id: actor })),
  );
  for (const t of templates) ctx.reportTemplates.push({ id: t.id, reportGroup: t.report_group, kind: t.kind });
  // The templates are reference data; the mappings below are the demo.
  if (!ctx.config.seedDemo) return;

  const print = (name: string) => templates.find((t) => t.name === name)!.id;
  const standard = (code: DocumentTypeCode) =>
    templates.find((t) => t.report_group === code && t.kind === 'print' && t.name.endsWith('standard A4'))!.id;
  const compact = (code: DocumentTypeCode) =>
    templates.find((t) => t.report_group === code && t.kind === 'print' && t.name.endsWith('compact'))!.id;
  const list = (codes: string[]) => JSON.stringify(codes);

  // Every type prints by default with its standard form; some offer alternatives per business unit.
  // The PO's default is the mapping the contract's examples show (story.ts).
  const mappings: Array<Record<string, unknown>> = DOCUMENT_TYPES.map(({ code, label }) => ({
    id: code === 'PO' ? STORY_IDS.poMapping : randomUUID(),
    document_type: code,
    report_template_id: standard(code),
    is_default: true,
    display_label: label,
    display_order: 0,
  }));
  mappings.push(
    ...[
      {
        document_type: 'PR',
        report_template_id: compact('PR'),
        is_default: false,
        display_label: 'Purchase Request (compact)',
        display_order: 10,
      },
      {
        document_type: 'PO',
        report_template_id: print('Purchase Order — supplier copy (no prices)'),
        is_default: false,
        display_label: 'Supplier copy (no prices)',
        display_order: 10,
      },
      {
        document_type: 'PO',
        report_template_id: print('Purchase Order — bilingual TH/EN'),
        is_default: false,
        display_label: 'Purchase Order (TH/EN)',
        display_order: 20,
        allow_business_unit: list(['A-HQ', 'A-PKT', 'A-KBI']),
      },
      {
        document_type: 'GRN',
        report_template_id: print('Good Received Note — with lot and expiry'),
        is_default: false,
        display_label: 'Receiving note with lots',
        display_order: 10,
        deny_business_unit: list(['B-SKV']),
      },
      {
        document_type: 'SR',
        report_template_id: compact('SR'),
        is_default: false,
        display_label: 'Store Requisition (compact)',
        display_order: 10,
        allow_business_unit: list(['B-HQ', 'B-SKV']),
      },
      {
        document_type: 'INV',
        report_template_id: print('Invoice — tax invoice (full)'),
        is_default: false,
        display_label: 'Full tax invoice',
        display_order: 10,
      },
      {
        document_type: 'CN',
        report_template_id: compact('CN'),
        is_default: false,
        display_label: 'Credit Note (compact)',
        display_order: 10,
        is_active: false,
      },
    ].map((m) => ({ id: randomUUID(), ...m })),
  );
  await insertBatched(
    ctx.trx,
    'print_template_mappings',
    mappings.map((m) => ({ ...m, created_by_id: actor, updated_by_id: actor })),
  );
}
