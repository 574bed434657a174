// What the server serves besides the API: the published contract (/openapi.json, /openapi.yaml), the reference docs
// (/docs) and the console build, with caching that suits each (hashed assets forever, pages revalidated) and compression.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from './errors.js';
import { DOCS_BASE_URL_PLACEHOLDER, bundleHash, publishedSpec, yamlDocument } from './published-spec.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the client accepts (a `q=0` refuses one). */
export function preferredEncoding(req: Request): Encoding {
  const header = String(req.headers['accept-encoding'] ?? '').toLowerCase();
  const accepts = (name: string) =>
    header.split(',').some((part) => {
      const [token, ...params] = part.trim().split(';');
      return token?.trim() === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    });
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

const compressors: Record<Exclude<Encoding, 'identity'>, (b: Buffer) => Promise<Buffer>> = {
  // Quality 5: within a few milliseconds per 100 KB, close to the best ratio for text; built files are precompressed at 11.
  br: (b) => brotli(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } }),
  gzip: (b) => gzipAsync(b, { level: 6 }),
};

/** A small cache of generated or compressed bodies, so each is made once per variant (bounded: hosts vary). */
class BodyCache {
  private readonly entries = new Map<string, Promise<Buffer>>();
  constructor(private readonly limit = 64) {}
  get(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    let entry = this.entries.get(key);
    if (!entry) {
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
      entry = make();
      entry.catch(() => this.entries.delete(key));
      this.entries.set(key, entry);
    }
    return entry;
  }
}

/** Sends a generated text body, compressed when the client accepts it. */
async function sendText(
  req: Request,
  res: Response,
  cache: BodyCache,
  key: string,
  type: string,
  make: () => Buffer,
): Promise<void> {
  const encoding = preferredEncoding(req);
  const plain = () => cache.get(`identity ${key}`, () => Promise.resolve(make()));
  const body =
    encoding === 'identity'
      ? await plain()
      : await cache.get(`${encoding} ${key}`, async () => compressors[encoding](await plain()));
  res.setHeader('Content-Type', type);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', 'no-cache');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.status(200).end(body);
}

const HOST_HEADER = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/**
 * The address clients reach this deployment at: PUBLIC_BASE_URL, else the Host the request was sent to (only when it
 * is a plain host and port: it is written into the answer), else the loopback address of the port it arrived on.
 */
export function baseUrlOf(req: Request, publicBaseUrl: string | null): string {
  if (publicBaseUrl) return publicBaseUrl;
  const host = req.headers.host;
  if (typeof host === 'string' && HOST_HEADER.test(host)) return `${req.protocol}://${host.toLowerCase()}`;
  return `http://127.0.0.1:${req.socket.localPort ?? ''}`;
}

const isRead = (req: Request) => req.method === 'GET' || req.method === 'HEAD';

/** `/openapi.json` and `/openapi.yaml`: the bundled contract, its servers list naming this deployment. */
export function publishedContract(opts: { specPath: string; publicBaseUrl: string | null }): RequestHandler {
  const cache = new BodyCache();
  let bundle: object | null = null;
  return (req, res, next) => {
    if (!isRead(req) || (req.path !== '/openapi.json' && req.path !== '/openapi.yaml')) return next();
    bundle ??= JSON.parse(readFileSync(opts.specPath, 'utf8')) as object;
    const base = baseUrlOf(req, opts.publicBaseUrl);
    const spec = () => publishedSpec(bundle!, base);
    const send =
      req.path === '/openapi.json'
        ? sendText(req, res, cache, `json ${base}`, 'application/json; charset=utf-8', () =>
            Buffer.from(`${JSON.stringify(spec(), null, 2)}\n`),
          )
        : sendText(req, res, cache, `yaml ${base}`, 'application/yaml; charset=utf-8', () =>
            Buffer.from(yamlDocument(spec())),
          );
    send.catch(next);
  };
}

/** Where built docs pages live: `npm run build` puts one next to the server, `npm start` caches one per spec version. */
export function docsPageCandidates(root: string, hash: string): string[] {
  return [
    path.join(root, 'api-docs', 'index.html'),
    path.join(root, 'node_modules', '.cache', 'platform-admin', 'docs', `${hash}.html`),
  ];
}

/** The marker a built docs page carries: the fingerprint of the bundle it was built from. */
export const docsMarker = (hash: string) => `<!-- platform-admin docs of spec ${hash} -->`;

/** The first bytes of a file, as text (the marker is near the top; the page is megabytes). */
export function headOf(file: string, bytes = 512): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The docs page built from this bundle, or null (with the reason) when there is none or only an outdated one. */
export function findDocsPage(root: string, bundleText: string): { file: string } | { file: null; reason: string } {
  const hash = bundleHash(bundleText);
  let stale = false;
  for (const file of docsPageCandidates(root, hash)) {
    if (!existsSync(file)) continue;
    if (headOf(file).includes(docsMarker(hash))) return { file };
    stale = true;
  }
  return {
    file: null,
    reason: stale
      ? 'The reference docs were built from another version of the API contract. Restart with `npm start` (it rebuilds them) or run `npm run build`.'
      : 'The reference docs are not built. `npm start` builds them at start; a production tree gets them from `npm run build`.',
  };
}

