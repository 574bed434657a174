// The code samples the docs show (`x-codeSamples`, generated into the bundle by `npm run gen:types`): every operation
// has a curl and a TypeScript sample, and every TypeScript sample compiles against the typed client, so a sample that
// no longer matches the contract fails here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import { consumerTypeErrors } from '../support/typecheck.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
type Sample = { lang: string; label: string; source: string };
const operations = operationsOf(loadBundledSpec()).map((op) => ({
  ...op,
  samples: (op as unknown as { 'x-codeSamples'?: Sample[] })['x-codeSamples'] ?? [],
}));

const work = mkdtempSync(path.join(tmpdir(), 'code-samples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the code samples in the docs', () => {
  it('every operation has a curl and a TypeScript sample that call its path', () => {
    for (const op of operations) {
      expect(
        op.samples.map((s) => s.label),
        op.operationId,
      ).toEqual(['curl', 'TypeScript']);
      const [curl, ts] = op.samples as [Sample, Sample];
      const firstLiteral = op.path.split('{')[0]!;
      expect(curl.source, `${op.operationId} curl`).toContain(`http://127.0.0.1:3000${firstLiteral}`);
      expect(ts.source, `${op.operationId} TypeScript`).toContain(`api.${op.method.toUpperCase()}('${op.path}'`);
      if (op.security?.length !== 0)
        expect(curl.source, `${op.operationId} sends the token`).toContain('Authorization: Bearer $TOKEN');
    }
  });

  it('every TypeScript sample compiles against openapi/client.ts (tsc)', () => {
    const client = path.join(ROOT, 'openapi', 'client.js');
    const files = operations.map((op) => {
      const file = path.join(work, `${op.operationId}.ts`);
      const ts = op.samples.find((s) => s.label === 'TypeScript')!.source;
      // Each sample imports the client as a reader would from the repository root.
      writeFileSync(file, ts.replace(`'./openapi/client.js'`, JSON.stringify(client)));
      return file;
    });
    writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    const output = consumerTypeErrors(work, files, {
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    });
    expect(output, 'tsc errors in the generated samples').toBe('');
    expect(files.length).toBe(operations.length);
  }, 120_000);
});
