// The inner loop: the tests the working tree's changes reach, among the projects that need no browser, no
// PostgreSQL and no contract runner (spec, server on the embedded database, ui). `npm test` runs everything.
//
//   npm run test:fast              the tests your uncommitted changes reach (usually well under 2 minutes)
//   npm run test:fast -- --all     all three projects in full (about 5 minutes on a 2-core machine)
//
// vitest's own `--changed` follows imports, which serves the spec and console tests well. Every server suite imports
// the whole app through its harness, so for the server a change is matched by what it touches instead: a module's
// files reach the suites that call that module's routes; a shared layer (core, http, db, the app, the contract, the
// harness) reaches every server suite.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SERVER_SUITES = 'test/server';
const SHARED_LAYERS =
  /^(server\/src\/(core|http|db|storage)\/|server\/src\/[^/]+\.ts$|openapi\/|test\/(server\/)?support\/)/;

function changedFiles(): string[] {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
  return [...new Set([...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')])];
}

/** The server suites a change reaches; `all` when it touches a layer every suite runs through. */
export function serverSuitesReached(changed: string[], suites: Map<string, string>): string[] | 'all' {
  if (changed.some((f) => SHARED_LAYERS.test(f))) return 'all';
  const reached = new Set<string>();
  for (const file of changed) {
    if (file.startsWith(`${SERVER_SUITES}/`) && file.endsWith('.test.ts')) reached.add(file);
    const module = /^server\/src\/modules\/([^/]+)\//.exec(file)?.[1];
    if (!module) continue;
    // A suite reaches a module when it is named for it or calls its routes (`/clusters`, `/business-units`, …).
    for (const [suite, text] of suites)
      if (path.basename(suite).startsWith(module) || text.includes(`/${module}`)) reached.add(suite);
  }
  return [...reached].sort();
}

function vitest(args: string[]): number {
  const env = { ...process.env };
  // Server suites run on PostgreSQL too when this is set; the inner loop stays on the embedded database.
  delete env.TEST_DATABASE_URL;
  return spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env }).status ?? 1;
}

function main(): number {
  const started = Date.now();
  const done = (status: number) => {
    console.log(`test:fast took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return status;
  };
  const args = process.argv.slice(2);
  if (args.includes('--all'))
    return done(
      vitest(['--project', 'spec', '--project', 'server', '--project', 'ui', ...args.filter((a) => a !== '--all')]),
    );

  const changed = changedFiles();
  if (changed.length === 0) {
    console.log('test:fast: nothing changed since the last commit (npm run test:fast -- --all runs everything).');
    return done(0);
  }
  const suites = new Map(
    readdirSync(SERVER_SUITES)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => [`${SERVER_SUITES}/${f}`, readFileSync(`${SERVER_SUITES}/${f}`, 'utf8')] as const),
  );
  const server = serverSuitesReached(changed, suites);
  console.log(
    `test:fast: ${changed.length} changed file(s); server suites: ${server === 'all' ? 'all (a shared layer changed)' : server.length}`,
  );
  let status = vitest(['--project', 'spec', '--project', 'ui', '--changed', '--passWithNoTests', ...args]);
  if (server === 'all' || server.length > 0)
    status ||= vitest(['--project', 'server', ...(server === 'all' ? [] : server), ...args]);
  return done(status);
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
