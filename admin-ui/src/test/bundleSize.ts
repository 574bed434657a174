/**
 * The console's first download: the entry chunk of a production build and every chunk it imports statically (what
 * the browser must fetch before the first screen can render), gzip-compressed as a server sends them.
 *
 *   npx tsx admin-ui/src/test/bundleSize.ts            # builds into a temporary folder and prints the figures
 *   npx tsx admin-ui/src/test/bundleSize.ts <dist>     # measures an existing build
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The budget of the first download, gzip, in bytes (300 kB). */
export const INITIAL_JS_BUDGET = 300_000;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface BundleReport {
  /** Every chunk of the first download with its gzip size, entry first. */
  chunks: { file: string; gzip: number }[];
  totalGzip: number;
  /** Chunks that load later (lazy routes, charts, grid…), for information. */
  lazyChunks: string[];
}

/** Builds the console for production into `outDir` (a fresh temporary folder by default). */
export function buildConsole(outDir = mkdtempSync(join(tmpdir(), 'console-bundle-'))): string {
  execFileSync(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--config', 'admin-ui/vite.config.ts', '--logLevel', 'error', '--outDir', outDir],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  return outDir;
}

const STATIC_IMPORT = /(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g;

/** The entry script of index.html and the chunks it imports statically, followed transitively. */
export function measureInitialBundle(outDir: string): BundleReport {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no module entry script in ${outDir}/index.html`);
  const assets = dirname(join(outDir, entry));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(assets, file), 'utf8');
    for (const m of code.matchAll(STATIC_IMPORT)) visit(m[1]!);
  };
  visit(entry.slice(entry.lastIndexOf('/') + 1));
  // Vite also lists the static imports as modulepreload links: count any the scan above missed.
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?[^"]*\/([^"/]+\.js)"/g)) visit(m[1]!);
  const chunks = [...seen].map((file) => ({ file, gzip: gzipSync(readFileSync(join(assets, file))).length }));
  const all = readdirSync(assets).filter((f) => f.endsWith('.js'));
  return { chunks, totalGzip: chunks.reduce((sum, c) => sum + c.gzip, 0), lazyChunks: all.filter((f) => !seen.has(f)) };
}

/** True when a chunk of the first download holds `marker` (used to check a library stays out of it). */
export function initialBundleContains(outDir: string, report: BundleReport, marker: string): string[] {
  const assets = join(outDir, 'assets');
  return report.chunks.filter((c) => readFileSync(join(assets, c.file), 'utf8').includes(marker)).map((c) => c.file);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2] ?? buildConsole();
  const report = measureInitialBundle(outDir);
  for (const c of report.chunks) console.log(`${(c.gzip / 1000).toFixed(1).padStart(7)} kB  ${c.file}`);
  console.log(
    `${(report.totalGzip / 1000).toFixed(1).padStart(7)} kB  initial JS (gzip), budget ${INITIAL_JS_BUDGET / 1000} kB`,
  );
  console.log(`${report.lazyChunks.length} chunks load later`);
  if (report.totalGzip > INITIAL_JS_BUDGET) process.exit(1);
}
