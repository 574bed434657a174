// `npm run mock` as a front-end developer uses it: on the port MOCK_PORT (or `-p`) names, and with
// `Prefer: dynamic=true` every operation answers within a second with an invented body the contract accepts — no
// operation may send the faker building a million-row page or leave the mock spinning for everyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockOptions } from '../../scripts/mock.js';
import { createSchemaValidator } from '../support/schema-validator.js';
import { freePort, startProcess, waitForHttp, type Started } from '../support/processes.js';
import { loadBundledSpec, operationsOf, type SpecOperation } from '../support/spec.js';

const spec = loadBundledSpec();
const operations = operationsOf(spec);
const validator = createSchemaValidator();
const ANSWER_WITHIN_MS = 1_000;

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let mock: Started;
let baseUrl: string;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // The script `npm run mock` runs, on the port MOCK_PORT names.
  mock = startProcess('node_modules/.bin/tsx', ['scripts/mock.ts'], { MOCK_PORT: String(port) });
  await waitForHttp(`${baseUrl}/healthz`, 60_000);
}, 90_000);

afterAll(async () => {
  await mock?.stop();
});

/** The request the operation's own examples describe, asking Prism to invent the answer. */
function dynamicRequest(op: SpecOperation): { url: string; init: RequestInit } {
  let path = op.path;
  const query = new URLSearchParams();
  for (const param of op.parameters ?? []) {
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
    if (param.in === 'query' && param.required) query.set(param.name, String(param.example));
  }
  const headers: Record<string, string> = { Authorization: 'Bearer mock-token', Prefer: 'dynamic=true' };
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

describe('npm run mock with Prefer: dynamic=true', () => {
  it.each(operations.map((op) => [op.operationId!, op] as const))(
    'when %s is called, then an invented, schema-valid answer arrives within a second',
    async (_id, op) => {
      const { url, init } = dynamicRequest(op);
      const startedAt = performance.now();
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
      const body = await response.text();
      const elapsed = performance.now() - startedAt;
      expect(response.status, body.slice(0, 500)).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
      if (response.headers.get('content-type')?.includes('application/json')) {
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
        expect(validator.errors(ref, JSON.parse(body))).toEqual([]);
      }
    },
  );
});

describe("the mock's address", () => {
  it('when -p, --port or -h is given, then it wins over MOCK_PORT; other options go to Prism', () => {
    expect(mockOptions(['-p', '5000'], { MOCK_PORT: '4999' })).toEqual({ host: '127.0.0.1', port: '5000', rest: [] });
    expect(mockOptions(['--port=5001', '--errors'], {})).toEqual({
      host: '127.0.0.1',
      port: '5001',
      rest: ['--errors'],
    });
    expect(mockOptions(['-h', '0.0.0.0'], { MOCK_PORT: '4999' })).toEqual({ host: '0.0.0.0', port: '4999', rest: [] });
    expect(mockOptions([], {})).toEqual({ host: '127.0.0.1', port: '4010', rest: [] });
    expect(() => mockOptions(['-p', 'abc'], {})).toThrow(/port/);
  });
});
