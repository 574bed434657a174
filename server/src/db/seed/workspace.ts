import { randomUUID } from 'node:crypto';
import { insertBatched, type SeedContext } from './context.js';

const STAGES = {
  pr: ['Department Head Approval', 'Purchasing Review', 'General Manager Approval'],
  po: ['Purchasing Manager Approval', 'Financial Controller Approval'],
  sr: ['Store Keeper Approval', 'Department Head Approval'],
} as const;
const STATUSES = ['pending', 'pending', 'pending', 'approved', 'draft', 'rejected', 'pending'] as const;
const DOCS_PER_TYPE = 21;

/** Demo documents spread over every BU and requestor; operator and admin wait on many of the pending ones. */
export async function seedWorkspace(ctx: SeedContext): Promise<void> {
  if (!ctx.config.seedDemo) return;
  const bus = Object.values(ctx.businessUnits);
  const requestors = ['somchai', 'suda', 'malee', 'niran', 'john', 'editor-a']
    .map((u) => ctx.users[u])
    .filter((x): x is string => !!x);
  const others = ['editor-a', 'viewer', 'malee', 'mapper'].map((u) => ctx.users[u]).filter((x): x is string => !!x);
  const documents: Array<Record<string, unknown>> = [];
  const waitingOn: Array<{ document_id: string; user_id: string }> = [];
  const today = Date.now();
  for (const docType of ['pr', 'po', 'sr'] as const) {
    for (let i = 0; i < DOCS_PER_TYPE; i++) {
      const bu = bus[i % bus.length]!;
      const status = STATUSES[i % STATUSES.length]!;
      const stages = STAGES[docType];
      const day = new Date(today - (i * 3 + (docType === 'po' ? 1 : docType === 'sr' ? 2 : 0)) * 86_400_000);
      const id = randomUUID();
      documents.push({
        id,
        doc_type: docType,
        doc_no: `${docType.toUpperCase()}-${day.getUTCFullYear()}-${String(100 + i).padStart(6, '0')}`,
        doc_date: day.toISOString().slice(0, 10),
        total_amount: (((i * 7919) % 90_000) + 850.25 + (docType === 'po' ? 12_000 : 0)).toFixed(2),
        currency_code: i % 9 === 8 ? 'USD' : 'THB',
        business_unit_id: bu.id,
        requestor_id: requestors[i % requestors.length] ?? null,
        workflow_current_stage: status === 'draft' ? 'Draft' : stages[i % stages.length]!,
        status,
        created_at: day.toISOString(),
      });
      if (status !== 'pending') continue;
      const approvers = new Set<string>();
      if (ctx.users.operator && i % 4 !== 3) approvers.add(ctx.users.operator);
      if (ctx.users.admin && i % 2 === 0) approvers.add(ctx.users.admin);
      const other = others[i % Math.max(1, others.length)];
      if (other) approvers.add(other);
      for (const user_id of approvers) waitingOn.push({ document_id: id, user_id });
    }
  }
  await insertBatched(ctx.trx, 'documents', documents);
  await insertBatched(ctx.trx, 'document_pending_approvers', waitingOn);

  const operator = ctx.users.operator;
  if (operator) {
    const widgets = [
      { dataset_id: 'approvals.my-pending-count', widget_type: 'kpi', title: 'Waiting for me' },
      { dataset_id: 'approvals.pending-by-type', widget_type: 'bar', title: null },
      { dataset_id: 'approvals.amount-by-type', widget_type: 'pie', title: 'Amount to approve' },
      { dataset_id: 'tenancy.new-business-units', widget_type: 'kpi', title: null },
    ];
    await insertBatched(
      ctx.trx,
      'dashboard_widgets',
      widgets.map((w, i) => ({ id: randomUUID(), user_id: operator, ...w, order_index: (i + 1) * 10 })),
    );
  }
}
