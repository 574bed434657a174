import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Casts that erase a type instead of stating one. */
const ERASING_CAST = /\bas\s+(?:never|any)\b|\bas\s+unknown\s+as\b/;

/** The only erasing casts the console needs, each with its reason. */
const ALLOWED = [
  {
    file: 'dataProvider/methods/records.ts',
    line: 'const binary = (file: Blob) => file as unknown as string;',
    reason:
      'The generated types render the upload schemas’ `format: binary` as a string; the multipart serializer sends the Blob itself.',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const casts = sourceFiles(SRC).flatMap((path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => !text.startsWith('//') && !text.startsWith('*') && ERASING_CAST.test(text))
    .map((line) => ({ file: relative(SRC, path).split('\\').join('/'), line })),
);

const isAllowed = (cast: { file: string; line: string }) =>
  ALLOWED.some((a) => a.file === cast.file && a.line === cast.line);

describe('types between the contract and the screens', () => {
  it('are never erased with `as never`, `as any` or `as unknown as`', () => {
    expect(casts.filter((c) => !isAllowed(c))).toEqual([]);
  });

  it('allows only casts that are still there, each with a reason', () => {
    for (const allowed of ALLOWED) {
      expect(casts, allowed.file).toContainEqual({ file: allowed.file, line: allowed.line });
      expect(allowed.reason).not.toBe('');
    }
  });
});
