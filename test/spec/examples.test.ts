// The examples tell one story: the cluster CL-A, its business unit A-PKT and the PO print mapping run through every
// request and response the docs show and the Prism mock answers. They are the demo's own records, with the same ids
// (server/src/db/seed/story.ts), so the docs' samples work on a fresh `npm start` (test/ops/samples.test.ts). Each example fits its schema, and the rules that
// tie fields together hold in it (the schemas alone cannot say them).
import { describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../support/schema-validator.js';
import { deref, loadBundledSpec, operationsOf } from '../support/spec.js';
import { eachObject, shownExamples, type ShownExample } from './examples.js';
import { STORY_IDS } from '../../server/src/db/seed/story.js';

const spec = loadBundledSpec();
const operations = operationsOf(spec);
const examples = shownExamples(spec);
const validator = createSchemaValidator();

const STORY = {
  cluster: { id: STORY_IDS.clusterA, code: 'CL-A', name: 'Andaman Hotels Group' },
  businessUnit: { id: STORY_IDS.buPkt, code: 'A-PKT', name: 'Andaman Phuket Beach' },
  mapping: { id: STORY_IDS.poMapping, document_type: 'PO' },
};

// The create samples add a record the demo lacks (so they run on a fresh `npm start`): a cluster, a business unit of
// CL-A and an account. Those new records are the only others the examples show; what they point at is the story's.
const NEW_RECORDS: Record<string, { id: string; code: string }> = {
  createCluster: { id: '4c8e2a6b-9d1f-4e3a-8b5c-7d9e1f3a5b7c', code: 'CL-K' },
  createBusinessUnit: { id: '6d8f0a2c-4e6a-4b8d-9f1a-3c5e7a9b1d3f', code: 'A-KLT' },
  createUser: { id: '3e5a7c9b-1d2f-4a4c-8e6b-0f2a4c6e8b1d', code: 'ploy' },
};
const createsNew = (e: ShownExample) => e.operationId in NEW_RECORDS && ['request', '201'].includes(e.where);

const label = (e: ShownExample) => `${e.operationId} ${e.where} ${e.mediaType} (${e.source})`;
const byOperation = (id: string, where: string) => examples.filter((e) => e.operationId === id && e.where === where);
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

describe('the examples of the contract', () => {
  it('cover every JSON request body and 2xx response (nothing is left for a tool to invent)', () => {
    expect(examples.filter((e) => /^2/.test(e.where)).length).toBeGreaterThan(40);
    for (const e of examples) expect(e.value, label(e)).not.toBeNull();
  });

  it.each(examples.map((e) => [label(e), e] as const))('%s fits its schema', (_label, e) => {
    expect(validator.errors(e.schemaPointer, e.value)).toEqual([]);
  });

  it('every parameter example fits its schema', () => {
    for (const op of operations) {
      for (const [i, p] of (op.parameters ?? []).entries()) {
        if (p.example === undefined) continue;
        const raw = (spec.paths[op.path]![op.method]!.parameters ?? [])[i] as { $ref?: string };
        const at = raw.$ref
          ? `${raw.$ref}/schema`
          : `#/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}/parameters/${i}/schema`;
        expect(validator.errors(at, p.example), `${op.operationId} ${p.in} ${p.name}`).toEqual([]);
      }
    }
  });
});

describe('one story runs through the examples', () => {
  it('every cluster, business unit and mapping shown is CL-A, A-PKT and the PO mapping, and every reference points at them', () => {
    const wrong: string[] = [];
    const expectValue = (where: string, actual: unknown, wanted: unknown) => {
      if (actual !== undefined && actual !== null && actual !== wanted)
        wrong.push(`${where}: ${JSON.stringify(actual)} instead of ${JSON.stringify(wanted)}`);
    };
    for (const e of examples) {
      eachObject(e.value, (o) => {
        const at = label(e);
        if (createsNew(e) && o === e.value) {
          const created = NEW_RECORDS[e.operationId]!;
          expectValue(`${at} new record id`, o.id, created.id);
          expectValue(`${at} new record code`, o.code ?? o.username, created.code);
          for (const story of [STORY.cluster, STORY.businessUnit]) {
            if (o.code === story.code || o.id === story.id)
              wrong.push(`${at}: creates the story's ${story.code} again`);
          }
          expectValue(`${at} cluster_id`, o.cluster_id, STORY.cluster.id);
          return;
        }
        if ('max_license_bu' in o && 'code' in o) {
          expectValue(`${at} cluster id`, o.id, STORY.cluster.id);
          expectValue(`${at} cluster code`, o.code, STORY.cluster.code);
          expectValue(`${at} cluster name`, o.name, STORY.cluster.name);
        }
        if ('hotel_name' in o || 'is_hq' in o) {
          expectValue(`${at} business unit id`, o.id, STORY.businessUnit.id);
          expectValue(`${at} business unit code`, o.code, STORY.businessUnit.code);
          expectValue(`${at} business unit name`, o.name, STORY.businessUnit.name);
        }
        if ('report_template_id' in o && 'display_order' in o && 'id' in o) {
          expectValue(`${at} mapping id`, o.id, STORY.mapping.id);
          expectValue(`${at} mapping document type`, o.document_type, STORY.mapping.document_type);
        }
        expectValue(`${at} cluster_id`, o.cluster_id, STORY.cluster.id);
        expectValue(`${at} cluster_name`, o.cluster_name, STORY.cluster.name);
        for (const key of ['business_unit_id', 'parent_bu_id'])
          expectValue(`${at} ${key}`, o[key], STORY.businessUnit.id);
        for (const key of ['business_unit_name', 'parent_bu_name'])
          expectValue(`${at} ${key}`, o[key], STORY.businessUnit.name);
      });
    }
    for (const op of operations) {
      for (const p of op.parameters ?? []) {
        const at = `${op.operationId} ${p.in} ${p.name}`;
        if (p.in === 'path' && p.name === 'id' && /^\/api-system\/clusters\//.test(op.path))
          expectValue(at, p.example, STORY.cluster.id);
        if (p.in === 'path' && p.name === 'id' && /^\/api-system\/business-units\//.test(op.path))
          expectValue(at, p.example, STORY.businessUnit.id);
        if (p.in === 'path' && p.name === 'id' && /^\/api-system\/print-template-mappings\//.test(op.path))
          expectValue(at, p.example, STORY.mapping.id);
        if (['cluster_id', 'exclude_cluster_id'].includes(p.name)) expectValue(at, p.example, STORY.cluster.id);
        if (p.name === 'bu_code') expectValue(at, p.example, STORY.businessUnit.code);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a membership path id is the id of the membership the examples show', () => {
    for (const [operationPrefix, listId] of [
      ['/api-system/user/clusters/{id}', 'addClusterUser'],
      ['/api-system/user/business-units/{id}', 'addBusinessUnitUser'],
    ] as const) {
      const created = byOperation(listId, '201')[0]!.value as { id: string };
      for (const op of operations.filter((o) => o.path === operationPrefix && o.method !== 'get')) {
        expect(op.parameters?.find((p) => p.name === 'id')?.example, op.operationId).toBe(created.id);
      }
    }
  });

  it('a create answers with what was sent (createCluster first among them)', () => {
    const creates = operations.filter((op) => op.method === 'post' && op.responses['201']);
    expect(creates.map((op) => op.operationId)).toContain('createCluster');
    for (const op of creates) {
      const sent = byOperation(op.operationId!, 'request').find((e) => e.mediaType === 'application/json')?.value;
      const answered = byOperation(op.operationId!, '201')[0]?.value;
      if (!isRecord(sent) || !isRecord(answered)) continue;
      for (const [key, value] of Object.entries(sent)) {
        if (key in answered) expect(answered[key], `${op.operationId}: ${key}`).toEqual(value);
      }
    }
  });

  it('the permissions example is the admin', () => {
    const permissions = byOperation('getPlatformPermissions', '200')[0]!.value as {
      user: { username: string };
      is_super_admin: boolean;
    };
    expect(permissions.is_super_admin).toBe(true);
    expect(permissions.user.username).toBe('admin');
  });

  it('paging figures match the rows shown', () => {
    let pages = 0;
    for (const e of examples) {
      eachObject(e.value, (o) => {
        if (Array.isArray(o.data) && isRecord(o.paginate)) {
          pages++;
          const {
            total,
            page,
            perpage,
            pages: pageCount,
          } = o.paginate as { total: number; page: number; perpage: number; pages: number };
          const rows = o.data.length;
          if (perpage === -1) {
            expect({ rows, page, pageCount }, label(e)).toEqual({ rows: total, page: 1, pageCount: 1 });
          } else {
            expect(pageCount, `${label(e)} pages`).toBe(Math.max(1, Math.ceil(total / perpage)));
            expect(rows, `${label(e)} rows on page ${page}`).toBe(
              Math.max(0, Math.min(perpage, total - (page - 1) * perpage)),
            );
          }
        }
        const keys = Object.keys(o).sort().join();
        if (keys === 'count,items') expect(o.count, `${label(e)} count`).toBe((o.items as unknown[]).length);
      });
    }
    expect(pages).toBeGreaterThan(3);
  });

  it('the nested audit trail and the flat audit fields say the same (deleted_at set exactly when audit.deleted.at is)', () => {
    let audited = 0;
    for (const e of examples) {
      eachObject(e.value, (o) => {
        if (isRecord(o.audit)) {
          audited++;
          const audit = o.audit as Record<
            'created' | 'updated' | 'deleted',
            { at: string | null; name: string | null; id: string | null }
          >;
          for (const what of ['created', 'updated', 'deleted'] as const) {
            expect(audit[what].at ?? null, `${label(e)} audit.${what}.at vs ${what}_at`).toBe(o[`${what}_at`] ?? null);
            expect(audit[what].name ?? null, `${label(e)} audit.${what}.name vs ${what}_by_name`).toBe(
              o[`${what}_by_name`] ?? null,
            );
          }
          expect(audit.deleted.id === null, `${label(e)} audit.deleted.id`).toBe(audit.deleted.at === null);
        }
        if ('deleted_at' in o && 'deleted_by_id' in o)
          expect(o.deleted_by_id === null, `${label(e)} deleted_by_id`).toBe(o.deleted_at === null);
      });
    }
    expect(audited).toBeGreaterThan(5);
    const deleted = examples.filter((e) => e.operationId === 'getCluster' && e.source === 'examples/soft-deleted');
    expect(deleted, 'a soft-deleted cluster is among the examples').toHaveLength(1);
  });

  it("resolve's example is a mapping its own query would pick: the document type asked for, the unit allowed and not denied", () => {
    const op = operations.find((o) => o.operationId === 'resolvePrintTemplateMapping')!;
    const query = Object.fromEntries((op.parameters ?? []).map((p) => [p.name, p.example])) as {
      document_type: string;
      bu_code: string;
    };
    const mapping = byOperation('resolvePrintTemplateMapping', '200')[0]!.value as {
      document_type: string;
      is_active: boolean;
      deleted_at: string | null;
      allow_business_unit: string[] | null;
      deny_business_unit: string[] | null;
    };
    expect(mapping.document_type).toBe(query.document_type);
    expect(mapping.is_active).toBe(true);
    expect(mapping.deleted_at).toBeNull();
    const allow = mapping.allow_business_unit ?? [];
    expect(
      allow.length === 0 || allow.includes(query.bu_code),
      `allow list ${JSON.stringify(allow)} admits ${query.bu_code}`,
    ).toBe(true);
    expect(mapping.deny_business_unit ?? [], 'deny list').not.toContain(query.bu_code);
  });

  it('every 400 example lists the field errors', () => {
    const badRequests = examples.filter((e) => e.where === '400');
    expect(badRequests.length).toBeGreaterThan(10);
    for (const e of badRequests) {
      const problem = e.value as { status: number; errors?: Array<{ path: string; message: string }> };
      expect(problem.status, label(e)).toBe(400);
      expect(problem.errors?.length, `${label(e)} errors`).toBeGreaterThan(0);
    }
    expect(deref(spec, { $ref: '#/components/responses/BadRequest' })).toBeTruthy();
  });
});
