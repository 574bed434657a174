// The house rules that keep the contract the only source of truth and dependencies pointing one way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ICruiseResult } from 'dependency-cruiser';
import { dependencyProblems, moduleCycles } from '../../scripts/check-architecture.js';
import { operationsOf as specOperations, loadBundledSpec } from '../support/spec.js';
import { operationsOf } from '../../server/src/http/operations.js';
import { loadApiSpec } from '../../server/src/http/spec.js';
import { CLUSTER_SORTABLE } from '../../server/src/modules/clusters/repository.js';
import { BU_SORTABLE } from '../../server/src/modules/business-units/repository.js';
import { MAPPING_SORTABLE } from '../../server/src/modules/print-template-mappings/repository.js';
import { USER_SORTABLE } from '../../server/src/modules/users/repository.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The fields a sort parameter's pattern allows, e.g. `^(code|name):(asc|desc)(,…)*$` → [code, name]. */
function sortFieldsOf(operationId: string): string[] {
  const op = specOperations(loadBundledSpec()).find((o) => o.operationId === operationId)!;
  const sort = op.parameters!.find((p) => p.name === 'sort')!;
  const pattern = (sort.schema as { pattern: string }).pattern;
  return /^\^\(([^)]+)\)/.exec(pattern)![1]!.split('|').sort();
}

describe('one source of truth', () => {
  it.each([
    ['listClusters', CLUSTER_SORTABLE],
    ['listBusinessUnits', BU_SORTABLE],
    ['listPrintTemplateMappings', MAPPING_SORTABLE],
    ['listUsers', USER_SORTABLE],
    ['exportClusters', CLUSTER_SORTABLE],
    ['exportBusinessUnits', BU_SORTABLE],
    ['exportUsers', USER_SORTABLE],
  ])('when %s sorts, then the server sorts by exactly the fields the contract allows', (operationId, sortable) => {
    expect(Object.keys(sortable).sort()).toEqual(sortFieldsOf(operationId));
  });

  it('when an operation is added, then it must declare its access (the server refuses to start otherwise)', () => {
    const ops = operationsOf(loadApiSpec());
    expect(ops.length).toBeGreaterThan(40);
    for (const op of ops) expect(['public', 'signed-in', 'key'], op.id).toContain(op.access.kind);
    const spec = loadApiSpec();
    const paths = spec.paths as Record<string, Record<string, Record<string, unknown>>>;
    delete paths['/api-system/clusters']!.get!['x-permission'];
    expect(() => operationsOf(spec)).toThrow(/GET \/api-system\/clusters: declare x-permission/);
  });

  it('when server code meets the contract, then it does so without casts that erase types', () => {
    const offenders = filesUnder('server/src')
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ f, i, line })),
      )
      .filter(({ line }) => /\bas (never|any)\b/.test(line))
      .map(({ f, i, line }) => `${f}:${i + 1}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});

describe('dependencies point one way', () => {
  it('when the real tree is checked, then no dependency rule is broken and no module depends on itself in a circle', async () => {
    expect(await dependencyProblems()).toEqual([]);
  });

  it('when a tree breaks each rule once, then the check names every break', async () => {
    // test/spec/fixtures/architecture: a miniature server and console, each file breaking one rule on purpose.
    const fixture = path.resolve('test/spec/fixtures/architecture');
    const problems = await dependencyProblems(['server/src', 'admin-ui/src'], fixture);
    expect(problems.sort()).toEqual([
      'console-through-data-provider: admin-ui/src/screen.ts → openapi/client.ts',
      'core-is-neutral: server/src/core/rule.ts → server/src/http/pipeline.ts',
      'module-cycle: alpha → beta → alpha (modules depend on each other in one direction only)',
      'no-circular: server/src/modules/beta/present.ts → server/src/modules/beta/service.ts (server/src/modules/beta/service.ts → server/src/modules/beta/present.ts)',
      'no-foreign-repository: server/src/modules/alpha/service.ts → server/src/modules/beta/repository.ts',
    ]);
  });

  const graph = (edges: Record<string, string[]>) =>
    ({
      modules: Object.entries(edges).map(([source, deps]) => ({
        source,
        dependencies: deps.map((resolved) => ({ resolved })),
      })),
    }) as unknown as ICruiseResult;

  it('when two modules import each other through different files, then the check reports the module cycle', () => {
    const cycles = moduleCycles(
      graph({
        'server/src/modules/business-units/service.ts': ['server/src/modules/memberships/service.ts'],
        'server/src/modules/memberships/present.ts': ['server/src/modules/business-units/form.ts'],
        'server/src/modules/memberships/service.ts': [],
      }),
    );
    expect(cycles).toEqual([['business-units', 'memberships', 'business-units']]);
  });

  it('when modules depend in one direction, then no cycle is reported', () => {
    expect(
      moduleCycles(graph({ 'server/src/modules/memberships/service.ts': ['server/src/modules/clusters/service.ts'] })),
    ).toEqual([]);
  });
});
