// Whether the console build in admin-ui/dist is older than what it is made of (`npm start` rebuilds it then).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the console build is made of: its sources, its config, and the contract's client and types it compiles against. */
export const CONSOLE_SOURCES = [
  'admin-ui/src',
  'admin-ui/public',
  'admin-ui/index.html',
  'admin-ui/vite.config.ts',
  'openapi/client.ts',
  'openapi/generated/schema.d.ts',
];

/** The newest modification time under `p` (files and folders), or 0 when it does not exist. */
function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const info = statSync(p);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(p).reduce((latest, name) => Math.max(latest, newest(path.join(p, name))), info.mtimeMs);
}

/** `missing` (never built), `stale` (a source changed since the build) or `fresh`. */
export function consoleBuildState(root: string): 'missing' | 'stale' | 'fresh' {
  const built = path.join(root, 'admin-ui', 'dist', 'index.html');
  if (!existsSync(built)) return 'missing';
  const sourcesAt = Math.max(...CONSOLE_SOURCES.map((p) => newest(path.join(root, p))));
  return statSync(built).mtimeMs >= sourcesAt ? 'fresh' : 'stale';
}
