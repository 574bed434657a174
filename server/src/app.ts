import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import express, { type Express } from 'express';
import helmet from 'helmet';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { StoragePort } from './storage/port.js';
import { isLocalStorage } from './storage/index.js';
import { requestLogger } from './http/logging.js';
import { authenticate, requireAccess } from './http/auth.js';
import { cors } from './http/cors.js';
import { assertEveryOperationHandled, dispatch } from './http/handler.js';
import { imageUploadsOnly, multipartUpload } from './http/multipart.js';
import { identifyOperation, operationsOf } from './http/operations.js';
import { canonicalQuery } from './http/query-encoding.js';
import { apiNotFound, problemHandler } from './http/problem.js';
import { API_SPEC_PATH, loadApiSpec } from './http/spec.js';
import { createHandlers, createServices, type AppHandlers } from './modules/index.js';

export interface AppDeps {
  config: Config;
  db: { knex: Knex };
  storage: StoragePort;
  logger: Logger;
  /** Replaces some operations' handlers (for tests of the request pipeline itself). */
  handlerOverrides?: Partial<AppHandlers>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UI_DIST_DIR = path.join(ROOT, 'admin-ui', 'dist');
const DOCS_FILE = path.join(ROOT, 'var', 'docs', 'index.html');

/** Paths the contract covers; everything else (console, docs) bypasses the validator. */
const CONTRACT_PATH = /^\/(api|api-system|files)(\/|$)|^\/healthz\/?$/;

/** Builds the express app (no listen): logging, security headers, auth, contract validation, modules, errors. */
export function createApp({ config, db, storage, logger, handlerOverrides }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // ETags mean "record version" here (If-Match); no automatic body hashes.
  app.set('etag', false);

  app.use(requestLogger(logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Signed image URLs may point at the bucket (GCS); the console uses inline styles (emotion).
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'style-src': ["'self'", "'unsafe-inline'"],
        },
      },
      crossOriginResourcePolicy: { policy: 'same-site' },
    }),
  );
  app.use(cors(config.corsOrigins));
  // HEAD is GET without the body (RFC 9110): the contract lists GETs only, so let HEAD reach them as a GET.
  // Node decided when the request arrived that a HEAD response carries no body, so none is sent.
  app.use((req, _res, next) => {
    if (req.method === 'HEAD' && CONTRACT_PATH.test(req.path)) req.method = 'GET';
    next();
  });
  app.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));

  const spec = loadApiSpec();
  const operations = operationsOf(spec);
  const deps = { config, knex: db.knex, storage, logger };
  const services = createServices(deps);
  const handlers = { ...createHandlers(deps, services), ...handlerOverrides };
  assertEveryOperationHandled(operations.map((op) => op.id), handlers);

  // What each request addresses, and so what it requires, comes from the contract.
  app.use(identifyOperation(operations));
  // API answers carry short-lived signed URLs and change with every write: browsers must not replay a cached copy
  // (a conditional GET after a logo upload was answered 304 with the old record).
  app.use(['/api', '/api-system'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(['/api', '/api-system'], authenticate(services.auth.caller), requireAccess);
  // Only upload operations take multipart, and only after authentication and the access rule: an anonymous or
  // unauthorised caller never gets a 5 MB body buffered and inspected.
  const parseMultipart = multipartUpload();
  app.use((req, res, next) => (req.operation?.multipart ? parseMultipart(req, res, next) : next()), imageUploadsOnly());

  app.use(canonicalQuery);
  app.use(
    OpenApiValidator.middleware({
      apiSpec: API_SPEC_PATH,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true, allErrors: true },
      validateResponses: config.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      fileUploader: false,
      ignorePaths: (p: string) => !CONTRACT_PATH.test(p),
    }),
  );

  if (isLocalStorage(storage)) app.use(storage.router());
  app.use(dispatch(handlers));
  app.use(['/api', '/api-system', '/files', '/healthz'], apiNotFound);

  mountDocs(app);
  mountConsole(app, config.consoleDir ?? UI_DIST_DIR);

  app.use(problemHandler);
  return app;
}

/** Reference docs (`npm run docs` writes var/docs/index.html); Redoc needs inline scripts and workers. */
function mountDocs(app: Express): void {
  app.get(['/docs', '/docs/'], (_req, res, next) => {
    if (!existsSync(DOCS_FILE)) return next();
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:",
    );
    res.sendFile(DOCS_FILE);
  });
}

/** The console build, when present, with an SPA fallback for its client-side routes. */
function mountConsole(app: Express, dir: string): void {
  app.use(express.static(dir, { index: 'index.html', fallthrough: true }));
  app.get('/{*rest}', (req, res, next) => {
    const index = path.join(dir, 'index.html');
    if (!req.accepts('html') || !existsSync(index)) return next();
    res.sendFile(index);
  });
}
