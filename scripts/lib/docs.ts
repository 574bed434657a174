// Builds the reference docs: one self-contained HTML page (Redoc with its scripts inlined) that makes no request
// anywhere else, so it renders offline and under the server's Content-Security-Policy. Needs @redocly/cli, a
// development dependency: `npm start` builds the page when the contract changed, `npm run build` ships one in dist/.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_BASE_URL_PLACEHOLDER, bundleHash, publishedSpec } from '../../server/src/http/published-spec.js';
import { docsMarker, docsPageCandidates, headOf } from '../../server/src/http/static.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUNDLE_FILE = path.join(ROOT, 'openapi', 'generated', 'openapi.bundled.json');
const TITLE = 'Platform Administration API';

/** Redoc's options (`--openapi.<name>`): the contract is served at /openapi.json and /openapi.yaml instead. */
const REDOC_OPTIONS = ['--openapi.hideDownloadButtons=true'];

/** Redoc's footer shows "API docs by Redocly" with a logo fetched from its CDN: both go, so nothing leaves the page. */
const REDOCLY_LOGOS = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];
const HIDE_ATTRIBUTION = '<style>a[href="https://redocly.com/redoc/"]{display:none!important}</style>';
/**
 * Also a policy of the page's own, for the file opened from disk: nothing but the page itself, so no request can
 * leave it (served, the server's header says the same).
 */
const PAGE_POLICY =
  `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'unsafe-inline' blob:; ` +
  `worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'">`;

/** Makes Redoc's page self-contained: no logo from a CDN, no attribution link, its own policy and the spec marker. */
export function selfContained(html: string, hash: string): string {
  let out = html;
  for (const logo of REDOCLY_LOGOS) out = out.split(logo).join('data:,');
  out = out.replace(
    /<meta charset="?utf-?8"? ?\/?>/i,
    (charset) => `${charset}\n  ${PAGE_POLICY}\n  ${HIDE_ATTRIBUTION}`,
  );
  out = out.replace(/^<!DOCTYPE html>/i, (doctype) => `${doctype}\n${docsMarker(hash)}`);
  if (
    REDOCLY_LOGOS.some((logo) => out.includes(logo)) ||
    !out.includes(docsMarker(hash)) ||
    !out.includes(PAGE_POLICY)
  ) {
    throw new Error(
      'The docs page has an unexpected shape (did @redocly/cli change?): the CDN logo, the policy or the marker is not where expected',
    );
  }
  return out;
}

/**
 * Builds the docs page of a bundle into `output`. `baseUrl`: the address the page names, or the placeholder the
 * server replaces with the deployment's address (the default); null keeps the bundle's own servers.
 */
export function buildDocs(
  bundleText: string,
  output: string,
  baseUrl: string | null = DOCS_BASE_URL_PLACEHOLDER,
): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'platform-admin-docs-'));
  try {
    const bundle = JSON.parse(bundleText) as object;
    const input = path.join(dir, 'openapi.json');
    writeFileSync(input, JSON.stringify(baseUrl === null ? bundle : publishedSpec(bundle, baseUrl)));
    const raw = path.join(dir, 'index.html');
    execFileSync(
      path.join(ROOT, 'node_modules', '.bin', 'redocly'),
      ['build-docs', input, '--inlineBundle', '--title', TITLE, ...REDOC_OPTIONS, '-o', raw],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
      },
    );
    mkdirSync(path.dirname(output), { recursive: true });
    // Written aside and renamed: a server (or another start) reading the page never sees half of it.
    const partial = `${output}.${process.pid}.partial`;
    writeFileSync(partial, selfContained(readFileSync(raw, 'utf8'), bundleHash(bundleText)));
    renameSync(partial, output);
    return output;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The docs page the server serves for the committed bundle, built when missing (about 2 s) and kept under
 * node_modules/.cache/platform-admin/docs/<bundle hash>.html; pages of other bundles are removed.
 * Returns whether it built one.
 */
export function ensureDocs(root = ROOT): { file: string; built: boolean } {
  const bundleText = readFileSync(path.join(root, 'openapi', 'generated', 'openapi.bundled.json'), 'utf8');
  const hash = bundleHash(bundleText);
  const file = docsPageCandidates(root, hash)[1]!;
  if (existsSync(file) && headOf(file).includes(docsMarker(hash))) return { file, built: false };
  buildDocs(bundleText, file);
  for (const other of readdirSync(path.dirname(file))) {
    if (other.endsWith('.html') && other !== path.basename(file))
      rmSync(path.join(path.dirname(file), other), { force: true });
  }
  return { file, built: true };
}
