// `npm start`: builds the console once when its sources are present but the build is not, then starts the server.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../server/src/main.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const uiSource = path.join(root, 'admin-ui', 'index.html');
const uiDist = path.join(root, 'admin-ui', 'dist', 'index.html');

// With CONSOLE_DIR the server serves another build (the end-to-end tests' own), so there is nothing to build here.
if (existsSync(uiSource) && !existsSync(uiDist) && process.env.SKIP_UI_BUILD !== '1' && !process.env.CONSOLE_DIR) {
  process.stderr.write('Building the admin console once (admin-ui/dist is missing)…\n');
  const started = Date.now();
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', 'admin-ui/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status === 0) process.stderr.write(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  // The API works without the console; say so instead of refusing to start.
  else process.stderr.write('The console build failed; starting the API without it (run `npm run build:ui` to see why).\n');
}

await main();
