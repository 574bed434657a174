// `npm start`.
// Development (the default): builds the console when its sources are newer than its build, builds the reference docs
// when the contract changed since they were built, then runs the server from its TypeScript sources.
// NODE_ENV=production: runs the built server in dist/ (`npm run build`), which needs production dependencies only.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { consoleBuildState } from './lib/console-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line: string) => process.stderr.write(`${line}\n`);

if (process.env.NODE_ENV === 'production') {
  const entry = path.join(root, 'dist', 'server', 'main.js');
  if (!existsSync(entry)) {
    say(
      'NODE_ENV=production runs the built server in dist/, and there is none: run `npm run build` first (it needs the development dependencies), or start without NODE_ENV=production.',
    );
    process.exit(1);
  }
  await import(pathToFileURL(entry).href);
} else {
  buildConsoleWhenStale();
  await buildDocsWhenStale();
  const { main } = await import('../server/src/main.js');
  await main();
}

function buildConsoleWhenStale(): void {
  // With CONSOLE_DIR the server serves another build (the end-to-end tests' own), so there is nothing to build here.
  if (
    process.env.SKIP_UI_BUILD === '1' ||
    process.env.CONSOLE_DIR ||
    !existsSync(path.join(root, 'admin-ui', 'index.html'))
  )
    return;
  const state = consoleBuildState(root);
  if (state === 'fresh') return;
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) {
    say(
      state === 'stale'
        ? 'The console sources are newer than admin-ui/dist, but vite (a development dependency) is not installed: serving the older build. Run `npm install` to rebuild it.'
        : 'The console is not built and vite (a development dependency) is not installed: starting the API without the console. Run `npm install`, or `npm run build` where the development dependencies are, and start the build with NODE_ENV=production.',
    );
    return;
  }
  say(
    state === 'stale'
      ? 'Rebuilding the admin console (its sources changed since admin-ui/dist was built)…'
      : 'Building the admin console once (admin-ui/dist is missing)…',
  );
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'admin-ui/vite.config.ts', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status === 0) say(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  // The API works without the console; say so instead of refusing to start.
  else say('The console build failed; starting the API without it (run `npm run build:ui` to see why).');
}

/** The docs page of the committed contract, cached under node_modules/.cache/platform-admin/docs/ by its hash. */
async function buildDocsWhenStale(): Promise<void> {
  if (!existsSync(path.join(root, 'node_modules', '.bin', 'redocly'))) {
    say(
      'The reference docs cannot be built here: @redocly/cli (a development dependency) is not installed, so /docs answers 503. Run `npm install`.',
    );
    return;
  }
  const started = Date.now();
  try {
    const { ensureDocs } = await import('./lib/docs.js');
    if (ensureDocs(root).built)
      say(`Reference docs built for this version of the contract in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } catch (error) {
    say(
      `The reference docs could not be built, so /docs answers 503: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
}
