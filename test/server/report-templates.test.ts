import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { aReportTemplate, aUserWith } from '../support/factory.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const BASE = '/api-system/report-templates';

interface Template {
  id: string;
  name: string;
  description: string | null;
  report_group: string;
  kind: 'print' | 'report';
  is_active: boolean;
  created_at: string;
  updated_at: string;
}
interface Page {
  data: Template[];
  paginate: { total: number; page: number; perpage: number; pages: number };
}

const tag = () => randomUUID().slice(0, 8);

describe.each(engines())('report templates on %s', (engine) => {
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    token = (await aUserWith(t, [])).token;
  });
  afterAll(() => t?.close());

  const list = async (query: string) => {
    const res = await t.fetch(`${BASE}${query}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Page;
  };
  it('when templates are listed with a search, then live ones come ordered by name and soft-deleted ones never appear', async () => {
    const word = `rt${tag()}`;
    const b = await aReportTemplate(t, { name: `B ${word}`, description: 'second' });
    const a = await aReportTemplate(t, { name: `A ${word}`, kind: 'report', is_active: false });
    await aReportTemplate(t, { name: `C ${word}`, deleted_at: new Date() });
    const page = await list(`?search=${word}`);
    expect(page.data.map((x) => x.id)).toEqual([a, b]);
    expect(page.paginate).toEqual({ total: 2, page: 1, perpage: 10, pages: 1 });
    expect(page.data[0]).toMatchObject({
      name: `A ${word}`,
      kind: 'report',
      is_active: false,
      report_group: 'PO',
      description: null,
    });
  });

  it('when kind and report_group are given, then only matching templates come back', async () => {
    const word = `kg${tag()}`;
    const printSc = await aReportTemplate(t, { name: `${word} print SC`, report_group: 'SC', kind: 'print' });
    await aReportTemplate(t, { name: `${word} report SC`, report_group: 'SC', kind: 'report' });
    await aReportTemplate(t, { name: `${word} print PC`, report_group: 'PC', kind: 'print' });
    const page = await list(`?search=${word}&kind=print&report_group=SC`);
    expect(page.data.map((x) => x.id)).toEqual([printSc]);
  });

  it('when the search matches the description, then the template is found', async () => {
    const word = `desc${tag()}`;
    const id = await aReportTemplate(t, { description: `A4 form ${word}` });
    expect((await list(`?search=${word}`)).data.map((x) => x.id)).toEqual([id]);
  });

  it('when perpage=-1, then every matching template comes on one page; a page size of 0 is refused', async () => {
    const word = `all${tag()}`;
    for (let i = 0; i < 12; i++) await aReportTemplate(t, { name: `${word} ${String(i).padStart(2, '0')}` });
    const all = await list(`?search=${word}&perpage=-1`);
    expect(all.data).toHaveLength(12);
    expect(all.paginate).toEqual({ total: 12, page: 1, perpage: -1, pages: 1 });
    const paged = await list(`?search=${word}&perpage=5&page=3`);
    expect(paged.data.map((x) => x.name)).toEqual([`${word} 10`, `${word} 11`]);
    expect((await t.fetch(`${BASE}?perpage=0`, { token })).status).toBe(400);
  });

  it('when kind is not print or report, then 400 is returned', async () => {
    expect((await t.fetch(`${BASE}?kind=invoice`, { token })).status).toBe(400);
  });

  it('when the demo data is read, then every one of the ten document types has a print template and some reports exist', async () => {
    const prints = await list('?kind=print&perpage=-1');
    expect(new Set(prints.data.map((x) => x.report_group))).toEqual(
      new Set(['PR', 'PO', 'GRN', 'SR', 'CN', 'IA', 'PC', 'SC', 'RFQ', 'INV']),
    );
    expect((await list('?kind=report&perpage=-1')).data.length).toBeGreaterThanOrEqual(5);
  });

  it('when nobody is signed in, then the list is 401', async () => {
    expect((await t.fetch(BASE)).status).toBe(401);
  });
});
