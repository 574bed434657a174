// Fails when the committed bundle or types differ from a fresh generation: the spec changed without `npm run gen:types`.
import { existsSync, readFileSync } from 'node:fs';
import { BUNDLE_PATH, TYPES_PATH, bundleSpec, generateTypes } from './lib/contract.js';

const bundled = bundleSpec();
const expected: Record<string, string> = { [BUNDLE_PATH]: bundled, [TYPES_PATH]: await generateTypes(bundled) };
const stale = Object.entries(expected)
  .filter(([path, content]) => !existsSync(path) || readFileSync(path, 'utf8') !== content)
  .map(([path]) => path);

if (stale.length > 0) {
  console.error(
    `Out of date: ${stale.join(', ')}.\nThe spec in openapi/ changed; run \`npm run gen:types\` and commit the result.`,
  );
  process.exit(1);
}
console.log('generated files are up to date');
