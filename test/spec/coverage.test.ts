import { describe, expect, it } from 'vitest';
import { loadBundledSpec, operationsOf } from '../support/spec.js';

const spec = loadBundledSpec();
const operations = operationsOf(spec);
const has = (method: string, path: string) => operations.some((op) => op.method === method && op.path === path);

/** Every specified endpoint of the product, as method and path (path parameters renamed to the spec's `{id}`). */
const SPECIFIED_ENDPOINTS = `
GET /api/proxy/api/me/dashboard-widgets
POST /api/proxy/api/me/dashboard-widgets
PATCH /api/proxy/api/me/dashboard-widgets/{id}
DELETE /api/proxy/api/me/dashboard-widgets/{id}
GET /api/proxy/api/my-pending/purchase-requests/count
GET /api/proxy/api/my-pending/purchase-orders/count
GET /api/proxy/api/my-pending/store-requisitions/count
GET /api/proxy/api/approval/pending
GET /api/proxy/api/approval/summary
GET /api-system/clusters
GET /api-system/clusters/{id}
POST /api-system/clusters
PUT /api-system/clusters/{id}
DELETE /api-system/clusters/{id}
POST /api-system/clusters/{id}/logo
POST /api-system/clusters/{id}/avatar
GET /api-system/user/clusters/{id}
POST /api-system/user/clusters
PUT /api-system/user/clusters/{id}
DELETE /api-system/user/clusters/{id}
GET /api-system/user
GET /api-system/business-units
POST /api-system/business-units
PUT /api-system/business-units/{id}
DELETE /api-system/business-units/{id}
POST /api-system/business-units/{id}/logo
POST /api-system/business-units/{id}/avatar
POST /api-system/user/business-units
PATCH /api-system/user/business-units/{id}
DELETE /api-system/user/business-units/{id}
GET /api-system/print-template-mappings
GET /api-system/print-template-mappings/document-types
GET /api-system/print-template-mappings/resolve
GET /api-system/print-template-mappings/{id}
POST /api-system/print-template-mappings
PUT /api-system/print-template-mappings/{id}
DELETE /api-system/print-template-mappings/{id}`;

/**
 * The operations the service adds around them: sign-in and sessions, the caller's platform permissions, a single
 * business unit, the datasets behind the dashboard widgets, the lookups the forms need, restore, and the health check.
 */
const ADDED_OPERATIONS = `
POST /api/auth/login
POST /api/auth/refresh-token
POST /api/auth/logout
GET /api/user/permission/platform
GET /api-system/business-units/{id}
GET /api/proxy/api/datasets
GET /api/proxy/api/datasets/{id}/values
GET /api-system/report-templates
GET /api-system/currencies
POST /api-system/clusters/{id}/restore
POST /api-system/business-units/{id}/restore
GET /healthz`;

const rows = (table: string) =>
  table
    .trim()
    .split('\n')
    .map((line) => line.split(' ') as [string, string]);

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  maxLength?: number;
  enum?: unknown[];
  format?: string;
  readOnly?: boolean;
  'x-enum-descriptions'?: Record<string, string>;
};
const schema = (name: string) => spec.components.schemas[name] as Schema;

