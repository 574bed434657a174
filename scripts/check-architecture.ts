// Checks the direction of dependencies: the rules in .dependency-cruiser.cjs file by file, and no cycle between the
// server's modules as wholes (a module is a folder of server/src/modules/). `npm test` runs it on the real tree
// (test/spec/architecture.test.ts); `npx tsx scripts/check-architecture.ts` prints the same verdict.
import { createRequire } from 'node:module';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const { forbidden, options } = require('../.dependency-cruiser.cjs') as {
  forbidden: unknown[];
  options: Record<string, unknown>;
};

const MODULE = /^server\/src\/modules\/([^/]+)\//;

/** The trees the rules govern. */
export const GOVERNED = ['server/src', 'admin-ui/src'];

/** The module-level graph and its cycles: a → b when a file of module a imports a file of module b. */
export function moduleCycles(result: ICruiseResult): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const m of result.modules) {
    const from = MODULE.exec(m.source)?.[1];
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = MODULE.exec(d.resolved)?.[1];
      if (to && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    state.set(node, 'open');
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open')
        cycles.push([...trail.slice(trail.indexOf(next)), node, next].filter((n, i, a) => i === 0 || a[i - 1] !== n));
      else if (!state.has(next)) visit(next, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node, []);
  return cycles;
}

/**
 * Every broken rule and module cycle under `paths`, one line each; empty when the tree keeps the rules.
 * `baseDir` is the root the rules' paths are relative to (the repository; a test fixture passes its own).
 */
export async function dependencyProblems(paths: string[] = GOVERNED, baseDir = process.cwd()): Promise<string[]> {
  const reported = await cruise(paths, {
    ...options,
    baseDir,
    validate: true,
    ruleSet: { forbidden } as never,
    outputType: 'json',
  });
  const result = (typeof reported.output === 'string' ? JSON.parse(reported.output) : reported.output) as ICruiseResult;
  const problems = result.summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : ''}`,
  );
  for (const cycle of moduleCycles(result))
    problems.push(`module-cycle: ${cycle.join(' → ')} (modules depend on each other in one direction only)`);
  return problems;
}

async function main(): Promise<void> {
  const problems = await dependencyProblems();
  if (problems.length > 0) {
    console.error(
      `Dependency rules broken (see .dependency-cruiser.cjs and docs/adding-a-resource.md):\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('dependencies: no rule broken, no module cycle');
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
