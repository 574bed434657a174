import { defineConfig } from 'vitest/config';

// The fast reliability suite on its own (in `npm test` the same files run as the root config's `reliability`
// project): `npx vitest run --config test/reliability/vitest.config.ts`. Set TEST_DATABASE_URL to run each file on
// PostgreSQL as well as PGlite. The slow suite has its own config: vitest.soak.config.ts.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/reliability/**/*.test.ts'],
    exclude: ['test/reliability/**/*.soak.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
