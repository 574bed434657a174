// Type-checks a consumer's TypeScript the way a reader's own project would: strict, NodeNext, with the repository's
// tsc, in a folder of its own. The code samples and the client package are both checked this way.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The compiler options of a consumer's project; `extra` adds what one check needs (e.g. Node's types). */
const CONSUMER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
};

/** Writes `dir/tsconfig.json` for `files` and runs tsc there; returns what tsc printed ('' when it found nothing). */
export function consumerTypeErrors(
  dir: string,
  files: string[],
  extra: Record<string, unknown> = { types: [] },
): string {
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...CONSUMER_OPTIONS, ...extra }, files }),
  );
  try {
    execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}