describe('the contract', () => {
  it.each(rows(SPECIFIED_ENDPOINTS))('when %s %s is a specified endpoint, then the spec has it', (method, path) => {
    expect(has(method.toLowerCase(), path)).toBe(true);
  });

  it.each(rows(ADDED_OPERATIONS))('when the service adds %s %s, then the spec has it', (method, path) => {
    expect(has(method.toLowerCase(), path)).toBe(true);
  });

  it('when operations are listed, then each has a unique operationId, a summary, a tag and a default problem response', () => {
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) {
      expect(op.operationId, `${op.method} ${op.path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary, op.operationId).toBeTruthy();
      expect(op.tags?.length, op.operationId).toBeGreaterThan(0);
      expect(op.responses.default, op.operationId).toEqual({ $ref: '#/components/responses/Problem' });
    }
  });

  it('when an operation has path parameters or a body, then each carries an example', () => {
    for (const op of operations) {
      for (const param of op.parameters ?? []) {
        if (param.in === 'path') expect(param.example, `${op.operationId} ${param.name}`).toBeDefined();
      }
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        expect(media.example, `${op.operationId} ${type}`).toBeDefined();
      }
    }
  });

  it('when any response is a failure, then it is a problem+json document', () => {
    const responses = (
      spec.components as unknown as { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
    ).responses;
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status !== 'default' && Number(status) < 400) continue;
        const name = (response as { $ref: string }).$ref.split('/').pop()!;
        const content = responses[name]?.content;
        expect(Object.keys(content ?? {}), `${op.operationId} ${status}`).toEqual(['application/problem+json']);
        expect(content?.['application/problem+json']?.schema, `${op.operationId} ${status}`).toEqual({
          $ref: '#/components/schemas/Problem',
        });
      }
    }
  });

  it('when a schema is an object, then it names its properties (no bare `type: object`)', () => {
    const bare: string[] = [];
    const visit = (s: Schema | undefined, where: string) => {
      if (!s || typeof s !== 'object') return;
      if (
        s.type === 'object' &&
        !s.properties &&
        typeof s.additionalProperties !== 'object' &&
        !s.allOf &&
        !s.anyOf &&
        !s.oneOf
      ) {
        bare.push(where);
      }
      for (const [name, child] of Object.entries(s.properties ?? {})) visit(child, `${where}.${name}`);
      if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, `${where}[*]`);
      visit(s.items, `${where}[]`);
      [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].forEach((c, i) => visit(c, `${where}|${i}`));
    };
    for (const [name, s] of Object.entries(spec.components.schemas)) visit(s as Schema, name);
    expect(bare).toEqual([]);
  });

  it('when the document types are read, then they are exactly the ten codes with their labels', () => {
    const codes = schema('DocumentTypeCode');
    expect(codes.enum).toEqual(['PR', 'PO', 'GRN', 'SR', 'CN', 'IA', 'PC', 'SC', 'RFQ', 'INV']);
    expect(codes['x-enum-descriptions']).toEqual({
      PR: 'Purchase Request',
      PO: 'Purchase Order',
      GRN: 'Good Received Note',
      SR: 'Store Requisition',
      CN: 'Credit Note',
      IA: 'Inventory Adjustment',
      PC: 'Physical Count',
      SC: 'Spot Check',
      RFQ: 'Request For Quotation',
      INV: 'Invoice',
    });
  });

  it('when the specified field limits and value sets are read, then the schemas carry them', () => {
    expect(schema('ClusterInput').properties?.alias_name?.maxLength).toBe(3);
    expect(schema('Cluster').properties?.alias_name?.maxLength).toBe(3);
    expect(schema('PrintTemplateMappingCreate').properties?.document_type?.maxLength).toBe(50);
    expect(schema('PrintTemplateMappingCreate').properties?.display_label?.maxLength).toBe(255);
    expect(schema('PrintTemplateMappingUpdate').properties?.display_label?.maxLength).toBe(255);
    expect(schema('WidgetType').enum).toEqual(['kpi', 'gauge', 'pie', 'bar']);
    expect(schema('DatasetShape').enum).toEqual(['scalar', 'scalar_delta', 'categorical']);
    expect(schema('MembershipRole').enum).toEqual(['admin', 'user']);
    expect(schema('ConfigDatatype').enum).toEqual(['string', 'number', 'boolean', 'date', 'json']);
    expect(schema('BusinessUnitInput').properties?.calculation_method?.enum).toEqual(['average', 'fifo', null]);
    for (const upload of ['LogoUpload', 'AvatarUpload']) expect(JSON.stringify(schema(upload))).toContain('5 MB');
  });

  it('when the business-unit form is read, then it has the 34 fields', () => {
    const fields = Object.keys(schema('BusinessUnitInput').properties ?? {});
    expect(fields).toHaveLength(34);
  });

  it('when read-only fields are read, then they are marked readOnly', () => {
    for (const field of ['bu_count', 'users_count', 'total_max_license_users', 'created_at', 'deleted_at']) {
      expect(schema('Cluster').properties?.[field]?.readOnly, field).toBe(true);
    }
    for (const field of ['template_name', 'template_group', 'created_by_name', 'updated_by_name']) {
      expect(schema('PrintTemplateMapping').properties?.[field]?.readOnly, field).toBe(true);
    }
    expect(schema('Audit').readOnly).toBe(true);
  });

  it('when a list is answered, then it uses the paging envelope', () => {
    for (const page of [
      'ClusterPage',
      'BusinessUnitPage',
      'UserPage',
      'PrintTemplateMappingPage',
      'ReportTemplatePage',
    ]) {
      expect(Object.keys(schema(page).properties ?? {}), page).toEqual(['data', 'paginate']);
    }
    expect(Object.keys(schema('WidgetList').properties ?? {})).toEqual(['items', 'count']);
  });
});
