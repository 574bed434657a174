// Every vitest project, as `npm test` runs them after the static checks. vitest runs a project that takes its files
// one at a time (the browser flows: one server, one browser) only after every parallel project has finished, which
// leaves a core idle for the length of the flows. Here the flows run in a vitest of their own beside the rest, so
// both cores stay busy from start to end. Their lines are marked `e2e │`; each run ends with its own summary, and
// the command fails when either run does.
//
//   npm test                      everything (lint, types, then this)
//   npm test -- <vitest args>     a plain `vitest run <args>` (one file, one project, a filter)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const VITEST = 'node_modules/.bin/vitest';

function run(args: string[], prefix: string | null): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(VITEST, ['run', ...args], { stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (prefix) {
      for (const [stream, out] of [
        [child.stdout!, process.stdout],
        [child.stderr!, process.stderr],
      ] as const)
        createInterface({ input: stream }).on('line', (line) => out.write(`${prefix}${line}\n`));
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const args = process.argv.slice(2);
const codes =
  args.length > 0
    ? [await run(args, null)]
    : await Promise.all([run(['--project', '!e2e'], null), run(['--project', 'e2e'], 'e2e │ ')]);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
