// Only bulk loads that are not an operator's change may switch the audit triggers off for their transaction: the
// first-start seed and the benchmark data generator. Any other caller would be a write that escapes the trail.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sourcesUnder(p);
    return /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

describe('audit exemption', () => {
  it('is asked for only by the first-start seed and the benchmark data generator', () => {
    const callers = [
      ...sourcesUnder(path.join(ROOT, 'server/src')),
      ...sourcesUnder(path.join(ROOT, 'bench')),
      ...sourcesUnder(path.join(ROOT, 'scripts')),
    ]
      .filter((file) => /exemptFromAudit\(|platform\.audit_exempt/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file))
      .sort();
    expect(callers).toEqual([
      'bench/datagen/generate.ts',
      'server/src/db/audit-exempt.ts',
      'server/src/db/migrations/0011_audit_by_construction.ts',
      'server/src/db/seed/index.ts',
    ]);
  });
});
