// The largest answers a signed-in reader can be made to download: every free-form field is bounded by the
// contract, and the JSON fields by a byte cap, so one record (and a page of them) has a ceiling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, loadBundledSpec } from '../support/spec.js';
import { startTestServer, type TestServer } from '../server/support/index.js';

type Prop = {
  type?: string;
  maxLength?: number;
  pattern?: string;
  format?: string;
  example?: unknown;
  enum?: unknown[];
};

/** The longest valid value of each plain-text field of an input schema (fields with a shape keep their example). */
function longest(schemaName: string): Record<string, unknown> {
  const spec = loadBundledSpec();
  const schema = deref(spec, spec.components.schemas[schemaName] as { properties: Record<string, Prop> });
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(schema.properties)) {
    const p = deref(spec, raw);
    if (p.type === 'string' && p.maxLength && !p.pattern && !p.format && !p.enum) out[name] = 'x'.repeat(p.maxLength);
  }
  return out;
}

describe('response size', () => {
  let t: TestServer;
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    t = await startTestServer('pglite');
    [admin, viewer] = await Promise.all([t.login('admin'), t.login('viewer')]);
  });
  afterAll(() => t?.close());

  it('when every field of a business unit and a mapping is at its limit, then a reader downloads a bounded record and page', async () => {
    const cluster = (await (
      await t.fetch('/api-system/clusters', { method: 'POST', token: admin, json: { code: 'SIZE', name: 'Size' } })
    ).json()) as { id: string };
    const config = Array.from({ length: 100 }, (_, i) => ({
      key: `k${i}`,
      label: 'L'.repeat(100),
      datatype: 'string',
      value: 'v'.repeat(170),
    }));
    const format = JSON.stringify({ locales: 'th-TH', note: 'n'.repeat(100) });
    const bu = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: admin,
      json: {
        ...longest('BusinessUnitInput'),
        cluster_id: cluster.id,
        code: 'SIZE-1',
        name: 'n'.repeat(255),
        config,
        amount_format: format,
        quantity_format: format,
        recipe_format: format,
        perpage_format: format,
      },
    });
    expect(bu.status, await bu.clone().text()).toBe(201);
    const buId = ((await bu.json()) as { id: string }).id;
    const buBytes = (await (await t.fetch(`/api-system/business-units/${buId}`, { token: viewer })).arrayBuffer())
      .byteLength;

    const template = (
      (await (await t.fetch('/api-system/report-templates?perpage=1', { token: admin })).json()) as {
        data: Array<{ id: string }>;
      }
    ).data[0]!.id;
    const codes = (c: string) => Array.from({ length: 500 }, (_, i) => `${c}${String(i).padStart(49, '0')}`);
    const mapping = await t.fetch('/api-system/print-template-mappings', {
      method: 'POST',
      token: admin,
      json: {
        document_type: 'INV',
        report_template_id: template,
        display_label: 'd'.repeat(255),
        allow_business_unit: codes('A'),
        deny_business_unit: codes('D'),
      },
    });
    expect(mapping.status, await mapping.clone().text()).toBe(201);
    const mappingId = ((await mapping.json()) as { id: string }).id;
    const mappingBytes = (
      await (await t.fetch(`/api-system/print-template-mappings/${mappingId}`, { token: viewer })).arrayBuffer()
    ).byteLength;

    console.log(
      `[size] largest business unit ${(buBytes / 1024).toFixed(1)} KB (a page of 100: ${((buBytes * 100) / 1024 / 1024).toFixed(1)} MB); largest mapping ${(mappingBytes / 1024).toFixed(1)} KB (a page of 100: ${((mappingBytes * 100) / 1024 / 1024).toFixed(1)} MB)`,
    );
    // One record's ceiling, whatever its fields hold (before the caps, one business unit could carry megabytes).
    expect(buBytes).toBeLessThan(120 * 1024);
    expect(mappingBytes).toBeLessThan(120 * 1024);
  });
});
