import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../support/schema-validator.js';
import { freePort, startProcess, waitForHttp, type Started } from '../support/processes.js';
import { loadBundledSpec, operationsOf, type SpecOperation } from '../support/spec.js';

const spec = loadBundledSpec();
const operations = operationsOf(spec);
const validator = createSchemaValidator();

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let prism: Started;
let baseUrl: string;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  prism = startProcess('node_modules/.bin/prism', [
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    'openapi/generated/openapi.bundled.json',
  ]);
  await waitForHttp(`${baseUrl}/healthz`, 60_000);
}, 90_000);

afterAll(async () => {
  await prism?.stop();
});

/** Builds the request the spec's own examples describe. */
function exampleRequest(op: SpecOperation): { url: string; init: RequestInit } {
  let path = op.path;
  const query = new URLSearchParams();
  for (const param of op.parameters ?? []) {
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
    if (param.in === 'query' && param.required) query.set(param.name, String(param.example));
  }
  const headers: Record<string, string> = { Authorization: 'Bearer mock-token' };
  const init: RequestInit = { method: op.method.toUpperCase(), headers };
  const content = op.requestBody?.content ?? {};
  if (content['application/json']) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(content['application/json'].example);
  } else if (content['multipart/form-data']) {
    const form = new FormData();
    const field = Object.keys(content['multipart/form-data'].example as object)[0]!;
    form.set(field, new Blob([PNG_1x1], { type: 'image/png' }), 'image.png');
    init.body = form;
  }
  const qs = query.toString();
  return { url: `${baseUrl}${path}${qs ? `?${qs}` : ''}`, init };
}

const pointer = (...segments: string[]) =>
  '#/' + segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

describe('the Prism mock (npm run mock)', () => {
  it.each(operations.map((op) => [op.operationId!, op] as const))(
    'when %s is called with the spec examples, then it answers 2xx with a schema-valid body',
    async (_id, op) => {
      const { url, init } = exampleRequest(op);
      const response = await fetch(url, init);
      expect(response.status, await response.clone().text()).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      if (response.headers.get('content-type')?.includes('application/json')) {
        const body = await response.json();
        const ref = pointer(
          'paths',
          op.path,
          op.method,
          'responses',
          String(response.status),
          'content',
          'application/json',
          'schema',
        );
        expect(validator.errors(ref, body)).toEqual([]);
      }
    },
  );
});
