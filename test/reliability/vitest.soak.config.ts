import { defineConfig } from 'vitest/config';

// The slow reliability suite (`npm run test:soak`): kill -9 crash rounds on PostgreSQL and PGlite, two replicas,
// and the three-minute soak — one file at a time, so the soak measures the server alone (about four minutes in all).
//   npx vitest run --config test/reliability/vitest.soak.config.ts
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/reliability/**/*.soak.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 280_000,
    hookTimeout: 120_000,
  },
});
