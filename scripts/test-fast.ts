// The inner loop: the spec checks, the server suites on the embedded database only, and the console's tests — the
// projects that need no browser, no PostgreSQL and no contract runner. `npm test` runs everything.
// Extra arguments go to vitest, e.g. `npm run test:fast -- --changed` runs only the tests the uncommitted changes reach.
import { spawnSync } from 'node:child_process';

const env = { ...process.env };
// Server suites run on PostgreSQL too when this is set; the inner loop stays on the embedded database.
delete env.TEST_DATABASE_URL;

const started = Date.now();
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'spec', '--project', 'server', '--project', 'ui', ...process.argv.slice(2)],
  { stdio: 'inherit', env },
);
console.log(`test:fast took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(run.status ?? 1);
