import { defineConfig } from 'vitest/config';

// `npm run test:ops` (CI runs it once, after the soak): the slow checks of how the product is built and run in
// production. A full build, an install of production dependencies from the npm cache and a start on PostgreSQL; the
// Dockerfile held to those steps; the shipped nginx configuration in front of two replicas (Debian's nginx); the quick
// start on Node 20 (NODE20_BIN) while CI runs on 24. About two minutes.
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
