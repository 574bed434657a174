// `npm run docs`: the reference docs as one self-contained HTML file (scripts inlined, no request leaves the page),
// for reading offline or publishing elsewhere. It names the contract's own servers, or PUBLIC_BASE_URL when set.
// The server builds and serves its own copy at /docs (see scripts/lib/docs.ts).
import { readFileSync, statSync } from 'node:fs';
import { BUNDLE_FILE, buildDocs } from './lib/docs.js';

export const DOCS_PATH = process.env.DOCS_OUTPUT ?? 'var/docs/index.html';

const base = process.env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '') || null;
buildDocs(readFileSync(BUNDLE_FILE, 'utf8'), DOCS_PATH, base);
console.log(`wrote ${DOCS_PATH} (${Math.round(statSync(DOCS_PATH).size / 1024)} KiB)`);
