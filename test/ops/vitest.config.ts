import { defineConfig } from 'vitest/config';

// `npm run test:ops`: the slow checks of how the product is built and run in production (a full build, an install
// of production dependencies from the npm cache, a start on PostgreSQL). About a minute and a half.
export default defineConfig({
  test: {
    name: 'ops',
    include: ['test/ops/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
