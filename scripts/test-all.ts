// Every vitest project, as `npm test` runs them after the static checks. vitest runs a project that takes its files
// one at a time (the browser flows: one server, one browser) only after every parallel project has finished, which
// leaves a core idle for the length of the flows. Here the flows run in a vitest of their own beside the rest, so
// both cores stay busy from start to end. Their lines are marked `e2e │`; each run ends with its own summary, and
// the command fails when either run does.
//
//   npm test                      everything (lint, types, then this)
//   npm test -- <vitest args>     a plain `vitest run <args>` (one file, one project, a filter)
//
// The flows finish minutes before the other projects. CI fills that time with slow suites of its own that need no
// quiet machine (the production checks, the crash rounds), named as npm scripts in TEST_AFTER_FLOWS
// (`TEST_AFTER_FLOWS="test:ops test:soak:faults"`): they run one after another once the flows are done, their lines
// marked with the script's name, and the command fails when one of them does.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const VITEST = 'node_modules/.bin/vitest';

function run(command: string, args: string[], prefix: string | null): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
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

/** The browser flows, then each script of TEST_AFTER_FLOWS in turn; every one runs whatever the one before did. */
async function flowsLane(): Promise<number[]> {
  const codes = [await run(VITEST, ['run', '--project', 'e2e'], 'e2e │ ')];
  for (const script of (process.env.TEST_AFTER_FLOWS ?? '').split(/\s+/).filter(Boolean))
    codes.push(await run('npm', ['run', '-s', script], `${script} │ `));
  return codes;
}

const args = process.argv.slice(2);
const codes =
  args.length > 0
    ? [await run(VITEST, ['run', ...args], null)]
    : (await Promise.all([run(VITEST, ['run', '--project', '!e2e'], null).then((c) => [c]), flowsLane()])).flat();
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
