import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { aReportTemplate, asFixture, aUserWith } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

type Mapping = components['schemas']['PrintTemplateMapping'];
type MappingPage = components['schemas']['PrintTemplateMappingPage'];

const BASE = '/api-system/print-template-mappings';
/** More than one of the export's internal reads (100 rows), so the file has to join several. */
const COUNT = 130;
const HEADER = [
  'Document Type',
  'Template',
  'Menu Label',
  'Default',
  'Display Order',
  'Allowed Business Units',
  'Denied Business Units',
  'Status',
  'Unknown Business Unit Codes',
  'Created',
];

const line = (m: Mapping) => [
  m.document_type,
  m.template_name ?? '',
  m.display_label ?? '',
  m.is_default ? 'Yes' : 'No',
  String(m.display_order),
  (m.allow_business_unit ?? []).join(' '),
  (m.deny_business_unit ?? []).join(' '),
  m.is_active ? 'Active' : 'Inactive',
  (m.unknown_business_unit_codes ?? []).join(' '),
  m.created_at,
];

describe.each(engines())('print template mapping export on %s', (engine) => {
  let t: TestServer;
  let reader: string;
  const tag = `mx${randomUUID().slice(0, 6)}`;
  const query = (q: string) => `search=${tag}&${q}`;

  async function download(q: string): Promise<{ res: Response; header: string[]; rows: string[][] }> {
    const res = await t.fetch(`${BASE}/export?${q}`, { token: reader });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString()).toBe(200);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed: string[][] = parse(bytes.subarray(3).toString('utf8'), {});
    const [header = [], ...rows] = parsed;
    return { res, header, rows };
  }

  /** Every row the list shows for this query, read a page at a time. */
  async function listed(q: string): Promise<Mapping[]> {
    const out: Mapping[] = [];
    for (let page = 1; ; page++) {
      const res = await t.fetch(`${BASE}?${q}&perpage=100&page=${page}`, { token: reader });
      expect(res.status).toBe(200);
      const body = (await res.json()) as MappingPage;
      out.push(...body.data);
      if (page >= body.paginate.pages) return out;
    }
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    reader = (await aUserWith(t, [])).token;
    const templateId = await aReportTemplate(t, { name: `Export template ${tag}`, report_group: 'GRN' });
    // Test data in one statement: every third inactive, every tenth on another document type, one formula-like label.
    await asFixture(t, (trx) =>
      trx('print_template_mappings').insert(
        Array.from({ length: COUNT }, (_, i) => ({
          document_type: i % 10 === 0 ? 'SC' : 'GRN',
          report_template_id: templateId,
          is_default: false,
          display_label: i === 7 ? `=HYPERLINK("x") ${tag}` : `${tag} ${String(i).padStart(3, '0')}`,
          display_order: i,
          deny_business_unit: JSON.stringify(i % 2 === 0 ? ['NO-SUCH-BU'] : []),
          is_active: i % 3 !== 0,
        })),
      ),
    );
  }, 120_000);
  afterAll(() => t?.close());

  it('when every matching mapping is exported, then the file holds all of them, row for row as the list reads them', async () => {
    const { res, header, rows } = await download(query('sort=display_order:asc'));
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="print-template-mappings-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(header).toEqual(HEADER);
    expect(rows).toHaveLength(COUNT);
    const list = await listed(query('sort=display_order:asc'));
    expect(rows).toEqual(
      list.map((m) => {
        const cells = line(m);
        // The formula guard keeps a label a spreadsheet would evaluate as text.
        if (m.display_label?.startsWith('=')) cells[2] = `'${m.display_label}`;
        return cells;
      }),
    );
    expect(rows.filter((r) => r[8] === 'NO-SUCH-BU')).toHaveLength(COUNT / 2);
  });

  it('when the list is filtered by document type and active only, then the export holds exactly those rows', async () => {
    const { rows } = await download(query('document_type=SC&active_only=true&sort=display_order:desc'));
    const expected = await listed(query('document_type=SC&active_only=true&sort=display_order:desc'));
    expect(expected.length).toBeGreaterThan(0);
    expect(rows.map((r) => r[2])).toEqual(expected.map((m) => m.display_label));
    expect(rows.every((r) => r[0] === 'SC' && r[7] === 'Active')).toBe(true);
  });

  it('when page and perpage are given, then the export is that page only', async () => {
    const { rows } = await download(query('sort=display_order:asc&page=2&perpage=25'));
    expect(rows.map((r) => r[4])).toEqual(Array.from({ length: 25 }, (_, i) => String(25 + i)));
  });

  it('when the sort names an unknown field, then 400; without a token, 401', async () => {
    const bad = await t.fetch(`${BASE}/export?sort=${encodeURIComponent('no_such_field:asc')}`, { token: reader });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    const anonymous = await t.fetch(`${BASE}/export`);
    expect(anonymous.status).toBe(401);
  });
});
