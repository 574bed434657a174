// The commands that take a checkout to a running production tree. CI runs them (.ci/run installs, build.test.ts
// builds, installs the production dependencies and starts the result), and dockerfile.test.ts holds the Dockerfile
// to the same ones, so the image is made the way the tests prove works.
import { execFileSync } from 'node:child_process';

/** A full install, development dependencies included: the first step of `.ci/run` and of the image's build stage. */
export const INSTALL_ALL = ['npm', 'ci', '--no-audit', '--no-fund'];
/** The production build into dist/ (`-- --out <dir>` elsewhere). */
export const BUILD = ['npm', 'run', 'build'];
/** Where the build writes, in the checkout. */
export const BUILD_OUTPUT = 'dist';
/** Production dependencies only, from the npm cache the full install filled: no registry needed. */
export const INSTALL_PRODUCTION = [
  'npm',
  'ci',
  '--omit=dev',
  '--offline',
  '--no-audit',
  '--no-fund',
  '--loglevel=error',
];
/** The built tree's start (its package.json `start`). */
export const START = ['node', 'server/main.js'];

/** Runs one of these steps (with `extra` arguments) in `cwd`, its output kept for the error when it fails. */
export function runStep(step: readonly string[], extra: readonly string[] = [], cwd?: string): void {
  const [command, ...args] = step;
  execFileSync(command!, [...args, ...extra], { cwd, stdio: 'pipe' });
}
