// Writes the bundled spec and the TypeScript types that the server and the console compile against.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BUNDLE_PATH, TYPES_PATH, bundleSpec, generateTypes } from './lib/contract.js';

const bundled = bundleSpec();
const types = await generateTypes(bundled);
mkdirSync(dirname(BUNDLE_PATH), { recursive: true });
writeFileSync(BUNDLE_PATH, bundled);
writeFileSync(TYPES_PATH, types);
console.log(`wrote ${BUNDLE_PATH} and ${TYPES_PATH}`);
