import { defineConfig } from 'vitest/config';

// One runner, several projects: each part of the product keeps its own environment and time budget.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the CPUs: a single worker on a 2-core machine. Most files wait on
    // a database, a child process or a browser, so two workers keep both cores busy.
    maxWorkers: 2,
    // A worker that dies mid-file leaves only "Worker exited unexpectedly"; the second reporter names the file.
    reporters: ['default', './test/support/unfinished-files-reporter.ts'],
    projects: [
      {
        test: {
          name: 'spec',
          include: ['test/spec/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          // Files share a worker's module cache: the server and its templates load once per worker, not per file.
          // Safe because no server test mocks a module or changes process-wide state.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: './admin-ui/vite.config.ts',
        test: {
          name: 'ui',
          include: ['admin-ui/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['admin-ui/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // The whole Dredd run is the hook: its own budget (runner.ts) and a minute to start and stop around it.
          hookTimeout: 540_000,
        },
      },
      {
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          // The slow crash, replica and soak files run in `npm run test:soak`.
          exclude: ['test/reliability/**/*.soak.test.ts'],
          environment: 'node',
          isolate: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'bench',
          include: ['test/bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          // One server and one browser: flows run one file at a time.
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // A poll waits on a real browser, a debounced search and a real server on a shared 2-core machine: the
          // one-second default fails a correct screen whenever the machine is busy.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
