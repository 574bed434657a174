import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './processes.js';

/** The compiled server's entry as `npm run build` writes it. */
export const COMPILED_MAIN = path.join(ROOT, 'dist', 'server', 'src', 'main.js');
/** What the compiled server is built from. */
const SOURCES = ['server/src', 'openapi/generated'];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build` when dist/ has no compiled server or is older than its sources. */
export function ensureCompiledServer(log: (line: string) => void): void {
  const sources = Math.max(...SOURCES.map((d) => newestMtime(path.join(ROOT, d))));
  if (existsSync(COMPILED_MAIN) && statSync(COMPILED_MAIN).mtimeMs >= sources) return;
  log(
    existsSync(COMPILED_MAIN)
      ? 'Compiled server: dist/ is older than the sources, rebuilding (npm run build)'
      : 'Compiled server: building dist/ (npm run build)',
  );
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm run build failed (${r.status ?? r.signal})`);
  if (!existsSync(COMPILED_MAIN)) throw new Error(`npm run build wrote no ${path.relative(ROOT, COMPILED_MAIN)}`);
}
