import { describe, expect, it } from 'vitest';
import type { ReportTemplate } from '../../types';
import { normaliseBuCodes, orderTemplates } from './templateOrder';
import { groupByDocumentType } from './groupByDocumentType';

const tpl = (
  id: string,
  name: string,
  kind: 'print' | 'report',
  report_group: string,
  is_active = true,
): ReportTemplate => ({
  id,
  name,
  description: null,
  kind,
  report_group,
  is_active,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

const templates = [
  tpl('1', 'Alpha PR report', 'report', 'PO'),
  tpl('2', 'Purchase Order — standard', 'print', 'PO'),
  tpl('3', 'Goods receipt', 'print', 'GRN'),
  tpl('4', 'Purchase Order — compact', 'print', 'PO'),
  tpl('5', 'Old PO layout', 'print', 'PO', false),
];

describe('orderTemplates', () => {
  it('when a document type is chosen, then its print templates float to the top (active first, by name)', () => {
    const ordered = orderTemplates(templates, 'PO');
    expect(ordered.map((o) => [o.template.id, o.matches])).toEqual([
      ['4', true],
      ['2', true],
      ['5', true],
      ['1', false],
      ['3', false],
    ]);
  });

  it('when a report (not print) template has the same group, then it does not float', () => {
    expect(orderTemplates(templates, 'PO').find((o) => o.template.id === '1')?.matches).toBe(false);
  });

  it('when no document type is chosen, then nothing matches and all are by name', () => {
    const ordered = orderTemplates(templates, '');
    expect(ordered.every((o) => !o.matches)).toBe(true);
    expect(ordered.map((o) => o.template.id)).toEqual(['1', '3', '4', '2', '5']);
  });
});

describe('normaliseBuCodes', () => {
  it('keeps trimmed, non-blank strings once, in order; drops non-strings', () => {
    expect(normaliseBuCodes([' BU-PKT ', 'BU-KBI', '', 'BU-PKT', 42, null])).toEqual(['BU-PKT', 'BU-KBI']);
    expect(normaliseBuCodes(null)).toEqual([]);
  });
});

describe('groupByDocumentType', () => {
  it('groups a page by document type in first-seen order; default first, then display order', () => {
    const rows = [
      { id: 'a', document_type: 'PO', is_default: false, display_order: 5 },
      { id: 'b', document_type: 'PO', is_default: true, display_order: 9 },
      { id: 'c', document_type: 'GRN', is_default: false, display_order: 0 },
      { id: 'd', document_type: 'PO', is_default: false, display_order: 1 },
    ];
    expect(groupByDocumentType(rows).map((g) => [g.documentType, g.rows.map((r) => r.id)])).toEqual([
      ['PO', ['b', 'd', 'a']],
      ['GRN', ['c']],
    ]);
  });
});
