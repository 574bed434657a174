// Fails when a committed generated file differs from a fresh generation: the spec changed without
// `npm run gen:types`, or the settings table without `npm run gen:config-docs`.
import { existsSync, readFileSync } from 'node:fs';
import { BUNDLE_PATH, TYPES_PATH, bundleSpec, generateTypes } from './lib/contract.js';
import { configDocs } from './gen-config-docs.js';

function staleOf(expected: Record<string, string>): string[] {
  return Object.entries(expected)
    .filter(([path, content]) => !existsSync(path) || readFileSync(path, 'utf8') !== content)
    .map(([path]) => path);
}

const bundled = bundleSpec();
const staleContract = staleOf({ [BUNDLE_PATH]: bundled, [TYPES_PATH]: await generateTypes(bundled) });
const staleConfig = staleOf(configDocs());

if (staleContract.length > 0)
  console.error(
    `Out of date: ${staleContract.join(', ')}.\nThe spec in openapi/ changed; run \`npm run gen:types\` and commit the result.`,
  );
if (staleConfig.length > 0)
  console.error(
    `Out of date: ${staleConfig.join(', ')}.\nThe settings in server/src/config-schema.ts changed; run \`npm run gen:config-docs\` and commit the result.`,
  );
if (staleContract.length + staleConfig.length > 0) process.exit(1);
console.log('generated files are up to date');
