// Every query parameter of the contract takes a value encoded the way URLSearchParams, HTML forms and most HTTP
// clients encode it (`+` for a space, `* ' ( ) !` left bare), as well as the strict `%20` way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, loadBundledSpec, operationsOf } from '../support/spec.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

interface ParamSchema {
  type?: string;
  enum?: string[];
  format?: string;
  pattern?: string;
  default?: unknown;
}

/** A value the parameter accepts, carrying a space and reserved characters wherever its schema allows free text. */
function sampleFor(name: string, schema: ParamSchema, example: unknown): string {
  if (schema.enum) return String(schema.enum[0]);
  if (schema.format === 'uuid') return typeof example === 'string' ? example : '5f0c1c8e-3b1a-4c2d-9e8f-0a1b2c3d4e5f';
  if (name === 'sort') return String(schema.default ?? example);
  if (schema.pattern || schema.format) return String(example);
  return "Andaman Resort*'(1)!";
}

const spec = loadBundledSpec();
const cases = operationsOf(spec)
  .filter((op) => op.method === 'get')
  .flatMap((op) =>
    (op.parameters ?? [])
      .filter((p) => p.in === 'query' && deref<ParamSchema>(spec, p.schema as ParamSchema).type === 'string')
      .map((p) => ({ op, param: p, schema: deref<ParamSchema>(spec, p.schema as ParamSchema) })),
  );

describe.each(engines())('query encodings on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    // Two sign-ins, so the audit log too has a second page for its cursor.
    await t.login('admin');
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('covers every string query parameter of the contract', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  const nextCursorOf = async (firstPage: string): Promise<string> => {
    const res = await t.fetch(firstPage, { token: admin });
    const body = (await res.json()) as { paginate?: { next_cursor?: string | null } };
    expect(body.paginate?.next_cursor, `${firstPage} has a second page`).toEqual(expect.any(String));
    return body.paginate!.next_cursor!;
  };

  it.each(cases.map((c) => [`${c.op.operationId} ?${c.param.name}`, c] as const))(
    'when %s is form-encoded, then it is accepted',
    async (_label, c) => {
      const path = c.op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const p = c.op.parameters!.find((x) => x.in === 'path' && x.name === name)!;
        return String(p.example);
      });
      const required = (c.op.parameters ?? []).filter((p) => p.in === 'query' && p.required && p.name !== c.param.name);
      const fixed = required.map((p) => [p.name, String(p.example)] as [string, string]);
      // A cursor is only ever one the server made: the first page of one row answers it.
      const sample =
        c.param.name === 'cursor'
          ? await nextCursorOf(`${path}?${new URLSearchParams([...fixed, ['perpage', '1']]).toString()}`)
          : sampleFor(c.param.name, c.schema, c.param.example);
      const query = new URLSearchParams([...fixed, [c.param.name, sample]]);
      const res = await t.fetch(`${path}?${query.toString()}`, { token: admin });
      const body = await res.text();
      expect(res.status, body).toBeLessThan(500);
      expect(body, `${c.op.operationId} ${c.param.name}`).not.toMatch(/url encoded|reserved characters/i);
      if (!c.param.example || c.param.name === 'search') expect([200, 404], body).toContain(res.status);
    },
  );

  it('when a search is sent with + or %20 for its space, then both find the same clusters', async () => {
    const plus = await t.fetch('/api-system/clusters?search=Andaman+Hotels&perpage=100', { token: admin });
    const percent = await t.fetch('/api-system/clusters?search=Andaman%20Hotels&perpage=100', { token: admin });
    expect(plus.status).toBe(200);
    const [a, b] = [(await plus.json()) as { data: unknown[] }, (await percent.json()) as { data: unknown[] }];
    expect(a.data.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
  });

  it('when a search holds a bare *, then it is searched for literally (no match, no error)', async () => {
    const res = await t.fetch('/api-system/business-units?search=*', { token: admin });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