/** The docs page's own policy: Redoc runs inline scripts and workers; nothing is loaded from anywhere else. */
function docsPolicy(upgradeInsecure: boolean): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' blob:",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    ...(upgradeInsecure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** GET `/docs`: the Redoc page built from the contract, naming this deployment's address. Never falls through to the console. */
export function referenceDocs(opts: {
  root: string;
  specPath: string;
  publicBaseUrl: string | null;
  upgradeInsecure: (req: Request) => boolean;
}): RequestHandler {
  const cache = new BodyCache(16);
  let page: { file: string; mtimeMs: number; html: string } | null = null;
  // The contract this server serves does not change while it runs.
  let bundleText: string | null = null;
  return (req, res, next) => {
    bundleText ??= readFileSync(opts.specPath, 'utf8');
    const found = findDocsPage(opts.root, bundleText);
    if (found.file === null) {
      res
        .status(503)
        .setHeader('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`${found.reason}\nThe contract itself is at /openapi.json and /openapi.yaml.\n`);
      return;
    }
    const mtimeMs = statSync(found.file).mtimeMs;
    if (!page || page.file !== found.file || page.mtimeMs !== mtimeMs)
      page = { file: found.file, mtimeMs, html: readFileSync(found.file, 'utf8') };
    const html = page.html;
    const base = baseUrlOf(req, opts.publicBaseUrl);
    res.setHeader('Content-Security-Policy', docsPolicy(opts.upgradeInsecure(req)));
    sendText(req, res, cache, `${found.file} ${mtimeMs} ${base}`, 'text/html; charset=utf-8', () =>
      Buffer.from(html.split(DOCS_BASE_URL_PLACEHOLDER).join(base)),
    ).catch(next);
  };
}

/** Vite names built assets `<name>-<content hash>.<ext>`: such a file never changes under its name. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|map|txt|html|wasm)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The console's pages on the server. It routes inside the fragment (`/#/clusters/…`, which never reaches the server),
 * so its only page is the index; every other path is a file of its build or does not exist.
 */
const CONSOLE_PAGES = new Set(['/', '/index.html']);

/** What this server answers, for whoever asked for a path it does not have (a probe at `/metrics`, say). */
const SITE_MAP =
  'This server answers: the console at /, the API under /api and /api-system, the probes /healthz and /readyz, ' +
  'and the reference docs at /docs (the contract at /openapi.json and /openapi.yaml).';

/**
 * The console build: hashed assets cached for a year and sent compressed (the `.br`/`.gz` files the build wrote, else
 * compressed once in memory), every other file and the index page revalidated on each load (`no-cache`), so a new
 * deployment is picked up at the next visit.
 *
 * `spaFallback` ends every request the console's files did not answer: the console's page, else a 404 problem that says
 * what exists. An unknown path never gets the console's page, so a probe or a link to the wrong path fails visibly.
 */
export function consoleSite(dir: string): { files: RequestHandler[]; spaFallback: RequestHandler } {
  const cache = new BodyCache(256);
  const hashedAssets: RequestHandler = (req, res, next) => {
    if (!isRead(req) || !HASHED_ASSET.test(req.path) || !COMPRESSIBLE.test(req.path)) return next();
    const file = path.join(dir, req.path);
    if (!existsSync(file)) return next();
    const encoding = preferredEncoding(req);
    if (encoding === 'identity') return next();
    const suffix = encoding === 'br' ? '.br' : '.gz';
    const key = `${file} ${statSync(file).mtimeMs} ${encoding}`;
    cache
      .get(key, async () =>
        existsSync(file + suffix) ? readFile(file + suffix) : compressors[encoding](await readFile(file)),
      )
      .then((body) => {
        res.type(path.extname(file));
        res.setHeader('Content-Encoding', encoding);
        res.setHeader('Vary', 'Accept-Encoding');
        res.setHeader('Cache-Control', IMMUTABLE);
        res.setHeader('Content-Length', body.length);
        res.status(200).end(body);
      })
      .catch(next);
  };
  const files = express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    setHeaders(res, file) {
      const relative = `/${path.relative(dir, file).split(path.sep).join('/')}`;
      res.setHeader('Cache-Control', HASHED_ASSET.test(relative) ? IMMUTABLE : 'no-cache');
      if (HASHED_ASSET.test(relative) && COMPRESSIBLE.test(relative)) res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  const spaFallback: RequestHandler = (req, res, next) => {
    const index = path.join(dir, 'index.html');
    if (isRead(req) && CONSOLE_PAGES.has(req.path)) {
      if (!existsSync(index))
        return next(
          new HttpError(
            404,
            'The console is not built. `npm start` builds it at start; a production tree gets it from `npm run build`.',
          ),
        );
      res.setHeader('Cache-Control', 'no-cache');
      return res.sendFile(index);
    }
    next(new HttpError(404, `No route for ${req.method} ${req.path}. ${SITE_MAP}`));
  };
  return { files: [hashedAssets, files], spaFallback };
}
