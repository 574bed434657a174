import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mappingRepository } from '../../server/src/modules/print-template-mappings/repository.js';
import { aReportTemplate, aStoredMapping, aUserWith } from '../support/factory.js';
import { rawRows, type PrintTemplateMappingRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const BASE = '/api-system/print-template-mappings';
const MANAGE = 'print_template_mapping.manage';

interface Mapping {
  id: string;
  document_type: string;
  report_template_id: string;
  is_default: boolean;
  display_label: string | null;
  display_order: number;
  allow_business_unit: string[] | null;
  deny_business_unit: string[] | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  created_by_id: string | null;
  updated_by_id: string | null;
  deleted_at: string | null;
  deleted_by_id: string | null;
  template_name: string | null;
  template_group: string | null;
  created_by_name: string | null;
  updated_by_name: string | null;
  explanation?: Array<{ id: string; outcome: string; reason: string }>;
}
interface Problem {
  status: number;
  detail: string;
  candidates?: Array<{ id: string; outcome: string; reason: string }>;
}

const tag = () => randomUUID().slice(0, 8);

const CODES = ['PR', 'PO', 'GRN', 'SR', 'CN', 'IA', 'PC', 'SC', 'RFQ', 'INV'];
let nextCode = 0;
/**
 * Resolve ranks every live mapping of a type and there are only ten types, so a test that needs a type to itself
 * takes one: the live mappings left on it by earlier tests (or the demo data) are soft-deleted first. Tests of a
 * file run one after another, so nothing else writes that type meanwhile.
 */
async function claimType(t: TestServer): Promise<string> {
  const code = CODES[nextCode++ % CODES.length]!;
  await t
    .knex<PrintTemplateMappingRecord>('print_template_mappings')
    .where({ document_type: code })
    .whereNull('deleted_at')
    .update({ deleted_at: new Date() });
  return code;
}

describe.each(engines())('print template mappings on %s', (engine) => {
  let t: TestServer;
  let manager: { id: string; token: string };
  let reader: { id: string; token: string };

  beforeAll(async () => {
    t = await startTestServer(engine);
    manager = await aUserWith(t, [MANAGE], { firstname: 'Mara', lastname: 'User' });
    reader = await aUserWith(t, [], { firstname: 'Test', lastname: 'User' });
  });
  afterAll(() => t?.close());

  const send = (method: string, path: string, token: string | undefined, json?: unknown) =>
    t.fetch(path, { method, token, json });
  const create = async (body: Record<string, unknown>) => {
    const res = await send('POST', BASE, manager.token, body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Mapping;
  };
  const resolve = (query: string, token = reader.token) => send('GET', `${BASE}/resolve?${query}`, token);

  describe('document types', () => {
    it('when the document types are asked for, then exactly the ten codes come back with their labels', async () => {
      const res = await send('GET', `${BASE}/document-types`, reader.token);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { document_types: Array<{ code: string; label: string }> };
      expect(body.document_types).toEqual([
        { code: 'PR', label: 'Purchase Request' },
        { code: 'PO', label: 'Purchase Order' },
        { code: 'GRN', label: 'Good Received Note' },
        { code: 'SR', label: 'Store Requisition' },
        { code: 'CN', label: 'Credit Note' },
        { code: 'IA', label: 'Inventory Adjustment' },
        { code: 'PC', label: 'Physical Count' },
        { code: 'SC', label: 'Spot Check' },
        { code: 'RFQ', label: 'Request For Quotation' },
        { code: 'INV', label: 'Invoice' },
      ]);
    });
  });

  describe('create', () => {
    it('when a mapping is created with only the required fields, then 201 returns it with the defaults, Location, ETag and the joined names', async () => {
      const templateId = await aReportTemplate(t, { name: `Purchase Order — ${tag()}`, report_group: 'PO' });
      const res = await send('POST', BASE, manager.token, { document_type: 'PO', report_template_id: templateId });
      expect(res.status).toBe(201);
      const m = (await res.json()) as Mapping;
      expect(res.headers.get('location')).toBe(`${BASE}/${m.id}`);
      expect(res.headers.get('etag')).toMatch(/^W\/"/);
      expect(m).toMatchObject({
        document_type: 'PO',
        report_template_id: templateId,
        is_default: true,
        display_label: null,
        display_order: 0,
        allow_business_unit: null,
        deny_business_unit: null,
        is_active: true,
        deleted_at: null,
        deleted_by_id: null,
        created_by_id: manager.id,
        updated_by_id: manager.id,
        created_by_name: 'Mara User',
        updated_by_name: 'Mara User',
        template_group: 'PO',
      });
      expect(m.template_name).toMatch(/^Purchase Order — /);
    });

    it('when document_type is not one of the ten codes, then 400 says exactly "unsupported document_type — see GET /document-types"', async () => {
      const res = await send('POST', BASE, manager.token, { document_type: 'XYZ', report_template_id: randomUUID() });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(((await res.json()) as Problem).detail).toBe('unsupported document_type — see GET /document-types');
    });

    it('when document_type is a lower-case code, then it is not one of the ten codes and 400 is returned', async () => {
      const res = await send('POST', BASE, manager.token, { document_type: 'po', report_template_id: randomUUID() });
      expect(res.status).toBe(400);
      expect(((await res.json()) as Problem).detail).toBe('unsupported document_type — see GET /document-types');
    });

    it('when document_type is longer than 50 characters, then 400 is returned and nothing is stored', async () => {
      const long = 'P'.repeat(51);
      const res = await send('POST', BASE, manager.token, { document_type: long, report_template_id: randomUUID() });
      expect(res.status).toBe(400);
      expect(
        await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ document_type: long }).first(),
      ).toBeUndefined();
    });

    it('when report_template_id is missing, then 400 names the field', async () => {
      const res = await send('POST', BASE, manager.token, { document_type: 'PO' });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('report_template_id');
    });

    it('when the lists hold non-string elements, then those elements are dropped silently', async () => {
      const m = await create({
        document_type: 'GRN',
        report_template_id: randomUUID(),
        is_default: false,
        allow_business_unit: ['A-HQ', 5, null, { code: 'X' }, 'A-PKT', true],
        deny_business_unit: [1, 'B-SKV', []],
      });
      expect(m.allow_business_unit).toEqual(['A-HQ', 'A-PKT']);
      expect(m.deny_business_unit).toEqual(['B-SKV']);
      const stored = (await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: m.id }).first())!;
      expect(stored.allow_business_unit).toEqual(['A-HQ', 'A-PKT']);
    });

    it('when display_label is longer than 255 characters, then 400 is returned', async () => {
      const res = await send('POST', BASE, manager.token, {
        document_type: 'PO',
        report_template_id: randomUUID(),
        display_label: 'x'.repeat(256),
      });
      expect(res.status).toBe(400);
    });
  });

  describe('update', () => {
    it('when document_type is not one of the ten codes on update, then 400 says exactly "unsupported document_type" and nothing changes', async () => {
      const m = await create({ document_type: 'CN', report_template_id: randomUUID(), is_default: false });
      const res = await send('PUT', `${BASE}/${m.id}`, manager.token, {
        document_type: 'NOPE',
        display_label: 'changed',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as Problem).detail).toBe('unsupported document_type');
      const stored = await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: m.id }).first();
      expect(stored).toMatchObject({ document_type: 'CN', display_label: null });
    });

    it('when a field is sent as null, then the stored value is left unchanged', async () => {
      const m = await create({
        document_type: 'IA',
        report_template_id: randomUUID(),
        is_default: false,
        display_label: 'Keep me',
        display_order: 7,
        allow_business_unit: ['A-HQ'],
        deny_business_unit: ['B-SKV'],
        is_active: false,
      });
      const res = await send('PUT', `${BASE}/${m.id}`, manager.token, {
        document_type: null,
        report_template_id: null,
        is_default: null,
        display_label: null,
        display_order: null,
        allow_business_unit: null,
        deny_business_unit: null,
        is_active: null,
      });
      expect(res.status).toBe(200);
      const after = (await res.json()) as Mapping;
      expect(after).toMatchObject({
        document_type: 'IA',
        report_template_id: m.report_template_id,
        is_default: false,
        display_label: 'Keep me',
        display_order: 7,
        allow_business_unit: ['A-HQ'],
        deny_business_unit: ['B-SKV'],
        is_active: false,
      });
    });

    it('when an allow or deny list is sent as [], then the stored list is cleared', async () => {
      const m = await create({
        document_type: 'IA',
        report_template_id: randomUUID(),
        is_default: false,
        allow_business_unit: ['A-HQ'],
        deny_business_unit: ['B-SKV'],
      });
      const res = await send('PUT', `${BASE}/${m.id}`, manager.token, { allow_business_unit: [] });
      const after = (await res.json()) as Mapping;
      expect(after.allow_business_unit).toEqual([]);
      expect(after.deny_business_unit).toEqual(['B-SKV']);
      const res2 = await send('PUT', `${BASE}/${m.id}`, manager.token, { deny_business_unit: [] });
      expect(((await res2.json()) as Mapping).deny_business_unit).toEqual([]);
    });

    it('when document_type or report_template_id is blank, then it is ignored and the other fields are saved', async () => {
      const m = await create({ document_type: 'PC', report_template_id: randomUUID(), is_default: false });
      const res = await send('PUT', `${BASE}/${m.id}`, manager.token, {
        document_type: '',
        report_template_id: '  ',
        display_label: 'Count sheet',
      });
      expect(res.status).toBe(200);
      expect((await res.json()) as Mapping).toMatchObject({
        document_type: 'PC',
        report_template_id: m.report_template_id,
        display_label: 'Count sheet',
      });
    });

    it('when only some fields are sent, then only those change and the updater is recorded', async () => {
      const m = await create({
        document_type: 'PC',
        report_template_id: randomUUID(),
        is_default: false,
        display_label: 'A',
        display_order: 3,
      });
      const editor = await aUserWith(t, [MANAGE], { firstname: 'Ed', lastname: 'User' });
      const newTemplateId = randomUUID();
      const res = await send('PUT', `${BASE}/${m.id}`, editor.token, {
        report_template_id: newTemplateId,
        display_order: 9,
      });
      const after = (await res.json()) as Mapping;
      expect(after).toMatchObject({
        report_template_id: newTemplateId,
        display_order: 9,
        display_label: 'A',
        created_by_id: manager.id,
        updated_by_id: editor.id,
        updated_by_name: 'Ed User',
        created_by_name: 'Mara User',
      });
      expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(m.updated_at));
    });

    it('when the update lists hold non-string elements, then those are dropped silently', async () => {
      const m = await create({ document_type: 'SC', report_template_id: randomUUID(), is_default: false });
      const res = await send('PUT', `${BASE}/${m.id}`, manager.token, { deny_business_unit: [42, 'C-NMN', false] });
      expect(((await res.json()) as Mapping).deny_business_unit).toEqual(['C-NMN']);
    });

    it('when If-Match carries a stale ETag, then 412 is returned and nothing changes; the current ETag succeeds', async () => {
      const m = await create({
        document_type: 'SC',
        report_template_id: randomUUID(),
        is_default: false,
        display_label: 'v1',
      });
      const get = await send('GET', `${BASE}/${m.id}`, reader.token);
      const etag = get.headers.get('etag')!;
      await send('PUT', `${BASE}/${m.id}`, manager.token, { display_label: 'v2' });
      const stale = await t.fetch(`${BASE}/${m.id}`, {
        method: 'PUT',
        token: manager.token,
        json: { display_label: 'v3' },
        headers: { 'If-Match': etag },
      });
      expect(stale.status).toBe(412);
      const current = (await send('GET', `${BASE}/${m.id}`, reader.token)).headers.get('etag')!;
      const fresh = await t.fetch(`${BASE}/${m.id}`, {
        method: 'PUT',
        token: manager.token,
        json: { display_label: 'v3' },
        headers: { 'If-Match': current },
      });
      expect(fresh.status).toBe(200);
      expect(((await fresh.json()) as Mapping).display_label).toBe('v3');
    });

    it('when display_label is sent blank, then the label is cleared (the menu falls back to the template name)', async () => {
      const m = await create({
        document_type: 'PC',
        report_template_id: randomUUID(),
        is_default: false,
        display_label: 'Old label',
      });
      const res = await send('PUT', `${BASE}/${m.id}`, manager.token, { display_label: '   ' });
      expect(((await res.json()) as Mapping).display_label).toBeNull();
    });

    it('when an update sets is_default=false on the only default, then the type has no default and resolve falls back to rank', async () => {
      const type = await claimType(t);
      const d = await create({
        document_type: type,
        report_template_id: randomUUID(),
        is_default: true,
        display_order: 5,
      });
      const other = await create({
        document_type: type,
        report_template_id: randomUUID(),
        is_default: false,
        display_order: 1,
      });
      await send('PUT', `${BASE}/${d.id}`, manager.token, { is_default: false });
      expect(
        await t
          .knex<PrintTemplateMappingRecord>('print_template_mappings')
          .where({ document_type: type, is_default: true })
          .whereNull('deleted_at'),
      ).toHaveLength(0);
      expect(((await (await resolve(`document_type=${type}`)).json()) as Mapping).id).toBe(other.id);
    });

    it('when an unknown id is updated, then 404 is returned', async () => {
      const res = await send('PUT', `${BASE}/${randomUUID()}`, manager.token, { display_label: 'x' });
      expect(res.status).toBe(404);
    });
  });

  describe('default demotion', () => {
    it('when a default is created, then every other live default of that document type is demoted in the same write', async () => {
      const type = 'RFQ';
      await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ document_type: type })
        .update({ is_default: false });
      const a = await aStoredMapping(t, { document_type: type, is_default: true });
      const b = await aStoredMapping(t, { document_type: type, is_default: true, display_order: 5 });
      const otherType = await aStoredMapping(t, { document_type: 'INV', is_default: true });
      const created = await create({ document_type: type, report_template_id: randomUUID(), is_default: true });
      const defaults = await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .select('id')
        .where({ document_type: type, is_default: true })
        .whereNull('deleted_at');
      expect(defaults.map((r: { id: string }) => r.id)).toEqual([created.id]);
      const demoted = await t.knex<PrintTemplateMappingRecord>('print_template_mappings').whereIn('id', [a.id, b.id]);
      for (const row of demoted) expect(row).toMatchObject({ is_default: false, updated_by_id: manager.id });
      expect(
        (await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: otherType.id }).first())!
          .is_default,
      ).toBe(true);
    });

    it('when a non-default is created, then the existing default stays the default', async () => {
      const type = 'RFQ';
      const current = await create({ document_type: type, report_template_id: randomUUID(), is_default: true });
      await create({ document_type: type, report_template_id: randomUUID(), is_default: false });
      expect(
        (await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: current.id }).first())!
          .is_default,
      ).toBe(true);
    });

    it('when an update sets is_default=true, then the previous default of the type is demoted', async () => {
      const type = 'SR';
      const old = await create({ document_type: type, report_template_id: randomUUID(), is_default: true });
      const other = await create({ document_type: type, report_template_id: randomUUID(), is_default: false });
      const res = await send('PUT', `${BASE}/${other.id}`, manager.token, { is_default: true });
      expect(((await res.json()) as Mapping).is_default).toBe(true);
      const got = (await (await send('GET', `${BASE}/${old.id}`, reader.token)).json()) as Mapping;
      expect(got.is_default).toBe(false);
    });

    it('when a default moves to another document type, then the defaults of the new type are demoted and the old type keeps its own', async () => {
      const stay = await create({ document_type: 'PR', report_template_id: randomUUID(), is_default: true });
      const target = await create({ document_type: 'IA', report_template_id: randomUUID(), is_default: true });
      const moving = await create({ document_type: 'PR', report_template_id: randomUUID(), is_default: false });
      await send('PUT', `${BASE}/${moving.id}`, manager.token, { document_type: 'IA', is_default: true });
      expect(
        (await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: target.id }).first())!
          .is_default,
      ).toBe(false);
      expect(
        (await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: stay.id }).first())!
          .is_default,
      ).toBe(true);
    });

    it('when several defaults of one type are saved at the same time, then exactly one default remains', async () => {
      const type = 'GRN';
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          send('POST', BASE, manager.token, {
            document_type: type,
            report_template_id: randomUUID(),
            is_default: true,
          }),
        ),
      );
      expect(results.every((r) => r.status === 201)).toBe(true);
      const defaults = await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ document_type: type, is_default: true })
        .whereNull('deleted_at');
      expect(defaults).toHaveLength(1);
    });
  });

  describe('concurrent defaults', () => {
    it('when several mappings of one type are made default at the same time, then every update succeeds and exactly one default remains', async () => {
      const type = await claimType(t);
      const rows = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          aStoredMapping(t, { document_type: type, is_default: i === 0, display_order: i }),
        ),
      );
      const results = await Promise.all(
        rows.map((r) =>
          send('PUT', `${BASE}/${r.id}`, manager.token, { is_default: true, display_label: `race ${r.id}` }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(rows.map(() => 200));
      const defaults = await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ document_type: type, is_default: true })
        .whereNull('deleted_at');
      expect(defaults).toHaveLength(1);
    });
  });

  describe('soft delete', () => {
    it('when a mapping is deleted, then 204, deleted_at and deleted_by_id are set, and every read treats it as gone', async () => {
      const type = await claimType(t);
      const stored = await aStoredMapping(t, { document_type: type, is_default: true, display_label: `gone ${tag()}` });
      const res = await send('DELETE', `${BASE}/${stored.id}`, manager.token);
      expect(res.status).toBe(204);
      const row = (await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ id: stored.id })
        .first())!;
      expect(row.deleted_at).not.toBeNull();
      expect(row.deleted_by_id).toBe(manager.id);
      expect((await send('GET', `${BASE}/${stored.id}`, reader.token)).status).toBe(404);
      const list = (await (await send('GET', `${BASE}?document_type=${type}`, reader.token)).json()) as {
        data: Mapping[];
        paginate: { total: number };
      };
      expect(list.data).toEqual([]);
      expect(list.paginate.total).toBe(0);
      expect((await resolve(`document_type=${type}`)).status).toBe(404);
      expect((await send('PUT', `${BASE}/${stored.id}`, manager.token, { display_label: 'back' })).status).toBe(404);
      expect((await send('DELETE', `${BASE}/${stored.id}`, manager.token)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    it('when a signed-in user without print_template_mapping.manage writes, then 403 and nothing changes', async () => {
      const m = await create({
        document_type: 'PO',
        report_template_id: randomUUID(),
        is_default: false,
        display_label: 'locked',
      });
      expect(
        (await send('POST', BASE, reader.token, { document_type: 'PO', report_template_id: randomUUID() })).status,
      ).toBe(403);
      expect((await send('PUT', `${BASE}/${m.id}`, reader.token, { display_label: 'hacked' })).status).toBe(403);
      expect((await send('DELETE', `${BASE}/${m.id}`, reader.token)).status).toBe(403);
      expect(
        await t.knex<PrintTemplateMappingRecord>('print_template_mappings').where({ id: m.id }).first(),
      ).toMatchObject({
        display_label: 'locked',
        deleted_at: null,
      });
    });

    it('when a user without grants reads, then list, get, document types and resolve answer', async () => {
      const m = await create({ document_type: 'PO', report_template_id: randomUUID(), is_default: false });
      expect((await send('GET', BASE, reader.token)).status).toBe(200);
      expect((await send('GET', `${BASE}/${m.id}`, reader.token)).status).toBe(200);
      expect((await send('GET', `${BASE}/document-types`, reader.token)).status).toBe(200);
      expect((await resolve('document_type=PO')).status).toBe(200);
    });

    it('when a super admin writes without an explicit grant, then it is allowed', async () => {
      const admin = await t.login('admin');
      const res = await send('POST', BASE, admin, {
        document_type: 'PO',
        report_template_id: randomUUID(),
        is_default: false,
      });
      expect(res.status).toBe(201);
    });

    it('when nobody is signed in, then reads and resolve are 401', async () => {
      expect((await send('GET', BASE, undefined)).status).toBe(401);
      expect((await resolve('document_type=PO', '')).status).toBe(401);
    });
  });

  describe('list and get', () => {
    it('when listing, then the template name and group are joined, and null when the template is missing or soft-deleted', async () => {
      const type = await claimType(t);
      const live = await aReportTemplate(t, { name: `Live ${tag()}`, report_group: 'PO' });
      const deleted = await aReportTemplate(t, {
        name: `Deleted ${tag()}`,
        report_group: 'PO',
        deleted_at: new Date(),
      });
      const a = await aStoredMapping(t, {
        document_type: type,
        report_template_id: live,
        display_order: 1,
        created_by_id: manager.id,
        updated_by_id: reader.id,
      });
      const b = await aStoredMapping(t, { document_type: type, report_template_id: deleted, display_order: 2 });
      const c = await aStoredMapping(t, { document_type: type, report_template_id: randomUUID(), display_order: 3 });
      const res = await send('GET', `${BASE}?document_type=${type}`, reader.token);
      const body = (await res.json()) as { data: Mapping[] };
      const byId = new Map(body.data.map((m) => [m.id, m]));
      expect(byId.get(a.id)).toMatchObject({
        template_group: 'PO',
        created_by_name: 'Mara User',
        updated_by_name: 'Test User',
      });
      expect(byId.get(a.id)!.template_name).toMatch(/^Live /);
      expect(byId.get(b.id)).toMatchObject({ template_name: null, template_group: null });
      expect(byId.get(c.id)).toMatchObject({ template_name: null, template_group: null, created_by_name: null });
    });

    it('when no paging is sent, then 10 rows come back, and page 2 holds the rest', async () => {
      const token = `page-${tag()}`;
      for (let i = 0; i < 12; i++) await aStoredMapping(t, { display_label: `${token} ${i}`, display_order: i });
      const first = (await (await send('GET', `${BASE}?search=${token}`, reader.token)).json()) as {
        data: Mapping[];
        paginate: Record<string, number>;
      };
      expect(first.data).toHaveLength(10);
      expect(first.paginate).toEqual({ total: 12, page: 1, perpage: 10, pages: 2 });
      const second = (await (await send('GET', `${BASE}?search=${token}&page=2`, reader.token)).json()) as {
        data: Mapping[];
      };
      expect(second.data).toHaveLength(2);
      const five = (await (await send('GET', `${BASE}?search=${token}&perpage=5&page=3`, reader.token)).json()) as {
        data: Mapping[];
        paginate: Record<string, number>;
      };
      expect(five.data).toHaveLength(2);
      expect(five.paginate).toEqual({ total: 12, page: 3, perpage: 5, pages: 3 });
    });

    it('when searching, then the label and the template name match, case-insensitively', async () => {
      const word = `zq${tag()}`;
      const template = await aReportTemplate(t, { name: `Form ${word.toUpperCase()}` });
      const byLabel = await aStoredMapping(t, { display_label: `Label ${word}` });
      const byTemplate = await aStoredMapping(t, { report_template_id: template });
      await aStoredMapping(t, { display_label: 'unrelated' });
      const body = (await (await send('GET', `${BASE}?search=${word}&perpage=100`, reader.token)).json()) as {
        data: Mapping[];
      };
      expect(body.data.map((m) => m.id).sort()).toEqual([byLabel.id, byTemplate.id].sort());
    });

    it('when searching for a document type code, then mappings of that type match even without the code in label or template', async () => {
      const type = await claimType(t);
      const hit = await aStoredMapping(t, {
        document_type: type,
        display_label: 'zzz',
        report_template_id: randomUUID(),
      });
      const body = (await (
        await send('GET', `${BASE}?search=${type.toLowerCase()}&perpage=100`, reader.token)
      ).json()) as { data: Mapping[] };
      expect(body.data.map((m) => m.id)).toContain(hit.id);
      for (const m of body.data) {
        const text = [m.display_label ?? '', m.template_name ?? '', m.document_type].join(' ').toLowerCase();
        expect(text).toContain(type.toLowerCase());
      }
    });

    it('when searching with % or _, then they match literally', async () => {
      const word = `pct${tag()}`;
      const hit = await aStoredMapping(t, { display_label: `${word} 100%` });
      await aStoredMapping(t, { display_label: `${word} 1000` });
      const body = (await (
        await send('GET', `${BASE}?search=${encodeURIComponent(`${word} 100%`)}`, reader.token)
      ).json()) as { data: Mapping[] };
      expect(body.data.map((m) => m.id)).toEqual([hit.id]);
    });

    it('when active_only=true, then inactive mappings are left out', async () => {
      const type = await claimType(t);
      const on = await aStoredMapping(t, { document_type: type, is_active: true });
      await aStoredMapping(t, { document_type: type, is_active: false });
      const all = (await (await send('GET', `${BASE}?document_type=${type}`, reader.token)).json()) as {
        data: Mapping[];
      };
      expect(all.data).toHaveLength(2);
      const active = (await (
        await send('GET', `${BASE}?document_type=${type}&active_only=true`, reader.token)
      ).json()) as { data: Mapping[] };
      expect(active.data.map((m) => m.id)).toEqual([on.id]);
    });

    it('when no sort is sent, then rows come by document type, default first, then display order; an explicit sort is honoured', async () => {
      const word = `srt${tag()}`;
      const x = await aStoredMapping(t, {
        document_type: 'PR',
        is_default: false,
        display_order: 1,
        display_label: word,
      });
      const y = await aStoredMapping(t, {
        document_type: 'PR',
        is_default: true,
        display_order: 9,
        display_label: word,
      });
      const z = await aStoredMapping(t, {
        document_type: 'GRN',
        is_default: false,
        display_order: 5,
        display_label: word,
      });
      const body = (await (await send('GET', `${BASE}?search=${word}`, reader.token)).json()) as { data: Mapping[] };
      expect(body.data.map((m) => m.id)).toEqual([z.id, y.id, x.id]);
      const sorted = await send(
        'GET',
        `${BASE}?search=${word}&sort=${encodeURIComponent('display_order:desc')}`,
        reader.token,
      );
      expect(sorted.status, await sorted.clone().text()).toBe(200);
      const byOrder = (await sorted.json()) as { data: Mapping[] };
      expect(byOrder.data.map((m) => m.id)).toEqual([y.id, z.id, x.id]);
    });

    it('when the sort names an unknown field, then 400 is returned', async () => {
      expect((await send('GET', `${BASE}?sort=${encodeURIComponent('password:asc')}`, reader.token)).status).toBe(400);
    });

    it('when a mapping is read by id, then it comes with an ETag; a malformed id is 400 and an unknown one 404', async () => {
      const stored = await aStoredMapping(t, { display_label: 'one' });
      const res = await send('GET', `${BASE}/${stored.id}`, reader.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toMatch(/^W\/"/);
      expect(((await res.json()) as Mapping).display_label).toBe('one');
      expect((await send('GET', `${BASE}/not-a-uuid`, reader.token)).status).toBe(400);
      expect((await send('GET', `${BASE}/${randomUUID()}`, reader.token)).status).toBe(404);
    });
  });

  describe('resolve ordering', () => {
    it('when a default and a non-default are both permitted, then the default wins even with a higher display order', async () => {
      const nd = await aStoredMapping(t, { document_type: await claimType(t), is_default: false, display_order: -5 });
      const d = await aStoredMapping(t, { document_type: nd.document_type, is_default: true, display_order: 50 });
      const res = await resolve(`document_type=${nd.document_type}&bu_code=A-HQ`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Mapping).id).toBe(d.id);
    });

    it('when the candidates share is_default, then the lowest display order wins', async () => {
      const a = await aStoredMapping(t, { document_type: await claimType(t), is_default: false, display_order: 20 });
      const b = await aStoredMapping(t, { document_type: a.document_type, is_default: false, display_order: 10 });
      await aStoredMapping(t, { document_type: a.document_type, is_default: false, display_order: 30 });
      expect(((await (await resolve(`document_type=${a.document_type}`)).json()) as Mapping).id).toBe(b.id);
    });

    it('when several defaults are stored, then the default with the lowest display order wins', async () => {
      const a = await aStoredMapping(t, { document_type: await claimType(t), is_default: true, display_order: 2 });
      const b = await aStoredMapping(t, { document_type: a.document_type, is_default: true, display_order: 1 });
      await aStoredMapping(t, { document_type: a.document_type, is_default: false, display_order: 0 });
      expect(((await (await resolve(`document_type=${a.document_type}`)).json()) as Mapping).id).toBe(b.id);
    });

    it('when rank ties on is_default and display order, then the oldest mapping wins', async () => {
      const type = await claimType(t);
      await aStoredMapping(t, {
        document_type: type,
        is_default: true,
        display_order: 0,
        created_at: new Date('2026-03-01T00:00:00Z'),
      });
      const oldest = await aStoredMapping(t, {
        document_type: type,
        is_default: true,
        display_order: 0,
        created_at: new Date('2026-01-01T00:00:00Z'),
      });
      await aStoredMapping(t, {
        document_type: type,
        is_default: true,
        display_order: 0,
        created_at: new Date('2026-02-01T00:00:00Z'),
      });
      expect(((await (await resolve(`document_type=${type}`)).json()) as Mapping).id).toBe(oldest.id);
    });

    it('when the best-ranked mapping is inactive, then the next active one wins', async () => {
      const off = await aStoredMapping(t, {
        document_type: await claimType(t),
        is_default: true,
        display_order: 0,
        is_active: false,
      });
      const on = await aStoredMapping(t, { document_type: off.document_type, is_default: false, display_order: 99 });
      expect(((await (await resolve(`document_type=${off.document_type}`)).json()) as Mapping).id).toBe(on.id);
    });

    it('when the best-ranked mapping is soft-deleted, then the next live one wins', async () => {
      const gone = await aStoredMapping(t, {
        document_type: await claimType(t),
        is_default: true,
        deleted_at: new Date(),
      });
      const live = await aStoredMapping(t, { document_type: gone.document_type, is_default: false });
      expect(((await (await resolve(`document_type=${gone.document_type}`)).json()) as Mapping).id).toBe(live.id);
    });

    it('when the default is not permitted for the business unit, then a permitted non-default wins', async () => {
      const d = await aStoredMapping(t, {
        document_type: await claimType(t),
        is_default: true,
        deny_business_unit: ['A-PKT'],
      });
      const nd = await aStoredMapping(t, { document_type: d.document_type, is_default: false, display_order: 5 });
      expect(((await (await resolve(`document_type=${d.document_type}&bu_code=A-PKT`)).json()) as Mapping).id).toBe(
        nd.id,
      );
      expect(((await (await resolve(`document_type=${d.document_type}&bu_code=A-HQ`)).json()) as Mapping).id).toBe(
        d.id,
      );
    });

    it('when the business-unit code is typed in another case, then allow and deny lists still match it, in explain too', async () => {
      const d = await aStoredMapping(t, {
        document_type: await claimType(t),
        is_default: true,
        deny_business_unit: ['A-PKT'],
      });
      const nd = await aStoredMapping(t, {
        document_type: d.document_type,
        is_default: false,
        display_order: 5,
        allow_business_unit: ['a-pkt'],
      });
      expect(((await (await resolve(`document_type=${d.document_type}&bu_code=a-Pkt`)).json()) as Mapping).id).toBe(
        nd.id,
      );
      const explained = (await (
        await resolve(`document_type=${d.document_type}&bu_code=A-PKT&explain=true`)
      ).json()) as Mapping & { explanation: { id: string; outcome: string }[] };
      expect(explained.id).toBe(nd.id);
      expect(explained.explanation.find((c) => c.id === d.id)?.outcome).toBe('denied');
      expect(explained.explanation.find((c) => c.id === nd.id)?.outcome).toBe('selected');
    });

    it('when a BU-specific default and a general default exist, then rank alone decides (display order), not specificity', async () => {
      const general = await aStoredMapping(t, {
        document_type: await claimType(t),
        is_default: true,
        display_order: 0,
      });
      const specific = await aStoredMapping(t, {
        document_type: general.document_type,
        is_default: true,
        display_order: 1,
        allow_business_unit: ['A-KBI'],
      });
      expect(
        ((await (await resolve(`document_type=${general.document_type}&bu_code=A-KBI`)).json()) as Mapping).id,
      ).toBe(general.id);
      await t
        .knex<PrintTemplateMappingRecord>('print_template_mappings')
        .where({ id: specific.id })
        .update({ display_order: -1 });
      // A write past the API reaches resolve's cache one change notification later (ADR 0012), not at once.
      await expect
        .poll(
          async () =>
            ((await (await resolve(`document_type=${general.document_type}&bu_code=A-KBI`)).json()) as Mapping).id,
        )
        .toBe(specific.id);
    });

    it('when mappings are created through the API, then resolve returns the saved default with its joined fields', async () => {
      const bu = `BU-${tag()}`;
      const templateId = await aReportTemplate(t, { name: `Spot check ${tag()}`, report_group: 'SC' });
      const created = await create({
        document_type: 'SC',
        report_template_id: templateId,
        is_default: true,
        allow_business_unit: [bu],
        display_label: 'Spot check sheet',
      });
      const res = await resolve(`document_type=SC&bu_code=${bu}`);
      expect(res.status).toBe(200);
      const got = (await res.json()) as Mapping;
      expect(got).toMatchObject({ id: created.id, template_group: 'SC', display_label: 'Spot check sheet' });
      expect(got.explanation).toBeUndefined();
    });
  });

  describe('resolve allow and deny lists', () => {
    // [case, allow, deny, bu_code (null = not sent), permitted, outcome when not permitted]
    const cases: Array<[string, string[] | null, string[] | null, string | null, boolean, string?]> = [
      ['no lists', null, null, 'X-1', true],
      ['empty lists', [], [], 'X-1', true],
      ['allow list holding the BU', ['X-1', 'X-2'], null, 'X-1', true],
      ['allow list without the BU', ['X-2'], null, 'X-1', false, 'not_in_allow_list'],
      ['deny list holding the BU', null, ['X-1'], 'X-1', false, 'denied'],
      ['deny list without the BU', null, ['X-2'], 'X-1', true],
      ['BU in both lists (deny wins)', ['X-1'], ['X-1'], 'X-1', false, 'denied'],
      ['allow holds the BU, deny holds another', ['X-1', 'X-2'], ['X-2'], 'X-1', true],
      ['empty allow list with the BU denied', [], ['X-1'], 'X-1', false, 'denied'],
      ['no bu_code and no allow list', null, null, null, true],
      ['no bu_code and an empty allow list', [], ['X-1'], null, true],
      ['no bu_code and an allow list', ['X-1'], null, null, false, 'not_in_allow_list'],
      ['BU codes in another case (codes compare regardless of case)', ['X-1'], null, 'x-1', true, 'selected'],
      ['a denied BU code in another case', null, ['X-1'], 'x-1', false, 'denied'],
    ];

    it.each(cases)(
      'when a mapping has %s, then resolve answers accordingly',
      async (_name, allow, deny, bu, permitted, outcome) => {
        const m = await aStoredMapping(t, {
          document_type: await claimType(t),
          is_default: true,
          allow_business_unit: allow,
          deny_business_unit: deny,
        });
        const query = `document_type=${m.document_type}${bu === null ? '' : `&bu_code=${bu}`}`;
        const res = await resolve(query);
        expect(res.status).toBe(permitted ? 200 : 404);
        if (permitted) expect(((await res.json()) as Mapping).id).toBe(m.id);
        const explained = await resolve(`${query}&explain=true`);
        const body = (await explained.json()) as Mapping & Problem;
        const candidates = permitted ? body.explanation! : body.candidates!;
        expect(candidates).toHaveLength(1);
        expect(candidates[0]!.outcome).toBe(permitted ? 'selected' : outcome);
      },
    );
  });

  describe('resolve errors and explain', () => {
    it('when document_type is blank or missing, then 400 is returned', async () => {
      expect((await resolve('document_type=')).status).toBe(400);
      expect((await resolve('document_type=%20%20')).status).toBe(400);
      expect((await resolve('bu_code=A-HQ')).status).toBe(400);
    });

    it('when no active mapping permits the business unit, then 404 problem is returned', async () => {
      const m = await aStoredMapping(t, {
        document_type: await claimType(t),
        is_default: true,
        allow_business_unit: ['ONLY'],
      });
      const res = await resolve(`document_type=${m.document_type}&bu_code=OTHER`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const body = (await res.json()) as Problem;
      expect(body.candidates).toBeUndefined();
      expect((await resolve(`document_type=NONE-${tag()}`)).status).toBe(404);
    });

    it('when explain=true, then the winner comes with every live candidate and the reason each lost', async () => {
      const type = await claimType(t);
      const winner = await aStoredMapping(t, { document_type: type, is_default: false, display_order: 1 });
      const inactive = await aStoredMapping(t, { document_type: type, is_default: true, is_active: false });
      const denied = await aStoredMapping(t, { document_type: type, is_default: true, deny_business_unit: ['A-HQ'] });
      const notAllowed = await aStoredMapping(t, {
        document_type: type,
        is_default: true,
        allow_business_unit: ['B-HQ'],
      });
      const lower = await aStoredMapping(t, { document_type: type, is_default: false, display_order: 2 });
      await aStoredMapping(t, { document_type: type, is_default: true, deleted_at: new Date() });
      const res = await resolve(`document_type=${type}&bu_code=A-HQ&explain=true`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Mapping;
      expect(body.id).toBe(winner.id);
      const outcomes = Object.fromEntries(body.explanation!.map((c) => [c.id, c.outcome]));
      expect(outcomes).toEqual({
        [winner.id]: 'selected',
        [inactive.id]: 'inactive',
        [denied.id]: 'denied',
        [notAllowed.id]: 'not_in_allow_list',
        [lower.id]: 'lower_rank',
      });
      for (const c of body.explanation!) expect(c.reason.length).toBeGreaterThan(10);
      expect(body.explanation!.find((c) => c.id === denied.id)!.reason).toContain('A-HQ');
    });

    it('when explain=true and nothing is permitted, then the 404 problem carries the candidates', async () => {
      const type = await claimType(t);
      const a = await aStoredMapping(t, { document_type: type, is_default: true, deny_business_unit: ['C-NMN'] });
      const b = await aStoredMapping(t, { document_type: type, is_active: false });
      const res = await resolve(`document_type=${type}&bu_code=C-NMN&explain=true`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const body = (await res.json()) as Problem;
      expect(body.status).toBe(404);
      expect(Object.fromEntries(body.candidates!.map((c) => [c.id, c.outcome]))).toEqual({
        [a.id]: 'denied',
        [b.id]: 'inactive',
      });
    });

    it('when resolve runs, then it issues exactly one statement against the mappings, and that statement can use the resolve index', async () => {
      const m = await aStoredMapping(t, { document_type: await claimType(t), is_default: true });
      const seen: string[] = [];
      const listener = (q: { sql: string }) => {
        if (q.sql.includes('print_template_mappings')) seen.push(q.sql);
      };
      t.knex.on('query', listener);
      try {
        expect((await resolve(`document_type=${m.document_type}&bu_code=A-HQ`)).status).toBe(200);
      } finally {
        t.knex.removeListener('query', listener);
      }
      expect(seen).toHaveLength(1);
      const sql = mappingRepository({ knex: t.knex }).resolveQuery(m.document_type, 'A-HQ').toQuery();
      const plan = await t.knex.transaction(async (trx) => {
        await trx.raw('set local enable_seqscan = off');
        const rows = await rawRows<Record<string, string>>(trx.raw(`explain ${sql}`));
        return rows.map((r) => Object.values(r)[0]).join('\n');
      });
      // The partial resolve index or the live-rows index: both serve (document_type, is_default desc, display_order).
      expect(plan).toMatch(/Index Scan using print_template_mappings_(resolve|list)_idx on print_template_mappings m/);
      expect(plan).not.toMatch(/Seq Scan on print_template_mappings/);
    });
  });
});
