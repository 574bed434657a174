import { defineConfig } from 'vitest/config';

// The contract suite on its own: `npx vitest run --config test/contract/vitest.config.ts`.
// (In `npm test` the same files run as the root config's `contract` project.)
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/contract/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
