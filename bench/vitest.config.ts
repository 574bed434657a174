import { defineConfig } from 'vitest/config';

// Runs the harness smoke test on its own: npx vitest run --config bench/vitest.config.ts
export default defineConfig({
  test: {
    name: 'bench',
    root: new URL('..', import.meta.url).pathname,
    include: ['test/bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
