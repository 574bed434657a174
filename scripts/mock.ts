// `npm run mock [-- -p PORT] [-- -h HOST] [-- <more Prism options>]`: Prism answering from the contract on
// 127.0.0.1:4010. MOCK_PORT (and MOCK_HOST) set the address too, as for `npm run mock:stateful`; `-p`/`-h` win over
// them. Other options go to `prism mock` as they are (`--errors`, `-d` for invented answers on every request …).
//
// Prism invents answers (`Prefer: dynamic=true`) with json-schema-faker, which fakes every optional property and makes
// each array as long as its `maxItems` allows: the contract's true bounds (a page of up to 1,000,000 rows with
// perpage=-1) would have it build a million records per request. So Prism reads a copy of the bundle with the faker
// limited to small answers (`x-json-schema-faker`, Prism's own setting) and object sizes capped for the faker; the
// contract itself keeps its bounds, and the copy is removed when the mock stops.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = 'openapi/generated/openapi.bundled.json';
const PRISM = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'prism.cmd' : 'prism');

export interface MockOptions {
  host: string;
  port: string;
  /** Everything else, for Prism. */
  rest: string[];
}

/**
 * How long an invented array is, at most (the contract's largest `minItems` is 10: the document types), and how many
 * entries a large open-ended object (a map of up to 100 or 1,000,000 entries) gets.
 */
const FAKER_MAX_ITEMS = 10;
const FAKER_MAX_PROPERTIES = 3;
/** How long an invented string is, at most (free text may be up to 100,000 characters in the contract). */
const FAKER_MAX_LENGTH = 64;
/** Maps the contract allows more entries than this are capped for the faker; smaller bounds stay exact. */
const LARGE_MAP = 25;

/**
 * The bundle as the mock reads it: the faker's limits set for the whole document, and every `maxProperties` above
 * the faker's cap lowered to it (json-schema-faker has no global cap for maps), and an untyped array its `items`. Requests are validated against the
 * same copy, so only maps of more than 25 entries are affected — the contract has them only in answers.
 */
export function mockSpec(bundled: unknown): unknown {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value);
    if (typeof out.maxProperties === 'number' && out.maxProperties > LARGE_MAP)
      out.maxProperties = FAKER_MAX_PROPERTIES;
    // A schema of no type that may be an (empty) array but names no `items` (NumberFormat's other options): the faker
    // fails on an array without `items`, where any validator reads it as "items of any kind".
    if ('maxItems' in out && !('items' in out) && !('type' in out)) out.items = {};
    return out;
  };
  return {
    ...(visit(bundled) as object),
    'x-json-schema-faker': { 'max-items': FAKER_MAX_ITEMS, 'min-items': 0, 'max-length': FAKER_MAX_LENGTH },
  };
}

/** Reads `-p`/`--port`, `-h`/`--host` (also `--port=N`) out of the arguments, else MOCK_PORT / MOCK_HOST. */
export function mockOptions(argv: string[], env: NodeJS.ProcessEnv): MockOptions {
  let host = env.MOCK_HOST?.trim() || '127.0.0.1';
  let port = env.MOCK_PORT?.trim() || '4010';
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '-p' || flag === '--port') port = value();
    else if (flag === '-h' || flag === '--host') host = value();
    else rest.push(arg);
  }
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535)
    throw new Error(`The mock's port must be a number from 0 to 65535 (got "${port}")`);
  return { host, port, rest };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let options: MockOptions;
  try {
    options = mockOptions(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  if (!existsSync(path.join(ROOT, SPEC))) {
    process.stderr.write(`${SPEC} is missing: run \`npm run gen:types\` first.\n`);
    process.exit(1);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-prism-'));
  const spec = path.join(dir, 'openapi.json');
  writeFileSync(spec, JSON.stringify(mockSpec(JSON.parse(readFileSync(path.join(ROOT, SPEC), 'utf8')))));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const prism = spawn(PRISM, ['mock', '-h', options.host, '-p', options.port, ...options.rest, spec], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => prism.kill(signal));
  prism.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
