// `npm run build [-- --out <dir>]`: a self-contained production tree in dist/ that runs with production dependencies
// only (`npm ci --omit=dev`, then `npm start` or `node server/main.js` inside it; or `NODE_ENV=production npm start`
// here):
//
//   dist/package.json, package-lock.json   production dependencies only (the lock pruned from the repository's)
//   dist/patches/                          patch-package patches of production dependencies (applied by postinstall)
//   dist/server/main.js                    entry; dist/server/src/** the server compiled by tsc (same layout as here)
//   dist/openapi/generated/                the bundled contract the server validates against and publishes
//   dist/console/                          the console (vite), hashed assets precompressed (.br, .gz)
//   dist/api-docs/index.html               the reference docs (Redoc, self-contained)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { buildDocs } from './lib/docs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 && process.argv[outArg + 1] ? process.argv[outArg + 1]! : path.join(root, 'dist'));
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/** Runtime dependencies the built tree does not need (tsx runs the TypeScript sources, which it does not ship). */
const NOT_AT_RUNTIME = new Set(['tsx']);

function step<T>(label: string, work: () => T): T {
  const started = Date.now();
  const result = work();
  console.log(`${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  [key: string]: unknown;
}

/** The repository's lock reduced to what `dependencies` reach, resolving names as node does (nested node_modules first). */
export function prunedLock(
  lock: { lockfileVersion: number; packages: Record<string, LockEntry> },
  rootEntry: LockEntry,
): object {
  const packages = lock.packages;
  const resolve = (from: string, name: string): string | null => {
    for (let dir = from; ;) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (dir === '') return null;
      const parent = dir.lastIndexOf('/node_modules/');
      dir = parent === -1 ? '' : dir.slice(0, parent);
    }
  };
  const reached = new Set<string>();
  const visit = (from: string, deps: Record<string, string> | undefined) => {
    for (const name of Object.keys(deps ?? {})) {
      const at = resolve(from, name);
      if (!at || reached.has(at)) continue;
      reached.add(at);
      const entry = packages[at]!;
      visit(at, { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies });
    }
  };
  visit('', rootEntry.dependencies);
  const kept: Record<string, LockEntry> = { '': rootEntry };
  for (const at of [...reached].sort()) {
    const { dev: _dev, devOptional, ...entry } = packages[at]!;
    kept[at] = devOptional ? { ...entry, optional: true } : entry;
  }
  return {
    name: rootEntry.name,
    version: rootEntry.version,
    lockfileVersion: lock.lockfileVersion,
    requires: true,
    packages: kept,
  };
}

function precompress(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      count += precompress(file);
      continue;
    }
    if (!/\.(js|mjs|css|svg|json|map|txt|html|wasm)$/.test(name) || statSync(file).size < 1024) continue;
    const bytes = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    count++;
  }
  return count;
}

function main(): void {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    description?: string;
    engines?: Record<string, string>;
    dependencies: Record<string, string>;
  };
  // The output is emptied first: never the repository (or a folder holding it), never a folder that is not a build.
  const holdsRoot = !path.relative(out, root).startsWith('..');
  const isBuild = !existsSync(out) || readdirSync(out).length === 0 || existsSync(path.join(out, 'server', 'main.js'));
  if (holdsRoot || !isBuild)
    throw new Error(
      `Refusing to empty ${out}: it is not an earlier build (no server/main.js) or it holds the repository.`,
    );
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  step('server compiled (tsc)', () => {
    execFileSync(bin('tsc'), ['-p', path.join(root, 'tsconfig.build.json'), '--outDir', out], {
      cwd: root,
      stdio: 'inherit',
    });
    mkdirSync(path.join(out, 'server'), { recursive: true });
    writeFileSync(
      path.join(out, 'server', 'main.js'),
      "// Entry of the built server: `node server/main.js` (what `npm start` runs in this tree).\nimport { main } from './src/main.js';\n\nawait main();\n",
    );
    cpSync(
      path.join(root, 'openapi', 'generated', 'openapi.bundled.json'),
      path.join(out, 'openapi', 'generated', 'openapi.bundled.json'),
    );
  });

  step('console built (vite)', () => {
    const consoleDir = path.join(out, 'console');
    execFileSync(
      bin('vite'),
      ['build', '--config', 'admin-ui/vite.config.ts', '--logLevel', 'warn', '--outDir', consoleDir, '--emptyOutDir'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    const assets = path.join(consoleDir, 'assets');
    if (existsSync(assets)) console.log(`  ${precompress(assets)} assets precompressed (brotli, gzip)`);
  });

  step('reference docs built (redocly)', () => {
    buildDocs(
      readFileSync(path.join(root, 'openapi', 'generated', 'openapi.bundled.json'), 'utf8'),
      path.join(out, 'api-docs', 'index.html'),
    );
  });

  step('package and lock for production dependencies', () => {
    const dependencies = Object.fromEntries(
      Object.entries(pkg.dependencies).filter(([name]) => !NOT_AT_RUNTIME.has(name)),
    );
    const manifest = {
      name: pkg.name,
      version: pkg.version,
      private: true,
      description: pkg.description,
      type: 'module',
      engines: pkg.engines,
      scripts: {
        postinstall: 'patch-package',
        start: 'node server/main.js',
        migrate: 'node server/src/cli/migrate.js',
        backup: 'node server/src/cli/backup.js backup',
        restore: 'node server/src/cli/backup.js restore',
      },
      dependencies,
    };
    writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Parameters<
      typeof prunedLock
    >[0];
    const rootEntry = {
      name: pkg.name,
      version: pkg.version,
      hasInstallScript: true,
      dependencies,
      engines: pkg.engines,
    };
    const pruned = prunedLock(lock, rootEntry) as { packages: Record<string, unknown> };
    writeFileSync(path.join(out, 'package-lock.json'), `${JSON.stringify(pruned, null, 2)}\n`);
    const patches = path.join(root, 'patches');
    mkdirSync(path.join(out, 'patches'), { recursive: true });
    for (const patch of existsSync(patches) ? readdirSync(patches) : []) {
      // A patch is named <package>+<version>.patch (a scope's slash as +): only patches of shipped packages go along.
      const name = patch.replace(/\+[^+]*\.patch$/, '').replace('+', '/');
      if (pruned.packages[`node_modules/${name}`]) cpSync(path.join(patches, patch), path.join(out, 'patches', patch));
    }
  });

  console.log(
    `\nBuilt into ${out}. Run it with production dependencies only:\n  cd ${path.relative(process.cwd(), out).startsWith('..') ? out : path.relative(process.cwd(), out) || '.'} && npm ci --omit=dev && NODE_ENV=production npm start`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
