// Builds the reference docs into one self-contained HTML file (scripts inlined, so it renders offline).
// The server serves it at /docs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { SPEC_ROOT } from './lib/contract.js';

export const DOCS_PATH = process.env.DOCS_OUTPUT ?? 'var/docs/index.html';

mkdirSync(dirname(DOCS_PATH), { recursive: true });
execFileSync(
  'node_modules/.bin/redocly',
  ['build-docs', SPEC_ROOT, '--inlineBundle', '--title', 'Platform Administration API', '-o', DOCS_PATH],
  { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' } },
);
console.log(`wrote ${DOCS_PATH} (${Math.round(statSync(DOCS_PATH).size / 1024)} KiB)`);
