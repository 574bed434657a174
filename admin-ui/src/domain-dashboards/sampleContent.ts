import type { ApprovalDocType, PendingDoc } from '../types';
import type { DomainDashboard } from './domains';

/** Fixed sample content of the domain dashboards (the product shows illustrative figures here). */
export interface SampleKpi {
  key: string;
  value: number;
  /** Change against the previous period, when the tile shows one. */
  change?: number;
  format?: 'number' | 'currency' | 'percent';
}

interface SampleChart {
  key: string;
  kind: 'bar' | 'pie';
  points: { key: string; value: number }[];
}

interface SampleRow {
  doc_no: string;
  date: string;
  status: 'draft' | 'in_progress' | 'approved' | 'rejected' | 'completed';
  amount: number;
}

interface SampleDashboard {
  kpis: SampleKpi[];
  chart: SampleChart;
  /** Recent documents; absent where the domain has no document list. */
  recent?: { prefix: string; rows: SampleRow[] };
}

const months = (values: number[]) =>
  ['jun', 'jul', 'aug', 'sep', 'oct', 'nov'].map((key, i) => ({ key: `months.${key}`, value: values[i] ?? 0 }));

export const SAMPLE_CONTENT: Record<DomainDashboard, SampleDashboard> = {
  main: {
    kpis: [
      { key: 'open_documents', value: 128, change: 6 },
      { key: 'spend_this_month', value: 1_845_300, change: -42_150, format: 'currency' },
      { key: 'on_time_delivery', value: 94.2, change: 1.3, format: 'percent' },
      { key: 'stock_value', value: 6_320_900, format: 'currency' },
    ],
    chart: {
      key: 'spend_by_month',
      kind: 'bar',
      points: months([1_520_000, 1_610_000, 1_480_000, 1_730_000, 1_887_450, 1_845_300]),
    },
  },
  pr: {
    kpis: [
      { key: 'pr_created', value: 212, change: 14 },
      { key: 'pr_approved', value: 187, change: 9 },
      { key: 'pr_rejected', value: 11, change: -3 },
      { key: 'avg_approval_hours', value: 19.5, change: -2.5 },
    ],
    chart: {
      key: 'pr_by_status',
      kind: 'pie',
      points: [
        { key: 'statuses.draft', value: 14 },
        { key: 'statuses.in_progress', value: 23 },
        { key: 'statuses.approved', value: 187 },
        { key: 'statuses.rejected', value: 11 },
      ],
    },
    recent: {
      prefix: 'PR',
      rows: [
        { doc_no: 'PR-2026-000412', date: '2026-11-20', status: 'in_progress', amount: 18_450 },
        { doc_no: 'PR-2026-000411', date: '2026-11-19', status: 'approved', amount: 7_320 },
        { doc_no: 'PR-2026-000409', date: '2026-11-18', status: 'draft', amount: 2_150 },
        { doc_no: 'PR-2026-000405', date: '2026-11-17', status: 'rejected', amount: 45_000 },
      ],
    },
  },
  po: {
    kpis: [
      { key: 'po_issued', value: 164, change: 8 },
      { key: 'po_value', value: 3_912_400, change: 215_000, format: 'currency' },
      { key: 'po_awaiting_delivery', value: 37, change: -5 },
      { key: 'active_vendors', value: 58 },
    ],
    chart: {
      key: 'po_value_by_month',
      kind: 'bar',
      points: months([3_210_000, 3_405_000, 3_120_500, 3_688_000, 3_697_400, 3_912_400]),
    },
    recent: {
      prefix: 'PO',
      rows: [
        { doc_no: 'PO-2026-000233', date: '2026-11-20', status: 'in_progress', amount: 96_500 },
        { doc_no: 'PO-2026-000232', date: '2026-11-19', status: 'approved', amount: 12_780 },
        { doc_no: 'PO-2026-000230', date: '2026-11-18', status: 'completed', amount: 54_210 },
        { doc_no: 'PO-2026-000228', date: '2026-11-16', status: 'approved', amount: 8_900 },
      ],
    },
  },
  grn: {
    kpis: [
      { key: 'grn_received', value: 142, change: 12 },
      { key: 'grn_value', value: 2_874_600, change: 98_300, format: 'currency' },
      { key: 'grn_discrepancies', value: 6, change: -2 },
      { key: 'on_time_delivery', value: 94.2, change: 1.3, format: 'percent' },
    ],
    chart: { key: 'grn_by_month', kind: 'bar', points: months([118, 124, 109, 131, 130, 142]) },
    recent: {
      prefix: 'GRN',
      rows: [
        { doc_no: 'GRN-2026-000318', date: '2026-11-21', status: 'completed', amount: 54_210 },
        { doc_no: 'GRN-2026-000317', date: '2026-11-20', status: 'in_progress', amount: 23_400 },
        { doc_no: 'GRN-2026-000315', date: '2026-11-19', status: 'completed', amount: 8_900 },
      ],
    },
  },
  inventory: {
    kpis: [
      { key: 'stock_value', value: 6_320_900, format: 'currency' },
      { key: 'low_stock_items', value: 23, change: 4 },
      { key: 'stock_turnover', value: 7.8, change: 0.4 },
      { key: 'expiring_soon', value: 9, change: -1 },
    ],
    chart: {
      key: 'stock_by_category',
      kind: 'pie',
      points: [
        { key: 'categories.food', value: 2_410_000 },
        { key: 'categories.beverage', value: 1_870_500 },
        { key: 'categories.housekeeping', value: 1_120_400 },
        { key: 'categories.engineering', value: 920_000 },
      ],
    },
  },
  sr: {
    kpis: [
      { key: 'sr_created', value: 96, change: 5 },
      { key: 'sr_issued', value: 88, change: 7 },
      { key: 'sr_value', value: 412_350, change: -8_200, format: 'currency' },
      { key: 'avg_issue_hours', value: 6.4, change: -0.8 },
    ],
    chart: {
      key: 'sr_by_department',
      kind: 'bar',
      points: [
        { key: 'departments.kitchen', value: 41 },
        { key: 'departments.housekeeping', value: 22 },
        { key: 'departments.engineering', value: 17 },
        { key: 'departments.front_office', value: 16 },
      ],
    },
    recent: {
      prefix: 'SR',
      rows: [
        { doc_no: 'SR-2026-000144', date: '2026-11-21', status: 'in_progress', amount: 4_350 },
        { doc_no: 'SR-2026-000143', date: '2026-11-20', status: 'completed', amount: 12_900 },
        { doc_no: 'SR-2026-000141', date: '2026-11-19', status: 'approved', amount: 2_780 },
      ],
    },
  },
};

/** Which live feeds each dashboard shows: pending counts of pr/po/sr, and the approval summary or pending list. */
export const PENDING_DOC_OF: Record<ApprovalDocType, PendingDoc> = {
  pr: 'purchase-requests',
  po: 'purchase-orders',
  sr: 'store-requisitions',
};

interface DashboardFeeds {
  pendingCounts: ApprovalDocType[];
  approvals?: { source: 'summary' | 'pending'; docTypes: ApprovalDocType[] };
}

export const FEEDS: Record<DomainDashboard, DashboardFeeds> = {
  main: { pendingCounts: ['pr', 'po', 'sr'], approvals: { source: 'summary', docTypes: ['pr', 'po', 'sr'] } },
  pr: { pendingCounts: ['pr'], approvals: { source: 'pending', docTypes: ['pr'] } },
  po: { pendingCounts: ['po'], approvals: { source: 'pending', docTypes: ['po'] } },
  sr: { pendingCounts: ['sr'], approvals: { source: 'pending', docTypes: ['sr'] } },
  grn: { pendingCounts: [] },
  inventory: { pendingCounts: [] },
};
